// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: AF_XDP zero-copy. A socket's pool bound to queue pair q takes
 * the place of rx ring q's page_pool: the device writes frames straight
 * into the socket's memory. The frames the application sends go out on
 * tx ring q, the stack's: the ring that queue pair's vector already
 * cleans, so one NAPI poll receives, sends and completes for the socket,
 * where the XDP rings belong to CPUs rather than to queues. The stack
 * keeps sending on that ring too, under its queue's xmit lock.
 *
 * Binding or unbinding a pool rebuilds that rx ring and restarts that
 * pair only; the other queues keep running.
 */
#include <linux/bpf_trace.h>
#include <linux/filter.h>
#include <net/xdp_sock_drv.h>

#include "ronic.h"
#include "ronic_hw.h"
#include "ronic_xdp.h"
#include "ronic_xsk.h"

/*
 * The device's buffer sizes come in 1 KB steps (SRRCTL.BSIZEPKT): a pool
 * whose frames leave less than that is refused; more than 16 KB is
 * never needed, as the largest frame is 9 KB.
 */
#define RONIC_XSK_MIN_BUF	SZ_1K
#define RONIC_XSK_MAX_BUF	SZ_16K
/* Frames sent from socket memory per poll, at most. */
#define RONIC_XSK_TX_BUDGET	256

/**
 * ronic_xsk_pool - the zero-copy pool of a queue pair
 * @adapter: the device
 * @q: the queue pair
 *
 * A pool bound in copy mode is registered at its queue too, but never
 * reaches the driver: only the queues whose bind the driver took count.
 *
 * Return: the pool, or NULL for a queue with page_pool buffers.
 */
struct xsk_buff_pool *ronic_xsk_pool(struct ronic_adapter *adapter, u16 q)
{
	if (!test_bit(q, adapter->xsk_zc_queues))
		return NULL;
	return xsk_get_pool_from_qid(adapter->netdev, q);
}

/**
 * ronic_xsk_ring_alloc_rx - make an rx ring take its buffers from its pool
 * @ring: the ring, xsk_pool set, its rxq info registered
 *
 * Return: 0 or a negative errno.
 */
int ronic_xsk_ring_alloc_rx(struct ronic_ring *ring)
{
	u32 frame = xsk_pool_get_rx_frame_size(ring->xsk_pool);
	int err;

	ring->rx_xsk = kvcalloc(ring->count, sizeof(*ring->rx_xsk), GFP_KERNEL);
	if (!ring->rx_xsk)
		return -ENOMEM;
	ring->rx_buf_len = min_t(u32, rounddown(frame, SZ_1K), RONIC_XSK_MAX_BUF);
	err = xdp_rxq_info_reg_mem_model(&ring->xdp_rxq, MEM_TYPE_XSK_BUFF_POOL,
					 NULL);
	if (err)
		return err;
	xsk_pool_set_rxq_info(ring->xsk_pool, &ring->xdp_rxq);
	return 0;
}

/**
 * ronic_xsk_ring_clean_rx - give a stopped rx ring's buffers back to the pool
 * @ring: the ring; the device no longer writes into it
 */
void ronic_xsk_ring_clean_rx(struct ronic_ring *ring)
{
	u16 i;

	for (i = 0; ring->rx_xsk && i < ring->count; i++) {
		if (ring->rx_xsk[i])
			xsk_buff_free(ring->rx_xsk[i]);
		ring->rx_xsk[i] = NULL;
	}
	ring->rx_discard = false;
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
}

/**
 * ronic_xsk_refill - give the device buffers of the socket's memory
 * @ring: the rx ring
 * @count: descriptors to fill
 *
 * Return: false if the pool ran short: the application has not given
 * buffers back (its fill ring is empty).
 */
bool ronic_xsk_refill(struct ronic_ring *ring, u16 count)
{
	u16 i = ring->next_to_use, want, got, k;
	union ronic_rx_desc *desc;
	bool enough = true;

	while (count) {
		/* The batch fills consecutive slots: stop at the ring's end. */
		want = min_t(u16, count, ring->count - i);
		got = xsk_buff_alloc_batch(ring->xsk_pool, &ring->rx_xsk[i], want);
		for (k = 0; k < got; k++) {
			desc = ronic_rx_desc(ring, i + k);
			desc->read.pkt_addr =
				cpu_to_le64(ronic_dma_xsk_rx_addr(ring->rx_xsk[i + k]));
			/* also clears the status word of the write-back format */
			desc->read.hdr_addr = 0;
		}
		i = (i + got) % ring->count;
		count -= got;
		if (got < want) {
			enough = false;
			break;
		}
	}
	if (i != ring->next_to_use) {
		ring->next_to_use = i;
		/* writel() orders the descriptor writes before the tail moves. */
		writel(i, ring->tail);
	}
	return enough;
}

