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
#include "ronic_xsk.h"

/*
 * Largest MTU whose frames fit one rx buffer: the limit of programs that
 * take single-buffer frames only. A program that declares fragments
 * (SEC("xdp.frags"), BPF_F_XDP_HAS_FRAGS) takes any MTU the port does.
 */
#define RONIC_XDP_MAX_MTU	(RONIC_RX_BUF_LEN - ETH_HLEN - 2 * VLAN_HLEN)

static bool ronic_xdp_mtu_fits(const struct bpf_prog *prog, unsigned int mtu)
{
	return !prog || prog->aux->xdp_has_frags || mtu <= RONIC_XDP_MAX_MTU;
}

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
	if (!ronic_xdp_mtu_fits(adapter->xdp_prog, mtu))
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

/* The descriptors a frame takes: its head and one per fragment. */
static u16 ronic_xdp_frame_parts(struct xdp_frame *xdpf)
{
	if (!xdp_frame_has_frags(xdpf))
		return 1;
	return 1 + xdp_get_shared_info_from_frame(xdpf)->nr_frags;
}

/**
 * ronic_xdp_write_part - describe one part of a frame without offloads
 * @ring: a tx ring
 * @i: the slot
 * @addr: the part's device address
 * @len: its bytes
 * @frame_len: the whole frame's bytes: every descriptor carries it (PAYLEN)
 * @last: the frame's last part: it ends the frame and asks for a status
 *	write-back
 */
void ronic_xdp_write_part(struct ronic_ring *ring, u16 i, dma_addr_t addr,
			  u32 len, u32 frame_len, bool last)
{
	struct ronic_tx_desc *desc = ronic_tx_desc(ring, i);
	u32 cmd = RONIC_TXD_DTYP_DATA | RONIC_TXD_CMD_DEXT | RONIC_TXD_CMD_IFCS;

	if (last)
		cmd |= RONIC_TXD_CMD_EOP | RONIC_TXD_CMD_RS;
	desc->addr = cpu_to_le64(addr);
	desc->cmd_type_len = cpu_to_le32(cmd | len);
	desc->olinfo_status = cpu_to_le32(frame_len << RONIC_TXD_PAYLEN_SHIFT);
}

/*
 * Hand a frame whose @parts descriptors are written from next_to_use on
 * to tx clean, its lock held.
 */
