// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP side of xsk_tool: UDP/IPv4 frames to port 9 (discard, what the
 * tool sends) go to the AF_XDP socket of the queue they arrived on. The
 * rest, and frames of queues with no socket in xsks, pass to the stack:
 * ping, ARP and TCP keep working through a socket's queue.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define XSK_UDP_PORT	9

/*
 * Sizes, not BTF types: the kernel keeps no BTF for XSKMAP values, and
 * libbpf would otherwise retry the map creation without them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 64);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} xsks SEC(".maps");

/* Whether the frame is UDP/IPv4 to XSK_UDP_PORT. */
static __always_inline int xsk_udp_frame(void *data, void *end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->protocol != IPPROTO_UDP || ip->ihl < 5)
		return 0;
	udp = (void *)ip + ip->ihl * 4;
	if ((void *)(udp + 1) > end)
		return 0;
	return udp->dest == bpf_htons(XSK_UDP_PORT);
}

SEC("xdp")
int xsk_redirect(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (!xsk_udp_frame(data, end))
		return XDP_PASS;
	return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