/*
 * Whether a buffer holds a whole frame to run. One the device spread over
 * several buffers (longer than the pool's frames) or flagged in error is
 * dropped, every buffer of it.
 */
static bool ronic_xsk_rx_whole(struct ronic_ring *ring, struct xdp_buff *xdp,
			       u32 staterr)
{
	bool eop = staterr & RONIC_RXD_STAT_EOP;

	if (eop && !ring->rx_discard && !(staterr & RONIC_RXD_ERR_FRAME))
		return true;
	xsk_buff_free(xdp);
	ring->rx_discard = !eop;
	if (eop)
		ronic_ring_count(ring, &ring->rx_stats.dropped);
	return false;
}

/* An skb with a copy of what the program passed; the buffer goes back. */
static struct sk_buff *ronic_xsk_skb(struct ronic_ring *ring,
				     struct xdp_buff *xdp)
{
	u32 meta = xdp->data - xdp->data_meta;
	u32 len = xdp->data_end - xdp->data_meta;
	struct sk_buff *skb;

	skb = napi_alloc_skb(&ring->q_vector->napi, len);
	if (likely(skb)) {
		memcpy(__skb_put(skb, len), xdp->data_meta, len);
		if (meta) {
			__skb_pull(skb, meta);
			skb_metadata_set(skb, meta);
		}
	}
	xsk_buff_free(xdp);
	return skb;
}

/*
 * XDP_TX of socket memory: the frame is copied into a page of its own
 * (the buffer goes back to the pool) and queued like a redirected one.
 */
static bool ronic_xsk_tx(struct ronic_ring *ring, struct xdp_buff *xdp)
{
	struct xdp_frame *xdpf = xdp_convert_buff_to_frame(xdp);

	if (!xdpf)
		return false;
	if (ronic_xdp_xmit(ring->netdev, 1, &xdpf, XDP_XMIT_FLUSH) != 1)
		xdp_return_frame(xdpf);
	return true;
}

/* What the poll does next with a frame of socket memory. */
static enum ronic_xdp_verdict ronic_xsk_run(struct ronic_ring *ring,
					    struct bpf_prog *prog,
					    struct xdp_buff *xdp)
{
	u32 act = bpf_prog_run_xdp(prog, xdp);

	switch (act) {
	case XDP_REDIRECT:
		/* The common case: into the socket, without a copy. */
		if (xdp_do_redirect(ring->netdev, xdp, prog))
			goto failed;
		ronic_ring_count(ring, &ring->rx_stats.xdp_redirect);
		return RONIC_XDP_REDIRECT;
	case XDP_PASS:
		ronic_ring_count(ring, &ring->rx_stats.xdp_pass);
		return RONIC_XDP_PASS;
	case XDP_TX:
		if (!ronic_xsk_tx(ring, xdp))
			goto failed;
		ronic_ring_count(ring, &ring->rx_stats.xdp_tx);
		return RONIC_XDP_TX;
	default:
		bpf_warn_invalid_xdp_action(ring->netdev, prog, act);
		fallthrough;
	case XDP_ABORTED:
		trace_xdp_exception(ring->netdev, prog, act);
		ronic_ring_count(ring, &ring->rx_stats.xdp_aborted);
		break;
	case XDP_DROP:
		ronic_ring_count(ring, &ring->rx_stats.xdp_drop);
		break;
	}
	xsk_buff_free(xdp);
	return RONIC_XDP_CONSUMED;

failed:
	trace_xdp_exception(ring->netdev, prog, act);
	ronic_ring_count(ring, &ring->rx_stats.xdp_tx_errors);
	xsk_buff_free(xdp);
	return RONIC_XDP_CONSUMED;
}

/* Where the rx metadata kfuncs find the frame's descriptor. */
static void ronic_xsk_set_desc(struct xdp_buff *xdp,
			       const union ronic_rx_desc *desc)
{
#ifdef RONIC_HAVE_XSK_CB
	/* The driver's room behind the xdp_buff of a pool buffer. */
	XSK_CHECK_PRIV_TYPE(struct ronic_xdp_buff);
	container_of(xdp, struct ronic_xdp_buff, xdp)->desc = desc;
#endif
}

