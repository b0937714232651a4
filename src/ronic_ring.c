// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: ring memory. Descriptor areas, software buffer arrays and the rx
 * page_pool, allocated before a ring is used and freed after it is idle.
 */
#include <linux/slab.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_stats.h"
#include "ronic_xdp.h"
#include "ronic_xsk.h"

/**
 * ronic_ring_alloc_tx - descriptor memory and slot array of a tx ring
 * @ring: the ring, with count, dma and netdev set
 *
 * Return: 0 or -ENOMEM, with nothing left allocated.
 */
int ronic_ring_alloc_tx(struct ronic_ring *ring)
{
	ring->tx_buf = kvcalloc(ring->count, sizeof(*ring->tx_buf), GFP_KERNEL);
	if (!ring->tx_buf)
		return -ENOMEM;

	ring->desc_bytes = ALIGN(ring->count * sizeof(struct ronic_tx_desc), SZ_4K);
	ring->desc = ronic_dma_alloc_ring(ring->dma, ring->desc_bytes,
					  &ring->desc_dma);
	if (!ring->desc)
		goto err;
	/* Allocated once: small frames are copied here and need no map. */
	if (!ring->is_xdp) {
		ring->bounce = ronic_dma_alloc_ring(ring->dma,
						    ronic_tx_bounce_bytes(ring),
						    &ring->bounce_dma);
		if (!ring->bounce)
			goto err;
		ring->tx_sg = kvcalloc(ronic_tx_sg_entries(ring),
				       sizeof(*ring->tx_sg), GFP_KERNEL);
		if (!ring->tx_sg)
			goto err;
	}
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
	return 0;

err:
	ronic_ring_free_tx(ring);
	return -ENOMEM;
}

/**
 * ronic_ring_clean_tx - release every frame still on a stopped tx ring
 * @ring: the ring; the device no longer reads from it
 */
void ronic_ring_clean_tx(struct ronic_ring *ring)
{
	struct ronic_tx_buffer *buf;
	u32 xsk_frames = 0;
	u16 i;

	if (!ring->tx_buf)
		return;
	for (i = 0; i < ring->count; i++) {
		buf = &ring->tx_buf[i];
		if (buf->eop_desc && buf->type == RONIC_TX_BUF_XSK)
			xsk_frames++;
		/* A stale pointer would let the next clean count this slot again. */
		buf->eop_desc = NULL;
		buf->type = RONIC_TX_BUF_SKB;
		ronic_dma_unmap_tx(ring->dma, &buf->map);
		if (buf->skb) {
			dev_kfree_skb_any(buf->skb);
			buf->skb = NULL;
		}
	}
	/* Unsent frames of socket memory go back to the socket as done. */
	ronic_xsk_tx_completed(ring, xsk_frames);
	memset(ring->desc, 0, ring->desc_bytes);
	netdev_tx_reset_queue(netdev_get_tx_queue(ring->netdev, ring->queue_index));
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
}

/**
 * ronic_ring_free_tx - free what ronic_ring_alloc_tx() allocated
 * @ring: the ring, cleaned
 */
void ronic_ring_free_tx(struct ronic_ring *ring)
{
	if (ring->bounce)
		ronic_dma_free_ring(ring->dma, ronic_tx_bounce_bytes(ring),
				    ring->bounce, ring->bounce_dma);
	ring->bounce = NULL;
	kvfree(ring->tx_sg);
	ring->tx_sg = NULL;
	if (ring->desc)
		ronic_dma_free_ring(ring->dma, ring->desc_bytes, ring->desc,
				    ring->desc_dma);
	ring->desc = NULL;
	kvfree(ring->tx_buf);
	ring->tx_buf = NULL;
}

static int ronic_ring_create_pool(struct ronic_ring *ring)
{
	struct page_pool_params pp = {
		/* the rx slots are fragments of the pool's pages */
		.flags = RONIC_PP_FLAG_FRAG,
		.order = RONIC_RX_PAGE_ORDER,
		.pool_size = ring->count,
		.nid = NUMA_NO_NODE,
		/* A page holds several slots: a recycled one is synced whole. */
		.offset = 0,
		.max_len = PAGE_SIZE << RONIC_RX_PAGE_ORDER,
	};

	ronic_page_pool_params_user(&pp, &ring->q_vector->napi, ring->netdev,
				    ring->queue_index);
	ronic_dma_rx_pool_params(ring->dma, &pp);
	ring->pp = page_pool_create(&pp);
	if (IS_ERR(ring->pp)) {
		int err = PTR_ERR(ring->pp);

		ring->pp = NULL;
		return err;
	}
	return 0;
}

