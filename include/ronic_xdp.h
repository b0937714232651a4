/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP: program attach, dedicated XDP tx rings, and the selector that maps
 * a CPU to one of them for any number of CPUs.
 */
#ifndef _RONIC_XDP_H_
#define _RONIC_XDP_H_

#include <linux/jump_label.h>
#include <linux/types.h>

struct bpf_prog;
struct netdev_bpf;
struct net_device;
struct page_pool;
struct xdp_buff;
struct xdp_frame;
struct ronic_adapter;
struct ronic_ring;

/* The rx poll's verdict on one frame. */
enum ronic_xdp_verdict {
	RONIC_XDP_PASS,		/* build an skb from what the program left */
	RONIC_XDP_CONSUMED,	/* aborted or failed: page recycled */
	RONIC_XDP_DROP,		/* dropped: the buffers are still the poll's */
	RONIC_XDP_TX,		/* queued on an XDP ring; tail written later */
	RONIC_XDP_REDIRECT,	/* handed to xdp_do_redirect(); flush later */
};

/**
 * ronic_xdp_ring_index - the XDP tx ring of a CPU
 * @cpu: the CPU, below nr_cpu_ids
 * @rings: XDP rings in use, at least one
 *
 * Identity while every CPU has a ring of its own; beyond that CPUs share
 * rings by modulo, and the caller must hold the ring's lock.
 *
 * Return: an index below @rings.
 */
static inline u16 ronic_xdp_ring_index(unsigned int cpu, u16 rings)
{
	return cpu < rings ? cpu : cpu % rings;
}

u16 ronic_xdp_ring_count(unsigned int cpus, u16 stack_queues);
bool ronic_xdp_rings_shared(unsigned int cpus, u16 rings);
void ronic_xdp_lock_key_update(bool *held, bool need);

DECLARE_STATIC_KEY_FALSE(ronic_xdp_lock_key);

/* Whether XDP ring locks are taken: while any port shares rings. */
static inline bool ronic_xdp_locking(void)
{
	return static_branch_unlikely(&ronic_xdp_lock_key);
}

int ronic_xdp_bpf(struct net_device *netdev, struct netdev_bpf *bpf);
extern const struct xdp_metadata_ops ronic_xdp_metadata_ops;
int ronic_xdp_xmit(struct net_device *netdev, int n, struct xdp_frame **frames,
		   u32 flags);
int ronic_xdp_check_mtu(struct ronic_adapter *adapter, int mtu);
bool ronic_xdp_supported(const struct ronic_adapter *adapter);

enum ronic_xdp_verdict ronic_xdp_run(struct ronic_ring *rx_ring,
				     struct bpf_prog *prog,
				     struct xdp_buff *xdp,
				     struct ronic_ring **tx_ring);
void ronic_xdp_buff_free(struct page_pool *pp, struct xdp_buff *xdp, bool napi);
void ronic_xdp_ring_doorbell(struct ronic_ring *ring);
bool ronic_xdp_clean_ring(struct ronic_ring *ring);
void ronic_xdp_ring_clean_all(struct ronic_ring *ring);

#endif /* _RONIC_XDP_H_ */
