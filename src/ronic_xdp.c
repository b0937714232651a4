// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: XDP. Program attach and detach, the XDP tx rings (one per CPU
 * while the hardware has queues for it, shared by modulo beyond), running
 * the program on received frames, XDP_TX, and ndo_xdp_xmit.
 */
#include <linux/bpf.h>
#include <linux/bpf_trace.h>
#include <linux/filter.h>
#include <net/xdp.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_hw.h"
#include "ronic_xdp.h"

/* Largest frame one rx buffer holds: single-buffer programs fit in it. */
#define RONIC_XDP_MAX_MTU	(RONIC_RX_BUF_LEN - ETH_HLEN - 2 * VLAN_HLEN)

/**
 * ronic_xdp_check_mtu - whether the attached program can carry an MTU
 * @adapter: the device
 * @mtu: the MTU wanted
 *
 * Return: 0 or -EINVAL.
 */
int ronic_xdp_check_mtu(struct ronic_adapter *adapter, int mtu)
{
	/* ndo_change_mtu has no extack: the limit is in the man page. */
	if (adapter->xdp_prog && mtu > RONIC_XDP_MAX_MTU)
		return -EINVAL;
	return 0;
}

/**
 * ronic_xdp_supported - whether the port can run XDP in its configuration
 * @adapter: the device
 *
 * XDP needs a tx ring of its own on a free hardware queue, and the
 * single-vector fallback has no interrupt to clean one.
 *
 * Return: true if a program may be attached (up or down).
 */
bool ronic_xdp_supported(const struct ronic_adapter *adapter)
{
	return adapter->irq_mode == RONIC_IRQ_MSIX &&
	       ronic_xdp_ring_count(nr_cpu_ids, adapter->num_queues) > 0;
}

static void ronic_xdp_stat(struct ronic_ring *ring, u64_stats_t *counter)
{
	u64_stats_update_begin(&ring->syncp);
	u64_stats_inc(counter);
	u64_stats_update_end(&ring->syncp);
}

static struct ronic_ring *ronic_xdp_ring_for_cpu(struct ronic_adapter *adapter)
{
	u16 rings = READ_ONCE(adapter->num_xdp_rings);

	if (unlikely(!rings))
		return NULL;
	return adapter->xdp_ring[ronic_xdp_ring_index(smp_processor_id(), rings)];
}

/*
 * The key is read once per critical section: another port may flip it in
 * between, and the unlock must match what the lock did.
 */
static bool ronic_xdp_lock(struct ronic_ring *ring)
	__acquires(&ring->xdp_lock)
{
	if (!ronic_xdp_locking()) {
		__acquire(&ring->xdp_lock);	/* for sparse: same context either way */
		return false;
	}
	spin_lock(&ring->xdp_lock);
	return true;
}

static void ronic_xdp_unlock(struct ronic_ring *ring, bool locked)
	__releases(&ring->xdp_lock)
{
	if (locked)
		spin_unlock(&ring->xdp_lock);
	else
		__release(&ring->xdp_lock);
}

/* Queue one frame on an XDP ring, its lock held. Return: 0 or -ENOSPC. */
static int ronic_xdp_queue(struct ronic_ring *ring, struct xdp_frame *xdpf,
			   dma_addr_t addr, enum ronic_tx_buf_type type)
{
	u16 i = ring->next_to_use;
	struct ronic_tx_buffer *buf = &ring->tx_buf[i];
	struct ronic_tx_desc *desc = ronic_tx_desc(ring, i);

	desc->addr = cpu_to_le64(addr);
	desc->cmd_type_len = cpu_to_le32(RONIC_TXD_DTYP_DATA | RONIC_TXD_CMD_DEXT |
					 RONIC_TXD_CMD_IFCS | RONIC_TXD_CMD_EOP |
					 RONIC_TXD_CMD_RS | xdpf->len);
	desc->olinfo_status = cpu_to_le32(xdpf->len << RONIC_TXD_PAYLEN_SHIFT);

	buf->xdpf = xdpf;
	buf->type = type;
	buf->bytes = xdpf->len;
	buf->segs = 1;
	ring->next_to_use = ronic_ring_next(ring, i);
	/* The slot before the pointer that lets clean look at it. */
	smp_wmb();
	WRITE_ONCE(buf->eop_desc, desc);
	return 0;
}

/**
 * ronic_xdp_ring_doorbell - hand queued XDP frames to the device
 * @ring: the XDP ring
 */
void ronic_xdp_ring_doorbell(struct ronic_ring *ring)
{
	bool locked = ronic_xdp_lock(ring);

	/* writel() orders the descriptor writes before the tail moves. */
	writel(ring->next_to_use, ring->tail);
	ronic_xdp_unlock(ring, locked);
}