static void ronic_ring_free_rx(struct ronic_ring *ring);

/*
 * The buffers of a ring: page_pool slots, or the buffers of its AF_XDP
 * zero-copy pool. Return: 0 or a negative errno.
 */
static int ronic_ring_alloc_rx_buffers(struct ronic_ring *ring)
{
	int err;

	if (ring->xsk_pool)
		return ronic_xsk_ring_alloc_rx(ring);

	ring->rx_buf_len = RONIC_RX_BUF_LEN;
	ring->rx_buf = kvcalloc(ring->count, sizeof(*ring->rx_buf), GFP_KERNEL);
	if (!ring->rx_buf)
		return -ENOMEM;
	err = ronic_ring_create_pool(ring);
	if (err)
		return err;
	return xdp_rxq_info_reg_mem_model(&ring->xdp_rxq, MEM_TYPE_PAGE_POOL,
					  ring->pp);
}

/**
 * ronic_ring_alloc_rx - descriptors, slot array, page_pool and rxq info
 * @ring: the ring, with count, dma, netdev and q_vector set
 *
 * Return: 0 or a negative errno, with nothing left allocated.
 */
static int ronic_ring_alloc_rx(struct ronic_ring *ring)
{
	int err = -ENOMEM;

	ring->desc_bytes = ALIGN(ring->count * sizeof(union ronic_rx_desc), SZ_4K);
	ring->desc = ronic_dma_alloc_ring(ring->dma, ring->desc_bytes,
					  &ring->desc_dma);
	if (!ring->desc)
		goto err;

	err = xdp_rxq_info_reg(&ring->xdp_rxq, ring->netdev, ring->queue_index,
			       ring->q_vector->napi.napi_id);
	if (err)
		goto err;
	err = ronic_ring_alloc_rx_buffers(ring);
	if (err)
		goto err;

	ring->next_to_use = 0;
	ring->next_to_clean = 0;
	ring->rx_skb = NULL;
	ring->rx_xdp_open = false;
	ring->rx_discard = false;
	return 0;

err:
	/* ronic_ring_free_rx() frees what got allocated, in reverse. */
	ronic_ring_free_rx(ring);
	return err;
}

/**
 * ronic_ring_clean_rx - return every buffer of a stopped rx ring to its pool
 * @ring: the ring; the device no longer writes into it
 */
void ronic_ring_clean_rx(struct ronic_ring *ring)
{
	u16 i;

	if (ring->xsk_pool) {
		ronic_xsk_ring_clean_rx(ring);
		return;
	}
	if (!ring->rx_buf)
		return;
	if (ring->rx_skb) {
		dev_kfree_skb_any(ring->rx_skb);
		ring->rx_skb = NULL;
	}
	if (ring->rx_xdp_open)
		ronic_xdp_buff_free(ring->pp, &ring->rx_xdp.xdp, false);
	ring->rx_xdp_open = false;
	ring->rx_discard = false;
	for (i = 0; i < ring->count; i++) {
		if (!ring->rx_buf[i].page)
			continue;
		page_pool_put_full_page(ring->pp, ring->rx_buf[i].page, false);
		ring->rx_buf[i].page = NULL;
	}
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
}

/**
 * ronic_ring_free_rx - free what ronic_ring_alloc_rx() allocated
 * @ring: the ring, cleaned
 */
static void ronic_ring_free_rx(struct ronic_ring *ring)
{
	if (xdp_rxq_info_is_reg(&ring->xdp_rxq))
		xdp_rxq_info_unreg(&ring->xdp_rxq);
	if (ring->pp)
		page_pool_destroy(ring->pp);
	ring->pp = NULL;
	if (ring->desc)
		ronic_dma_free_ring(ring->dma, ring->desc_bytes, ring->desc,
				    ring->desc_dma);
	ring->desc = NULL;
	kvfree(ring->rx_buf);
	ring->rx_buf = NULL;
	kvfree(ring->rx_xsk);
	ring->rx_xsk = NULL;
}