/* Run one whole frame; false if it did not reach the stack or a socket. */
static bool ronic_xsk_rx_frame(struct ronic_ring *ring, struct bpf_prog *prog,
			       struct xdp_buff *xdp, union ronic_rx_desc *desc,
			       u32 staterr, bool *redirected)
{
	struct sk_buff *skb;

	ronic_xsk_set_desc(xdp, desc);
	if (prog) {
		switch (ronic_xsk_run(ring, prog, xdp)) {
		case RONIC_XDP_PASS:
			break;
		case RONIC_XDP_REDIRECT:
			*redirected = true;
			return true;
		case RONIC_XDP_TX:
			return true;
		default:
			return false;
		}
	}
	skb = ronic_xsk_skb(ring, xdp);
	if (unlikely(!skb)) {
		ronic_ring_count(ring, &ring->rx_stats.dropped);
		return false;
	}
	ronic_rx_deliver(ring, desc, skb, staterr);
	return true;
}

/*
 * After a poll: the application is told to wake the driver (need_wakeup)
 * when the ring ran dry of its buffers, as only a refill it makes can
 * start the ring again.
 */
static void ronic_xsk_rx_need_wakeup(struct ronic_ring *ring, bool enough)
{
	if (!xsk_uses_need_wakeup(ring->xsk_pool))
		return;
	if (!enough || ring->next_to_clean == ring->next_to_use)
		xsk_set_rx_need_wakeup(ring->xsk_pool);
	else
		xsk_clear_rx_need_wakeup(ring->xsk_pool);
}

/**
 * ronic_xsk_clean_rx - the rx poll of a ring on a zero-copy pool
 * @ring: the ring
 * @budget: frames allowed
 *
 * A pool that ran short of buffers does not keep the poll going: with no
 * frame received the poll completes, and the next interrupt, wakeup or
 * the watchdog's kick tries again. Polling on at full budget instead
 * would spin for as long as the application gives nothing back, forever
 * if it was killed while its socket stays bound.
 *
 * Return: frames received.
 */
int ronic_xsk_clean_rx(struct ronic_ring *ring, int budget)
{
	struct bpf_prog *prog = READ_ONCE(ring->xdp_prog);
	u16 cleaned = ronic_desc_unused(ring);
	unsigned int packets = 0, bytes = 0;
	bool enough = true, redirected = false;
	union ronic_rx_desc *desc;
	struct xdp_buff *xdp;
	u32 staterr, len;

	while (packets < budget) {
		if (cleaned >= RONIC_RX_REFILL_BATCH) {
			enough &= ronic_xsk_refill(ring, cleaned);
			cleaned = ronic_desc_unused(ring);
		}
		desc = ronic_rx_done_desc(ring, cleaned, &staterr);
		if (!desc)
			break;

		len = le16_to_cpu(desc->wb.length);
		xdp = ring->rx_xsk[ring->next_to_clean];
		ring->rx_xsk[ring->next_to_clean] = NULL;
		ring->next_to_clean = ronic_ring_next(ring, ring->next_to_clean);
		cleaned++;
		if (!ronic_xsk_rx_whole(ring, xdp, staterr))
			continue;

		xsk_buff_set_size(xdp, len);
		ronic_dma_xsk_sync_for_cpu(xdp, ring->xsk_pool);
		if (!ronic_xsk_rx_frame(ring, prog, xdp, desc, staterr,
					&redirected))
			continue;
		packets++;
		bytes += len;
	}

	if (redirected)
		xdp_do_flush();
	if (cleaned)
		enough &= ronic_xsk_refill(ring, cleaned);
	ronic_xsk_rx_need_wakeup(ring, enough);

	u64_stats_update_begin(&ring->syncp);
	u64_stats_add(&ring->stats.packets, packets);
	u64_stats_add(&ring->stats.bytes, bytes);
	u64_stats_add(&ring->rx_stats.xsk_received, packets);
	u64_stats_update_end(&ring->syncp);
	ring->q_vector->itr_packets += packets;
	ring->q_vector->itr_bytes += bytes;
	return packets;
}

/* Put one frame the application queued in the next slot. */
static void ronic_xsk_queue_frame(struct ronic_ring *ring,
				  const struct xdp_desc *xd)
{
	u16 i = ring->next_to_use;
	struct ronic_tx_buffer *buf = &ring->tx_buf[i];
	dma_addr_t dma;

	dma = ronic_dma_xsk_tx_addr(ring->xsk_pool, xd->addr, xd->len);
	ronic_xdp_write_part(ring, i, dma, xd->len, xd->len, true);
	buf->skb = NULL;
	buf->type = RONIC_TX_BUF_XSK;
	buf->bytes = xd->len;
	buf->segs = 1;
	ring->next_to_use = ronic_ring_next(ring, i);
	/* The slot before the pointer that lets clean look at it. */
	smp_wmb();
	WRITE_ONCE(buf->eop_desc, ronic_tx_desc(ring, i));
}