static int ronic_xdp_tx_buff(struct ronic_adapter *adapter, struct xdp_buff *xdp,
			     struct ronic_ring **tx_ring)
{
	struct xdp_frame *xdpf = xdp_convert_buff_to_frame(xdp);
	struct ronic_ring *ring = ronic_xdp_ring_for_cpu(adapter);
	struct page *page;
	dma_addr_t addr;
	int err = -ENOSPC;
	bool locked;

	if (unlikely(!xdpf || !ring))
		return -EINVAL;

	/*
	 * The page keeps the pool's mapping: only the frame is synced. Pool
	 * pages may be compound: the head page holds the mapping.
	 */
	page = virt_to_head_page(xdpf->data);
	addr = ronic_dma_rx_page_addr(page) + (xdpf->data - page_address(page));
	ronic_dma_rx_sync_for_device(ring->dma, addr, xdpf->len);

	locked = ronic_xdp_lock(ring);
	if (likely(ronic_desc_unused(ring)))
		err = ronic_xdp_queue(ring, xdpf, addr, RONIC_TX_BUF_XDP_TX);
	if (locked && !err) {
		u64_stats_update_begin(&ring->xmit_syncp);
		u64_stats_inc(&ring->xdp_stats.xdp_locked);
		u64_stats_update_end(&ring->xmit_syncp);
	}
	ronic_xdp_unlock(ring, locked);
	if (!err)
		*tx_ring = ring;
	return err;
}

/**
 * ronic_xdp_run - run the program on one received frame
 * @rx_ring: where it came in
 * @prog: the program
 * @buf: its slot, in a page of the ring's pool
 * @offset: where the frame starts in the slot; updated for XDP_PASS
 * @len: its length; updated for XDP_PASS
 * @metasize: metadata the program left in front of the frame
 * @tx_ring: set to the XDP ring a frame went to with XDP_TX
 *
 * Return: what the poll does next with the frame.
 */
enum ronic_xdp_verdict ronic_xdp_run(struct ronic_ring *rx_ring,
				     struct bpf_prog *prog,
				     const struct ronic_rx_buffer *buf,
				     u32 *offset, u32 *len, u32 *metasize,
				     struct ronic_ring **tx_ring)
{
	struct ronic_adapter *adapter = rx_ring->q_vector->adapter;
	struct net_device *netdev = rx_ring->netdev;
	struct xdp_buff xdp;
	u32 act;

	xdp_init_buff(&xdp, RONIC_RX_SLOT_LEN, &rx_ring->xdp_rxq);
	xdp_prepare_buff(&xdp, ronic_rx_slot_va(buf), *offset, *len, true);

	act = bpf_prog_run_xdp(prog, &xdp);
	switch (act) {
	case XDP_PASS:
		*offset = xdp.data - xdp.data_hard_start;
		*len = xdp.data_end - xdp.data;
		*metasize = xdp.data - xdp.data_meta;
		ronic_xdp_stat(rx_ring, &rx_ring->rx_stats.xdp_pass);
		return RONIC_XDP_PASS;
	case XDP_TX:
		if (ronic_xdp_tx_buff(adapter, &xdp, tx_ring))
			goto failed;
		ronic_xdp_stat(rx_ring, &rx_ring->rx_stats.xdp_tx);
		return RONIC_XDP_TX;
	case XDP_REDIRECT:
		if (xdp_do_redirect(netdev, &xdp, prog))
			goto failed;
		ronic_xdp_stat(rx_ring, &rx_ring->rx_stats.xdp_redirect);
		return RONIC_XDP_REDIRECT;
	default:
		bpf_warn_invalid_xdp_action(netdev, prog, act);
		fallthrough;
	case XDP_ABORTED:
		trace_xdp_exception(netdev, prog, act);
		ronic_xdp_stat(rx_ring, &rx_ring->rx_stats.xdp_aborted);
		break;
	case XDP_DROP:
		ronic_xdp_stat(rx_ring, &rx_ring->rx_stats.xdp_drop);
		break;
	}
	page_pool_recycle_direct(rx_ring->pp, buf->page);
	return RONIC_XDP_CONSUMED;

failed:
	trace_xdp_exception(netdev, prog, act);
	ronic_xdp_stat(rx_ring, &rx_ring->rx_stats.xdp_tx_errors);
	page_pool_recycle_direct(rx_ring->pp, buf->page);
	return RONIC_XDP_CONSUMED;
}

static void ronic_xdp_release_slot(struct ronic_ring *ring,
				   struct ronic_tx_buffer *buf)
{
	ronic_dma_unmap_tx(ring->dma, &buf->map);
	if (buf->xdpf)
		xdp_return_frame(buf->xdpf);
	buf->xdpf = NULL;
}

/**
 * ronic_xdp_clean_ring - reap completed XDP frames, from the vector's NAPI
 * @ring: the XDP ring
 *
 * Return: true if everything completed was reaped.
 */