static struct ronic_ring *ronic_ring_new(struct ronic_adapter *adapter,
					 struct ronic_q_vector *qv, u16 index,
					 u8 reg_idx, u16 count)
{
	struct ronic_ring *ring = kzalloc(sizeof(*ring), GFP_KERNEL);

	if (!ring)
		return NULL;
	ring->q_vector = qv;
	ring->netdev = adapter->netdev;
	ring->dma = &adapter->dma;
	ring->queue_index = index;
	ring->reg_idx = reg_idx;
	ring->count = count;
	spin_lock_init(&ring->xdp_lock);
	u64_stats_init(&ring->syncp);
	u64_stats_init(&ring->xmit_syncp);
	return ring;
}

static void ronic_ring_destroy(struct ronic_ring *ring, bool rx)
{
	if (!ring)
		return;
	if (rx)
		ronic_ring_free_rx(ring);
	else
		ronic_ring_free_tx(ring);
	kfree(ring);
}

/**
 * ronic_rings_destroy - free every ring of a set
 * @set: the set, its rings stopped and cleaned (or never started)
 */
void ronic_rings_destroy(struct ronic_ring_set *set)
{
	u16 i;

	for (i = 0; i < RONIC_MAX_QUEUES; i++) {
		ronic_ring_destroy(set->tx[i], false);
		ronic_ring_destroy(set->rx[i], true);
	}
	for (i = 0; i < RONIC_NUM_HW_QUEUES; i++)
		ronic_ring_destroy(set->xdp[i], false);
	memset(set, 0, sizeof(*set));
}

/*
 * A set that failed half-way, beside a running one: its pools are tied to
 * vectors that may be polling the running set, and page_pool_destroy()
 * wants their NAPI disabled. A vector whose interrupt came meanwhile stays
 * masked until its poll runs, so each gets one.
 */
static void ronic_rings_destroy_unused(struct ronic_adapter *adapter,
				       struct ronic_ring_set *set)
{
	bool running = !test_bit(RONIC_STATE_DOWN, &adapter->state);
	u16 v, n = running ? adapter->num_queues : 0;

	for (v = 0; v < n; v++)
		napi_disable(&adapter->q_vector[v]->napi);
	ronic_rings_destroy(set);
	for (v = 0; v < n; v++)
		napi_enable(&adapter->q_vector[v]->napi);
	local_bh_disable();
	for (v = 0; v < n; v++)
		napi_schedule(&adapter->q_vector[v]->napi);
	local_bh_enable();
}

/**
 * ronic_rings_create - build every ring of a configuration
 * @adapter: the device, its queue vectors allocated
 * @queues: stack queue pairs
 * @tx_count: descriptors per tx ring (XDP rings too)
 * @rx_count: descriptors per rx ring
 * @set: filled in
 *
 * Stack pair q goes to queue vector q; XDP ring i takes the hardware
 * queue after the stack's and is cleaned by vector i modulo @queues.
 *
 * Return: 0, or a negative errno with nothing left allocated.
 */
