// SPDX-License-Identifier: GPL-2.0
/*
 * XDP programs for ronic's tests, compiled at test time with clang:
 * one per action, each answering every frame the same way.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

static __always_inline int swap_macs(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char tmp[ETH_ALEN];

	if (data + sizeof(*eth) > data_end)
		return -1;
	__builtin_memcpy(tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, tmp, ETH_ALEN);
	return 0;
}

SEC("xdp")
int xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int xdp_drop(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("xdp")
int xdp_aborted(struct xdp_md *ctx)
{
	return XDP_ABORTED;
}

/* Send every frame back where it came from, addresses swapped. */
SEC("xdp")
int xdp_tx_back(struct xdp_md *ctx)
{
	return swap_macs(ctx) ? XDP_DROP : XDP_TX;
}

/* The same through the redirect path: ndo_xdp_xmit of the ingress port. */
SEC("xdp")
int xdp_redirect_back(struct xdp_md *ctx)
{
	if (swap_macs(ctx))
		return XDP_DROP;
	return bpf_redirect(ctx->ingress_ifindex, 0);
}

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} tx_port SEC(".maps");

/* Redirect everything to the port in tx_port[0] (set by the test). */
SEC("xdp")
int xdp_redirect_map(struct xdp_md *ctx)
{
	return bpf_redirect_map(&tx_port, 0, XDP_DROP);
}

/*
 * The same actions for frames of several buffers (MTU above 1996): the
 * xdp.frags section marks a program that takes them (BPF_F_XDP_HAS_FRAGS).
 * Only the head buffer is in [data, data_end): the MAC swap needs no more.
 */
SEC("xdp.frags")
int xdp_pass_frags(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp.frags")
int xdp_drop_frags(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("xdp.frags")
int xdp_tx_back_frags(struct xdp_md *ctx)
{
	return swap_macs(ctx) ? XDP_DROP : XDP_TX;
}

SEC("xdp.frags")
int xdp_redirect_back_frags(struct xdp_md *ctx)
{
	if (swap_macs(ctx))
		return XDP_DROP;
	return bpf_redirect(ctx->ingress_ifindex, 0);
}

/*
 * Cut TRIM_BYTES off the end and send the rest back: on a frame of
 * several buffers this shrinks (or frees) its last fragments.
 */
#define TRIM_BYTES	2000

SEC("xdp.frags")
int xdp_trim_tx_frags(struct xdp_md *ctx)
{
	if (bpf_xdp_adjust_tail(ctx, -TRIM_BYTES))
		return XDP_DROP;
	return swap_macs(ctx) ? XDP_DROP : XDP_TX;
}

/* Frames seen by the counting programs below (scripts/bench.sh), per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bench_count SEC(".maps");

static __always_inline void count_frame(void)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&bench_count, &key);

	if (n)
		(*n)++;
}

/* XDP_DROP with a count the same for every driver. */
SEC("xdp")
int xdp_drop_count(struct xdp_md *ctx)
{
	count_frame();
	return XDP_DROP;
}

/* XDP_DROP with a count, for frames of several buffers (MTU 9000). */
SEC("xdp.frags")
int xdp_drop_frags_count(struct xdp_md *ctx)
{
	count_frame();
	return XDP_DROP;
}

/* XDP_TX with a count: what the driver was asked to send back. */
SEC("xdp")
int xdp_tx_count(struct xdp_md *ctx)
{
	count_frame();
	return swap_macs(ctx) ? XDP_DROP : XDP_TX;
}

char _license[] SEC("license") = "GPL";
