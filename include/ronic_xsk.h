/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AF_XDP zero-copy: a socket's pool bound to a queue pair, its rx ring
 * filled from the pool and its tx ring fed from the socket.
 */
#ifndef _RONIC_XSK_H_
#define _RONIC_XSK_H_

#include <linux/types.h>

struct net_device;
struct xsk_buff_pool;
struct ronic_adapter;
struct ronic_ring;

struct xsk_buff_pool *ronic_xsk_pool(struct ronic_adapter *adapter, u16 q);
int ronic_xsk_pool_setup(struct ronic_adapter *adapter,
			 struct xsk_buff_pool *pool, u16 qid);
int ronic_xsk_wakeup(struct net_device *netdev, u32 qid, u32 flags);

int ronic_xsk_ring_alloc_rx(struct ronic_ring *ring);
void ronic_xsk_ring_clean_rx(struct ronic_ring *ring);
bool ronic_xsk_refill(struct ronic_ring *ring, u16 count);
int ronic_xsk_clean_rx(struct ronic_ring *ring, int budget);
bool ronic_xsk_xmit(struct ronic_ring *ring);
void ronic_xsk_tx_completed(struct ronic_ring *ring, u32 frames);

#endif /* _RONIC_XSK_H_ */