int ronic_rings_create(struct ronic_adapter *adapter, u16 queues,
		       u16 tx_count, u16 rx_count, struct ronic_ring_set *set)
{
	struct ronic_q_vector *qv;
	struct ronic_ring *ring;
	int err = -ENOMEM;
	u16 q, nxdp;

	memset(set, 0, sizeof(*set));
	/* The single-vector fallback has no interrupt for other queues. */
	nxdp = adapter->irq_mode == RONIC_IRQ_MSIX ?
	       ronic_xdp_ring_count(nr_cpu_ids, queues) : 0;
	if (READ_ONCE(adapter->xdp_rings_cap))
		nxdp = min(nxdp, READ_ONCE(adapter->xdp_rings_cap));

	for (q = 0; q < queues; q++) {
		qv = adapter->q_vector[q];
		ring = ronic_ring_new(adapter, qv, q, q, tx_count);
		if (!ring)
			goto err;
		set->tx[q] = ring;
		ring->xsk_pool = ronic_xsk_pool(adapter, q);
		err = ronic_ring_alloc_tx(ring);
		if (err)
			goto err;

		err = -ENOMEM;
		ring = ronic_ring_new(adapter, qv, q, q, rx_count);
		if (!ring)
			goto err;
		set->rx[q] = ring;
		ring->xsk_pool = ronic_xsk_pool(adapter, q);
		err = ronic_ring_alloc_rx(ring);
		if (err)
			goto err;
	}
	for (q = 0; q < nxdp; q++) {
		err = -ENOMEM;
		ring = ronic_ring_new(adapter, adapter->q_vector[q % queues], q,
				      queues + q, tx_count);
		if (!ring)
			goto err;
		ring->is_xdp = true;
		set->xdp[q] = ring;
		err = ronic_ring_alloc_tx(ring);
		if (err)
			goto err;
	}
	set->num_queues = queues;
	set->num_xdp = nxdp;
	set->tx_count = tx_count;
	set->rx_count = rx_count;
	return 0;

err:
	ronic_rings_destroy_unused(adapter, set);
	return err;
}

/**
 * ronic_rings_install - make a set the device's rings
 * @adapter: the device, down, with no rings installed
 * @set: the set; emptied, the adapter owns its rings now
 */
void ronic_rings_install(struct ronic_adapter *adapter,
			 struct ronic_ring_set *set)
{
	struct ronic_q_vector *qv;
	u16 q;

	adapter->eims_queues = 0;
	for (q = 0; q < adapter->num_q_vectors; q++) {
		qv = adapter->q_vector[q];
		qv->tx_ring = set->tx[q];
		qv->rx_ring = set->rx[q];
		qv->num_xdp_rings = 0;
		if (q < set->num_queues)
			adapter->eims_queues |= qv->eims;
	}
	spin_lock_bh(&adapter->stats_lock);
	for (q = 0; q < RONIC_MAX_QUEUES; q++) {
		adapter->tx_ring[q] = set->tx[q];
		adapter->rx_ring[q] = set->rx[q];
	}
	for (q = 0; q < RONIC_NUM_HW_QUEUES; q++) {
		adapter->xdp_ring[q] = set->xdp[q];
		if (set->xdp[q]) {
			qv = set->xdp[q]->q_vector;
			qv->xdp_ring[qv->num_xdp_rings++] = set->xdp[q];
		}
	}
	adapter->num_queues = set->num_queues;
	adapter->num_xdp_rings = set->num_xdp;
	spin_unlock_bh(&adapter->stats_lock);
	adapter->tx_ring_count = set->tx_count;
	adapter->rx_ring_count = set->rx_count;
	ronic_xdp_lock_key_update(&adapter->xdp_lock_key_held,
				  set->num_xdp &&
				  ronic_xdp_rings_shared(nr_cpu_ids, set->num_xdp));
	memset(set, 0, sizeof(*set));
}

static void ronic_ring_fold(const struct ronic_ring *ring, u64 *packets,
			    u64 *bytes)
{
	*packets += u64_stats_read(&ring->stats.packets);
	*bytes += u64_stats_read(&ring->stats.bytes);
}

/* An rx ring's counters into the base. */
static void ronic_ring_fold_rx(const struct ronic_ring *rx,
			       struct ronic_base_stats *base)
{
	ronic_ring_fold(rx, &base->rx_packets, &base->rx_bytes);
	base->rx_dropped += u64_stats_read(&rx->rx_stats.dropped);
	base->rx_alloc_fail += u64_stats_read(&rx->rx_stats.alloc_failed);
	base->rx_csum_bad += u64_stats_read(&rx->rx_stats.csum_err);
	base->rx_csum_unnecessary += u64_stats_read(&rx->rx_stats.csum_ok);
	ronic_ring_add_xdp_verdicts(rx, &base->xdp);
}

/* A stack tx ring's counters into the base. */
static void ronic_ring_fold_tx(const struct ronic_ring *tx,
			       struct ronic_base_stats *base)
{
	ronic_ring_fold(tx, &base->tx_packets, &base->tx_bytes);
	base->tx_dropped += u64_stats_read(&tx->xmit_stats.dropped);
	base->tx_hw_gso_packets += u64_stats_read(&tx->xmit_stats.tso);
	base->tx_wake += u64_stats_read(&tx->tx_stats.restarts);
}