/**
 * ronic_xsk_xmit - send what the socket queued, from the vector's poll
 * @ring: the stack's tx ring of the pool's queue pair
 *
 * The stack shares the ring, so its queue's xmit lock is held while
 * descriptors are written. Every frame asks for a completion, so a ring
 * full now raises an interrupt when it has room again.
 *
 * Return: true if nothing is left for another poll to send: the socket's
 * queue is empty or the ring is full; false if the budget ran out.
 */
bool ronic_xsk_xmit(struct ronic_ring *ring)
{
	struct netdev_queue *txq = netdev_get_tx_queue(ring->netdev,
						       ring->queue_index);
	struct xsk_buff_pool *pool = ring->xsk_pool;
	u32 room, sent, k;

	__netif_tx_lock(txq, smp_processor_id());
	/* A ring busy with socket frames is not a hung one to the watchdog. */
	txq_trans_cond_update(txq);
	room = min_t(u32, RONIC_XSK_TX_BUDGET, ronic_desc_unused(ring));
	sent = room ? xsk_tx_peek_release_desc_batch(pool, room) : 0;
	for (k = 0; k < sent; k++)
		ronic_xsk_queue_frame(ring, &pool->tx_descs[k]);
	if (sent)
		ronic_tx_doorbell(ring);
	__netif_tx_unlock(txq);

	if (xsk_uses_need_wakeup(pool))
		xsk_set_tx_need_wakeup(pool);
	return sent < room || room < RONIC_XSK_TX_BUDGET;
}

/**
 * ronic_xsk_tx_completed - hand sent frames back to the application
 * @ring: the tx ring
 * @frames: frames of socket memory the device is done with
 */
void ronic_xsk_tx_completed(struct ronic_ring *ring, u32 frames)
{
	if (!frames || !ring->xsk_pool)
		return;
	xsk_tx_completed(ring->xsk_pool, frames);
	u64_stats_update_begin(&ring->syncp);
	u64_stats_add(&ring->tx_stats.xsk_sent, frames);
	u64_stats_update_end(&ring->syncp);
}

/**
 * ronic_xsk_wakeup - ndo_xsk_wakeup: the application has work for a queue
 * @netdev: the port
 * @qid: the queue pair its socket is bound to
 * @flags: XDP_WAKEUP_RX and/or XDP_WAKEUP_TX: one poll serves both
 *
 * Runs without rtnl: only the queue vector, which outlives ring changes,
 * is touched. A poll already running is told to run once more; else the
 * vector's interrupt is raised, so the poll runs where the IRQ is bound.
 *
 * Return: 0, -ENETDOWN or -ENXIO.
 */
int ronic_xsk_wakeup(struct net_device *netdev, u32 qid, u32 flags)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_q_vector *qv;

	if (test_bit(RONIC_STATE_DOWN, &adapter->state) ||
	    !ronic_port_open(adapter))
		return -ENETDOWN;
	if (qid >= adapter->num_queues || !test_bit(qid, adapter->xsk_zc_queues))
		return -ENXIO;
	qv = adapter->q_vector[qid];
	if (!napi_if_scheduled_mark_missed(&qv->napi))
		ronic_hw_kick_vector(adapter, qv);
	return 0;
}

/* NAPI back on, and a poll: an interrupt while it was off left it masked. */
static void ronic_xsk_resume(struct ronic_q_vector *qv)
{
	napi_enable(&qv->napi);
	local_bh_disable();
	napi_schedule(&qv->napi);
	local_bh_enable();
}

/* Stop the device using queue pair @q's rings; false if one did not stop. */
static bool ronic_xsk_stop_pair(struct ronic_adapter *adapter, u16 q)
{
	struct netdev_queue *txq = netdev_get_tx_queue(adapter->netdev, q);
	int stuck;

	/* The stack's xmit is done with the ring once its lock was free. */
	__netif_tx_lock_bh(txq);
	netif_tx_stop_queue(txq);
	__netif_tx_unlock_bh(txq);
	stuck = ronic_hw_disable_rx_ring(adapter, adapter->rx_ring[q]);
	stuck |= ronic_hw_disable_tx_ring(adapter, adapter->tx_ring[q]);
	return !stuck;
}

/*
 * Give queue pair @q the buffers xsk_zc_queues says (a socket's pool, or
 * page_pool), pausing that pair only: a new rx ring is built, the tx ring
 * is emptied and started again. Under rtnl, the port open.
 */