bool ronic_xdp_clean_ring(struct ronic_ring *ring)
{
	unsigned int packets = 0, bytes = 0, budget = ring->count;
	u16 i = ring->next_to_clean;
	struct ronic_tx_buffer *buf;

	for (; budget; budget--) {
		if (!ronic_tx_reap_eop(ring, i))
			break;
		buf = &ring->tx_buf[i];
		packets++;
		bytes += buf->bytes;
		ronic_xdp_release_slot(ring, buf);
		i = ronic_ring_next(ring, i);
	}
	/* Producers on other CPUs read next_to_clean for free space. */
	smp_store_release(&ring->next_to_clean, i);

	u64_stats_update_begin(&ring->syncp);
	u64_stats_add(&ring->stats.packets, packets);
	u64_stats_add(&ring->stats.bytes, bytes);
	u64_stats_update_end(&ring->syncp);
	return budget != 0;
}

/**
 * ronic_xdp_ring_clean_all - release every frame of a stopped XDP ring
 * @ring: the ring; the device no longer reads from it
 */
void ronic_xdp_ring_clean_all(struct ronic_ring *ring)
{
	u16 i;

	for (i = 0; i < ring->count; i++) {
		ring->tx_buf[i].eop_desc = NULL;
		ronic_xdp_release_slot(ring, &ring->tx_buf[i]);
	}
	memset(ring->desc, 0, ring->desc_bytes);
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
}

/**
 * ronic_xdp_xmit - ndo_xdp_xmit: frames redirected to this port
 * @netdev: the port
 * @n: frames
 * @frames: the frames
 * @flags: XDP_XMIT_FLUSH to ring the doorbell
 *
 * Return: frames queued (the caller frees the others), or -ENETDOWN.
 */
int ronic_xdp_xmit(struct net_device *netdev, int n, struct xdp_frame **frames,
		   u32 flags)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_dma_map map;
	struct ronic_ring *ring;
	bool locked;
	int sent;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	if (unlikely(test_bit(RONIC_STATE_DOWN, &adapter->state)))
		return -ENETDOWN;
	ring = ronic_xdp_ring_for_cpu(adapter);
	if (unlikely(!ring))
		return -ENXIO;

	locked = ronic_xdp_lock(ring);
	for (sent = 0; sent < n; sent++) {
		struct xdp_frame *xdpf = frames[sent];

		if (!ronic_desc_unused(ring) ||
		    ronic_dma_map_tx_data(ring->dma, xdpf->data, xdpf->len, &map))
			break;
		ring->tx_buf[ring->next_to_use].map = map;
		ronic_xdp_queue(ring, xdpf, map.addr, RONIC_TX_BUF_XDP_XMIT);
	}
	u64_stats_update_begin(&ring->xmit_syncp);
	u64_stats_add(&ring->xdp_stats.xdp_xmit, sent);
	u64_stats_add(&ring->xdp_stats.xdp_tx_errors, n - sent);
	if (locked)
		u64_stats_add(&ring->xdp_stats.xdp_locked, sent);
	u64_stats_update_end(&ring->xmit_syncp);
	if (flags & XDP_XMIT_FLUSH)
		writel(ring->next_to_use, ring->tail);
	ronic_xdp_unlock(ring, locked);
	return sent;
}

static int ronic_xdp_setup(struct ronic_adapter *adapter, struct bpf_prog *prog,
			   struct netlink_ext_ack *extack)
{
	struct net_device *netdev = adapter->netdev;
	struct bpf_prog *old;
	u16 q;

	if (prog) {
		if (!ronic_xdp_supported(adapter)) {
			NL_SET_ERR_MSG_MOD(extack, "XDP needs MSI-X and a free hardware tx queue");
			return -EOPNOTSUPP;
		}
		if (netdev->mtu > RONIC_XDP_MAX_MTU) {
			NL_SET_ERR_MSG_FMT_MOD(extack, "MTU %u too large for XDP: at most %u",
					       netdev->mtu, RONIC_XDP_MAX_MTU);
			return -EINVAL;
		}
	}

	/*
	 * The XDP tx rings always exist while the port is up, so the rings
	 * stay and the poll picks the new program up at its next frame. A
	 * port that is down (or being unregistered: the core closes it, then
	 * detaches) has no rings; ronic_configure() hands the program to the
	 * rings it builds when the port opens.
	 */
	old = xchg(&adapter->xdp_prog, prog);
	for (q = 0; q < adapter->num_queues && adapter->rx_ring[q]; q++)
		WRITE_ONCE(adapter->rx_ring[q]->xdp_prog, prog);
	if (old)
		bpf_prog_put(old);
	return 0;
}

/**
 * ronic_xdp_bpf - ndo_bpf
 * @netdev: the port
 * @bpf: the command
 *
 * Return: 0 or a negative errno, with the reason in the extack.
 */
int ronic_xdp_bpf(struct net_device *netdev, struct netdev_bpf *bpf)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	switch (bpf->command) {
	case XDP_SETUP_PROG:
		return ronic_xdp_setup(adapter, bpf->prog, bpf->extack);
	default:
		return -EINVAL;
	}
}