/*
 * An XDP ring's sent frames count as the port's sent frames; its own
 * counters (and the rx rings' verdicts) live on in the base for ethtool -S.
 */
static void ronic_ring_fold_xdp(const struct ronic_ring *xdp,
				struct ronic_base_stats *base)
{
	ronic_ring_fold(xdp, &base->tx_packets, &base->tx_bytes);
	ronic_ring_add_xdp_sent(xdp, &base->xdp);
}

/**
 * ronic_rings_uninstall - take the device's rings back into a set
 * @adapter: the device, down
 * @set: filled with the rings, for ronic_rings_destroy()
 *
 * Their counters are folded into the adapter's base first.
 */
void ronic_rings_uninstall(struct ronic_adapter *adapter,
			   struct ronic_ring_set *set)
{
	struct ronic_base_stats *base = &adapter->base;
	struct ronic_q_vector *qv;
	u16 q;

	memset(set, 0, sizeof(*set));
	/* Fold and unhook under the lock ndo_get_stats64 reads under. */
	spin_lock_bh(&adapter->stats_lock);
	for (q = 0; q < adapter->num_queues && adapter->rx_ring[q]; q++) {
		ronic_ring_fold_rx(adapter->rx_ring[q], base);
		ronic_ring_fold_tx(adapter->tx_ring[q], base);
	}
	for (q = 0; q < adapter->num_xdp_rings; q++)
		ronic_ring_fold_xdp(adapter->xdp_ring[q], base);
	for (q = 0; q < RONIC_MAX_QUEUES; q++) {
		set->tx[q] = adapter->tx_ring[q];
		set->rx[q] = adapter->rx_ring[q];
		adapter->tx_ring[q] = NULL;
		adapter->rx_ring[q] = NULL;
	}
	for (q = 0; q < RONIC_NUM_HW_QUEUES; q++) {
		set->xdp[q] = adapter->xdp_ring[q];
		adapter->xdp_ring[q] = NULL;
	}
	set->num_xdp = adapter->num_xdp_rings;
	adapter->num_xdp_rings = 0;
	spin_unlock_bh(&adapter->stats_lock);

	for (q = 0; q < adapter->num_q_vectors; q++) {
		qv = adapter->q_vector[q];
		qv->tx_ring = NULL;
		qv->rx_ring = NULL;
		qv->num_xdp_rings = 0;
	}
	set->num_queues = adapter->num_queues;
	ronic_xdp_lock_key_update(&adapter->xdp_lock_key_held, false);
}

/**
 * ronic_ring_create_rx - build a new rx ring for one queue of a running port
 * @adapter: the device
 * @q: the queue; the ring takes its AF_XDP zero-copy pool, if bound
 * @count: descriptors
 *
 * For a queue that changes its buffers (an AF_XDP pool bound or unbound)
 * without the others stopping. Its vector's NAPI must be disabled: a
 * failure destroys the page_pool it made, which is tied to that NAPI.
 *
 * Return: the ring, or an ERR_PTR with nothing left allocated.
 */
struct ronic_ring *ronic_ring_create_rx(struct ronic_adapter *adapter, u16 q,
					u16 count)
{
	struct ronic_ring *ring;
	int err;

	ring = ronic_ring_new(adapter, adapter->q_vector[q], q, q, count);
	if (!ring)
		return ERR_PTR(-ENOMEM);
	ring->xsk_pool = ronic_xsk_pool(adapter, q);
	err = ronic_ring_alloc_rx(ring);
	if (err) {
		kfree(ring);
		return ERR_PTR(err);
	}
	return ring;
}

/**
 * ronic_ring_destroy_rx - free an rx ring taken out of a running port
 * @ring: the ring, stopped and cleaned, its vector's NAPI disabled; its
 *	counters carried over to the ring that replaced it
 */
void ronic_ring_destroy_rx(struct ronic_ring *ring)
{
	ronic_ring_destroy(ring, true);
}