static int ronic_xsk_switch(struct ronic_adapter *adapter, u16 q)
{
	struct ronic_q_vector *qv = adapter->q_vector[q];
	struct ronic_ring *old = adapter->rx_ring[q];
	struct ronic_ring *tx = adapter->tx_ring[q];
	struct ronic_ring *rx;

	/* Off first: a page_pool is only destroyed with its NAPI disabled. */
	napi_disable(&qv->napi);
	rx = ronic_ring_create_rx(adapter, q, old->count);
	if (IS_ERR(rx)) {
		ronic_xsk_resume(qv);
		return PTR_ERR(rx);
	}
	if (!ronic_xsk_stop_pair(adapter, q)) {
		/* Its buffers may still be written: only a reset stops that. */
		adapter->queue_stop_timeouts++;
		ronic_schedule_reset(adapter);
	}
	ronic_ring_clean_tx(tx);
	ronic_ring_clean_rx(old);

	/* The queue's counters go on: the new ring starts from the old's. */
	rx->stats = old->stats;
	rx->rx_stats = old->rx_stats;
	spin_lock_bh(&adapter->stats_lock);
	adapter->rx_ring[q] = rx;
	spin_unlock_bh(&adapter->stats_lock);
	qv->rx_ring = rx;
	tx->xsk_pool = rx->xsk_pool;
	WRITE_ONCE(rx->xdp_prog, adapter->xdp_prog);
	ronic_ring_destroy_rx(old);

	ronic_hw_configure_tx_ring(adapter, tx);
	ronic_hw_configure_rx_ring(adapter, rx);
	ronic_rx_fill(rx);
	netif_tx_wake_queue(netdev_get_tx_queue(adapter->netdev, q));
	ronic_xsk_resume(qv);
	return 0;
}

static int ronic_xsk_enable(struct ronic_adapter *adapter,
			    struct xsk_buff_pool *pool, u16 qid)
{
	unsigned long attrs = adapter->ro.decision.xsk_attrs;
	int err;

	if (!ronic_xdp_supported(adapter) || qid >= adapter->num_queues)
		return -EINVAL;
	if (test_bit(qid, adapter->xsk_zc_queues))
		return -EBUSY;
	if (xsk_pool_get_rx_frame_size(pool) < RONIC_XSK_MIN_BUF)
		return -EINVAL;
	err = ronic_dma_xsk_map(&adapter->dma, pool, attrs);
	if (err)
		return err;
	adapter->xsk_attrs[qid] = attrs;
	set_bit(qid, adapter->xsk_zc_queues);
	if (!ronic_port_open(adapter))
		return 0;
	err = ronic_xsk_switch(adapter, qid);
	if (err) {
		clear_bit(qid, adapter->xsk_zc_queues);
		ronic_dma_xsk_unmap(pool, attrs);
	}
	return err;
}

/*
 * The core cannot take a refusal here (the socket is going away), so a
 * queue that cannot get page_pool buffers back stops the port instead of
 * keeping a pool that is about to be freed.
 */
static int ronic_xsk_disable(struct ronic_adapter *adapter, u16 qid)
{
	struct xsk_buff_pool *pool = ronic_xsk_pool(adapter, qid);

	if (!pool)
		return -EINVAL;
	clear_bit(qid, adapter->xsk_zc_queues);
	if (ronic_port_open(adapter) && ronic_xsk_switch(adapter, qid)) {
		netdev_err(adapter->netdev,
			   "queue %u: no memory to leave zero-copy, port stopped\n",
			   qid);
		set_bit(qid, adapter->xsk_zc_queues);
		dev_close(adapter->netdev);
		clear_bit(qid, adapter->xsk_zc_queues);
	}
	ronic_dma_xsk_unmap(pool, adapter->xsk_attrs[qid]);
	return 0;
}

/**
 * ronic_xsk_pool_setup - XDP_SETUP_XSK_POOL: bind or unbind a zero-copy pool
 * @adapter: the device, under rtnl
 * @pool: the pool to bind, or NULL to unbind the queue's
 * @qid: the queue pair
 *
 * A port that is down only records the pool: its rings take it when it
 * opens. An open port switches that queue pair alone.
 *
 * Return: 0 or a negative errno.
 */
int ronic_xsk_pool_setup(struct ronic_adapter *adapter,
			 struct xsk_buff_pool *pool, u16 qid)
{
	return pool ? ronic_xsk_enable(adapter, pool, qid) :
		      ronic_xsk_disable(adapter, qid);
}