static void ronic_xdp_publish(struct ronic_ring *ring, struct xdp_frame *xdpf,
			      u16 parts, enum ronic_tx_buf_type type)
{
	u16 i = ring->next_to_use;
	struct ronic_tx_buffer *buf = &ring->tx_buf[i];
	struct ronic_tx_desc *eop;

	buf->xdpf = xdpf;
	buf->type = type;
	buf->bytes = xdp_get_frame_len(xdpf);
	buf->segs = 1;
	i = (i + parts - 1) % ring->count;
	eop = ronic_tx_desc(ring, i);
	ring->next_to_use = ronic_ring_next(ring, i);
	/* The slots before the pointer that lets clean look at them. */
	smp_wmb();
	WRITE_ONCE(buf->eop_desc, eop);
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

/*
 * The device address of rx pool bytes going out again: the page keeps the
 * pool's mapping. Pool pages may be compound: the head page holds it.
 */
static dma_addr_t ronic_xdp_pool_addr(struct page *page, u32 offset)
{
	return ronic_dma_rx_page_addr(page) + offset;
}

/* The head of an XDP_TX frame: its page, and its offset in that page. */
static struct page *ronic_xdp_tx_head(struct xdp_frame *xdpf, u32 *offset)
{
	struct page *head = virt_to_head_page(xdpf->data);

	*offset = xdpf->data - page_address(head);
	return head;
}

/*
 * Sync for the device the bytes an XDP_TX frame sends, head and
 * fragments: before the ring's lock, which CPUs sharing the ring wait on.
 */
static void ronic_xdp_sync_tx(struct ronic_ring *ring, struct xdp_frame *xdpf)
{
	struct skb_shared_info *sinfo;
	struct page *head;
	u32 offset, f;

	head = ronic_xdp_tx_head(xdpf, &offset);
	ronic_dma_rx_sync_for_device(ring->dma, ronic_xdp_pool_addr(head, offset),
				     xdpf->len);
	if (!xdp_frame_has_frags(xdpf))
		return;
	sinfo = xdp_get_shared_info_from_frame(xdpf);
	for (f = 0; f < sinfo->nr_frags; f++)
		ronic_dma_rx_sync_for_device(ring->dma,
					     ronic_xdp_pool_addr(skb_frag_page(&sinfo->frags[f]),
								 skb_frag_off(&sinfo->frags[f])),
					     skb_frag_size(&sinfo->frags[f]));
}

/* Queue an XDP_TX frame, head and fragments, its lock held. */
static int ronic_xdp_queue_tx(struct ronic_ring *ring, struct xdp_frame *xdpf)
{
	u32 frame_len = xdp_get_frame_len(xdpf);
	u16 parts = ronic_xdp_frame_parts(xdpf);
	struct skb_shared_info *sinfo;
	u16 i = ring->next_to_use;
	struct page *head;
	skb_frag_t *frag;
	u32 offset;
	u16 f;

	if (unlikely(ronic_desc_unused(ring) < parts))
		return -ENOSPC;
	head = ronic_xdp_tx_head(xdpf, &offset);
	ronic_xdp_write_part(ring, i, ronic_xdp_pool_addr(head, offset),
			     xdpf->len, frame_len, parts == 1);
	sinfo = xdp_get_shared_info_from_frame(xdpf);
	for (f = 1; f < parts; f++) {
		frag = &sinfo->frags[f - 1];
		i = ronic_ring_next(ring, i);
		ronic_xdp_write_part(ring, i,
				     ronic_xdp_pool_addr(skb_frag_page(frag),
							 skb_frag_off(frag)),
				     skb_frag_size(frag), frame_len,
				     f == parts - 1);
	}
	ronic_xdp_publish(ring, xdpf, parts, RONIC_TX_BUF_XDP_TX);
	return 0;
}

static int ronic_xdp_tx_buff(struct ronic_adapter *adapter, struct xdp_buff *xdp,
			     struct ronic_ring **tx_ring)
{
	struct xdp_frame *xdpf = xdp_convert_buff_to_frame(xdp);
	struct ronic_ring *ring = ronic_xdp_ring_for_cpu(adapter);
	bool locked;
	int err;

	if (unlikely(!xdpf || !ring))
		return -EINVAL;

	ronic_xdp_sync_tx(ring, xdpf);
	locked = ronic_xdp_lock(ring);
	err = ronic_xdp_queue_tx(ring, xdpf);
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
 * ronic_xdp_buff_free - return a received frame's buffers to their pool
 * @pp: the rx ring's pool
 * @xdp: the frame: its head and any fragments
 * @napi: called from the ring's NAPI poll (the pool's direct cache)
 */
void ronic_xdp_buff_free(struct page_pool *pp, struct xdp_buff *xdp, bool napi)
{
	struct skb_shared_info *sinfo;
	u32 f;

	if (xdp_buff_has_frags(xdp)) {
		sinfo = xdp_get_shared_info_from_buff(xdp);
		for (f = 0; f < sinfo->nr_frags; f++)
			page_pool_put_full_page(pp, skb_frag_page(&sinfo->frags[f]),
						napi);
	}
	page_pool_put_full_page(pp, virt_to_head_page(xdp->data), napi);
}

/**
 * ronic_xdp_run - run the program on one received frame
 * @rx_ring: where it came in
 * @prog: the program
 * @xdp: the frame, in buffers of the ring's pool; for XDP_PASS, what the
 *	program left of it
 * @tx_ring: set to the XDP ring a frame went to with XDP_TX
 *
 * Return: what the poll does next with the frame. Unless it is
 * RONIC_XDP_PASS or RONIC_XDP_DROP, the frame's buffers are no longer the
 * poll's.
 */
enum ronic_xdp_verdict ronic_xdp_run(struct ronic_ring *rx_ring,
				     struct bpf_prog *prog,
				     struct xdp_buff *xdp,
				     struct ronic_ring **tx_ring)
{
	struct ronic_adapter *adapter = rx_ring->q_vector->adapter;
	struct net_device *netdev = rx_ring->netdev;
	u32 act;

	act = bpf_prog_run_xdp(prog, xdp);
	switch (act) {
	case XDP_PASS:
		ronic_ring_count(rx_ring, &rx_ring->rx_stats.xdp_pass);
		return RONIC_XDP_PASS;
	case XDP_TX:
		if (ronic_xdp_tx_buff(adapter, xdp, tx_ring))
			goto failed;
		ronic_ring_count(rx_ring, &rx_ring->rx_stats.xdp_tx);
		return RONIC_XDP_TX;
	case XDP_REDIRECT:
		if (xdp_do_redirect(netdev, xdp, prog))
			goto failed;
		ronic_ring_count(rx_ring, &rx_ring->rx_stats.xdp_redirect);
		return RONIC_XDP_REDIRECT;
	default:
		bpf_warn_invalid_xdp_action(netdev, prog, act);
		fallthrough;
	case XDP_ABORTED:
		trace_xdp_exception(netdev, prog, act);
		ronic_ring_count(rx_ring, &rx_ring->rx_stats.xdp_aborted);
		break;
	case XDP_DROP:
		ronic_ring_count(rx_ring, &rx_ring->rx_stats.xdp_drop);
		return RONIC_XDP_DROP;
	}
	ronic_xdp_buff_free(rx_ring->pp, xdp, true);
	return RONIC_XDP_CONSUMED;

failed:
	trace_xdp_exception(netdev, prog, act);
	ronic_ring_count(rx_ring, &rx_ring->rx_stats.xdp_tx_errors);
	ronic_xdp_buff_free(rx_ring->pp, xdp, true);
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
	struct ronic_tx_desc *eop, *desc;
	struct ronic_tx_buffer *head;
	struct xdp_frame *xdpf;

	for (; budget; budget--) {
		eop = ronic_tx_reap_eop(ring, i);
		if (!eop)
			break;
		head = &ring->tx_buf[i];
		packets++;
		bytes += head->bytes;
		xdpf = head->xdpf;
		head->xdpf = NULL;
		do {
			desc = ronic_tx_desc(ring, i);
			ronic_dma_unmap_tx(ring->dma, &ring->tx_buf[i].map);
			i = ronic_ring_next(ring, i);
		} while (desc != eop);
		/* Returned only once unmapped, as in tx clean. */
		xdp_return_frame(xdpf);
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

/*
 * Map part @part of a redirected frame (0: its head, then its fragments)
 * into slot @i. Return: 0 or the mapping's error.
 */
static int ronic_xdp_map_part(struct ronic_ring *ring, struct xdp_frame *xdpf,
			      u16 part, u16 i)
{
	struct ronic_dma_map *map = &ring->tx_buf[i].map;
	skb_frag_t *frag;

	if (!part)
		return ronic_dma_map_tx_data(ring->dma, xdpf->data, xdpf->len, map);
	frag = &xdp_get_shared_info_from_frame(xdpf)->frags[part - 1];
	return ronic_dma_map_tx_data(ring->dma, skb_frag_address(frag),
				     skb_frag_size(frag), map);
}

/*
 * Queue a frame redirected from elsewhere, mapping each of its parts, its
 * lock held. Return: 0, -ENOSPC or a mapping's error (nothing kept mapped).
 */
static int ronic_xdp_queue_xmit(struct ronic_ring *ring, struct xdp_frame *xdpf)
{
	u32 frame_len = xdp_get_frame_len(xdpf);
	u16 parts = ronic_xdp_frame_parts(xdpf);
	u16 first = ring->next_to_use, i = first, part;
	struct ronic_dma_map *map;
	int err;

	if (unlikely(ronic_desc_unused(ring) < parts))
		return -ENOSPC;
	for (part = 0; part < parts; part++) {
		err = ronic_xdp_map_part(ring, xdpf, part, i);
		if (unlikely(err))
			goto unmap;
		map = &ring->tx_buf[i].map;
		ronic_xdp_write_part(ring, i, map->addr, map->len, frame_len,
				     part == parts - 1);
		i = ronic_ring_next(ring, i);
	}
	ronic_xdp_publish(ring, xdpf, parts, RONIC_TX_BUF_XDP_XMIT);
	return 0;

unmap:
	for (i = first; part--; i = ronic_ring_next(ring, i))
		ronic_dma_unmap_tx(ring->dma, &ring->tx_buf[i].map);
	return err;
}

/**
 * ronic_xdp_xmit - ndo_xdp_xmit: frames redirected to this port
 * @netdev: the port
 * @n: frames
 * @frames: the frames, each a head and any fragments
 * @flags: XDP_XMIT_FLUSH to ring the doorbell
 *
 * Return: frames queued (the caller frees the others), or -ENETDOWN.
 */
int ronic_xdp_xmit(struct net_device *netdev, int n, struct xdp_frame **frames,
		   u32 flags)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
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
	for (sent = 0; sent < n; sent++)
		if (ronic_xdp_queue_xmit(ring, frames[sent]))
			break;
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
		if (!ronic_xdp_mtu_fits(prog, netdev->mtu)) {
			NL_SET_ERR_MSG_FMT_MOD(extack,
					       "MTU %u too large for XDP without frags: at most %u",
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

#ifdef RONIC_HAVE_XDP_METADATA_OPS
/* The XDP name of each RSS type the device reports. */
static const enum xdp_rss_hash_type ronic_xdp_rss_types[RONIC_RSS_TYPES] = {
	[RONIC_RSS_NONE]	= XDP_RSS_TYPE_NONE,
	[RONIC_RSS_IPV4_TCP]	= XDP_RSS_TYPE_L4_IPV4_TCP,
	[RONIC_RSS_IPV4]	= XDP_RSS_TYPE_L3_IPV4,
	[RONIC_RSS_IPV6_TCP]	= XDP_RSS_TYPE_L4_IPV6_TCP,
	[RONIC_RSS_IPV6_EX]	= XDP_RSS_TYPE_L3_IPV6_EX,
	[RONIC_RSS_IPV6]	= XDP_RSS_TYPE_L3_IPV6,
	[RONIC_RSS_IPV6_TCP_EX]	= XDP_RSS_TYPE_L4_IPV6_TCP_EX,
	[RONIC_RSS_IPV4_UDP]	= XDP_RSS_TYPE_L4_IPV4_UDP,
	[RONIC_RSS_IPV6_UDP]	= XDP_RSS_TYPE_L4_IPV6_UDP,
	[RONIC_RSS_IPV6_UDP_EX]	= XDP_RSS_TYPE_L4_IPV6_UDP_EX,
};

/*
 * The descriptor of the frame a program runs on, or NULL: a zero-copy
 * buffer has room for it only on kernels that give drivers some
 * (XSK_CHECK_PRIV_TYPE).
 */
static const union ronic_rx_desc *ronic_xdp_desc(const struct xdp_md *ctx)
{
	const struct ronic_xdp_buff *rxb = (const void *)ctx;

#ifndef RONIC_HAVE_XSK_CB
	if (rxb->xdp.rxq->mem.type == MEM_TYPE_XSK_BUFF_POOL)
		return NULL;
#endif
	return rxb->desc;
}

/* bpf_xdp_metadata_rx_hash(): the hash the rx queue was chosen by. */
static int ronic_xdp_rx_hash(const struct xdp_md *ctx, u32 *hash,
			     enum xdp_rss_hash_type *rss_type)
{
	const struct ronic_xdp_buff *rxb = (const void *)ctx;
	const union ronic_rx_desc *desc = ronic_xdp_desc(ctx);
	enum ronic_rss_type type;

	if (!desc)
		return -ENODATA;
	type = ronic_rx_rss_type(rxb->xdp.rxq->dev, desc);
	if (type == RONIC_RSS_NONE)
		return -ENODATA;
	*hash = le32_to_cpu(desc->wb.rss_hash);
	*rss_type = ronic_xdp_rss_types[type];
	return 0;
}

#ifdef RONIC_HAVE_XMO_RX_VLAN_TAG
/* bpf_xdp_metadata_rx_vlan_tag(): the 802.1Q tag the device took off. */
static int ronic_xdp_rx_vlan_tag(const struct xdp_md *ctx, __be16 *vlan_proto,
				 u16 *vlan_tci)
{
	const struct ronic_xdp_buff *rxb = (const void *)ctx;
	const union ronic_rx_desc *desc = ronic_xdp_desc(ctx);

	if (!desc || !ronic_rx_vlan_stripped(rxb->xdp.rxq->dev, desc, vlan_tci))
		return -ENODATA;
	*vlan_proto = htons(ETH_P_8021Q);
	return 0;
}
#endif

const struct xdp_metadata_ops ronic_xdp_metadata_ops = {
	.xmo_rx_hash		= ronic_xdp_rx_hash,
#ifdef RONIC_HAVE_XMO_RX_VLAN_TAG
	.xmo_rx_vlan_tag	= ronic_xdp_rx_vlan_tag,
#endif
};
#endif

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
	case XDP_SETUP_XSK_POOL:
		return ronic_xsk_pool_setup(adapter, bpf->xsk.pool,
					    bpf->xsk.queue_id);
	default:
		return -EINVAL;
	}
}
