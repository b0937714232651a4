// SPDX-License-Identifier: GPL-2.0
/*
 * Load an XDP program bound to one device and attach it there (native
 * mode): what a program that calls the rx metadata kfuncs needs, and what
 * ip link cannot do. The program stays attached when this exits; detach
 * it with "ip link set dev DEV xdpdrv off".
 *
 *   devbound_load OBJ PROG DEV
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <linux/if_link.h>

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY	(1U << 6)	/* 6.3 uapi */
#endif

int main(int argc, char **argv)
{
	struct bpf_program *prog;
	struct bpf_object *obj;
	unsigned int ifindex;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: %s OBJ PROG DEV\n", argv[0]);
		return 2;
	}
	ifindex = if_nametoindex(argv[3]);
	if (!ifindex) {
		fprintf(stderr, "%s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	prog = bpf_object__find_program_by_name(obj, argv[2]);
	if (!prog) {
		fprintf(stderr, "%s: no program %s\n", argv[1], argv[2]);
		return 1;
	}
	bpf_program__set_ifindex(prog, ifindex);
	bpf_program__set_flags(prog, bpf_program__flags(prog) |
			       BPF_F_XDP_DEV_BOUND_ONLY);
	err = bpf_object__load(obj);
	if (!err)
		err = bpf_xdp_attach(ifindex, bpf_program__fd(prog),
				     XDP_FLAGS_DRV_MODE, NULL);
	if (err) {
		fprintf(stderr, "%s on %s: %s\n", argv[2], argv[3], strerror(-err));
		return 1;
	}
	return 0;
}
