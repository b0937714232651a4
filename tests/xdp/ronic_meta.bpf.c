// SPDX-License-Identifier: GPL-2.0
/*
 * rx metadata for ronic's tests: an XDP program, loaded bound to the port
 * (devbound_load), that asks the driver for each frame's RSS hash and its
 * type and for the VLAN tag the device took off, and keeps the last
 * answers for three kinds of frame: TCP to port 5500, UDP to port 5501,
 * and ICMP (the VLAN case). Every frame passes.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* The kernel's enum (include/net/xdp.h); only its name and size matter. */
enum xdp_rss_hash_type {
	XDP_RSS_TYPE_NONE = 0,
};

extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx,
					__be16 *vlan_proto,
					__u16 *vlan_tci) __ksym;

enum { META_TCP, META_UDP, META_ICMP, META_KINDS };

struct meta_rec {
	__u32 seen;		/* frames of this kind */
	__s32 hash_rc;		/* the last frame's answers */
	__u32 hash;
	__u32 type;
	__s32 vlan_rc;
	__u32 vlan_proto;	/* host order */
	__u32 vlan_tci;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, META_KINDS);
	__type(key, __u32);
	__type(value, struct meta_rec);
} meta_seen SEC(".maps");

/* Which kind of frame this is, or -1 for the others. */
static __always_inline int frame_kind(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u16 proto;
	struct iphdr *ip;
	void *l4;

	if ((void *)(eth + 1) > data_end)
		return -1;
	proto = eth->h_proto;
	ip = (void *)(eth + 1);
	/* A tag the device left on (rxvlan off): look past it. */
	if (proto == bpf_htons(ETH_P_8021Q)) {
		if ((void *)ip + 4 > data_end)
			return -1;
		proto = *(__u16 *)((void *)ip + 2);
		ip = (void *)ip + 4;
	}
	if (proto != bpf_htons(ETH_P_IP) || (void *)(ip + 1) > data_end)
		return -1;
	l4 = (void *)ip + ip->ihl * 4;
	if (ip->protocol == IPPROTO_ICMP)
		return META_ICMP;
	if (ip->protocol == IPPROTO_TCP) {
		struct tcphdr *th = l4;

		if ((void *)(th + 1) <= data_end && th->dest == bpf_htons(5500))
			return META_TCP;
	} else if (ip->protocol == IPPROTO_UDP) {
		struct udphdr *uh = l4;

		if ((void *)(uh + 1) <= data_end && uh->dest == bpf_htons(5501))
			return META_UDP;
	}
	return -1;
}

SEC("xdp")
int xdp_meta(struct xdp_md *ctx)
{
	enum xdp_rss_hash_type type = XDP_RSS_TYPE_NONE;
	__u32 key, hash = 0;
	struct meta_rec *rec;
	__be16 vproto = 0;
	__u16 tci = 0;
	int kind;

	kind = frame_kind(ctx);
	if (kind < 0)
		return XDP_PASS;
	key = kind;
	rec = bpf_map_lookup_elem(&meta_seen, &key);
	if (!rec)
		return XDP_PASS;
	rec->hash_rc = bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	rec->hash = hash;
	rec->type = type;
	rec->vlan_rc = bpf_xdp_metadata_rx_vlan_tag(ctx, &vproto, &tci);
	rec->vlan_proto = bpf_ntohs(vproto);
	rec->vlan_tci = tci;
	__sync_fetch_and_add(&rec->seen, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
