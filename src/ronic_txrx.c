// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: the hot paths. Transmit, transmit completion, receive and the
 * NAPI poll that drives both completions.
 */
#include <linux/filter.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/prefetch.h>
#include <linux/sctp.h>
#include <linux/tcp.h>
#include <net/ip6_checksum.h>
#include <net/netdev_queues.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_hw.h"
#include "ronic_xdp.h"
#include "ronic_xsk.h"

#define RONIC_TX_CLEAN_BUDGET	256

/* The device did not check this frame's checksums. */
#define RONIC_RXD_STAT_IXSM	BIT(2)

/* Descriptors one frame needs: a context, then its data in chunks. */
static u16 ronic_tx_desc_count(const struct sk_buff *skb)
{
	unsigned int f, count;

	count = DIV_ROUND_UP(skb_headlen(skb), RONIC_TX_MAX_DATA);
	for (f = 0; f < skb_shinfo(skb)->nr_frags; f++)
		count += DIV_ROUND_UP(skb_frag_size(&skb_shinfo(skb)->frags[f]),
				      RONIC_TX_MAX_DATA);
	return count + 1;
}

/*
 * Free descriptors under which the queue stops after a frame: the most the
 * next frame may take, so that every frame the stack hands over fits. A
 * frame needing more than half the ring is linearized, so on a small ring
 * (32 of 64 descriptors) half the ring is the most.
 */
static u16 ronic_tx_stop_thresh(const struct ronic_ring *ring)
{
	return min_t(u16, RONIC_TX_DESC_MAX, ring->count / 2);
}

/*
 * Free descriptors at which tx clean wakes a stopped queue: the stop
 * threshold and as much again, so that the queue does not stop again one
 * frame later, but no further than halfway from it to an empty ring, which
 * a small ring must still reach.
 */
static u16 ronic_tx_wake_thresh(const struct ronic_ring *ring)
{
	u16 stop = ronic_tx_stop_thresh(ring);

	return stop + min_t(u16, stop, (ring->count - 1 - stop) / 2);
}

DEFINE_STATIC_KEY_FALSE(ronic_tx_hang_key);

/**
 * ronic_tx_hang_arm - make the tx doorbell honour a frozen tail
 *
 * Until a test freezes a tail (debugfs tx_hang_queue), the doorbell does
 * not even load the flag: a test knob should cost nothing on the hot path
 * of a port that no test touched. Never turned off again: a load per
 * doorbell after a test is cheap, and another port may freeze meanwhile.
 *
 * Context: process context; sleeps (it patches code).
 */
void ronic_tx_hang_arm(void)
{
	static_branch_enable(&ronic_tx_hang_key);
}

/**
 * ronic_tx_doorbell - hand the device every descriptor written so far
 * @ring: a stack tx ring
 *
 * An xmit_more batch leaves this to its last frame, whose tail covers the
 * whole batch. writel() orders the descriptor writes before the register
 * write on every architecture, so no wmb() is needed first.
 */
void ronic_tx_doorbell(struct ronic_ring *ring)
{
	if (static_branch_unlikely(&ronic_tx_hang_key) &&
	    READ_ONCE(ring->tail_frozen))
		return;
	writel(ring->next_to_use, ring->tail);
}

struct ronic_tx_offload {
	u32 vlan_macip_lens;
	u32 type_tucmd;
	u32 mss_l4len;
	u32 cmd;		/* data descriptor command bits */
	u32 olinfo;		/* data descriptor offload bits */
	u32 hdr_len;		/* headers repeated per TSO segment */
};

static int ronic_tx_prep_tso(struct sk_buff *skb, struct ronic_tx_offload *off)
{
	u32 l4_offset, l4_len, paylen;
	struct iphdr *iph;
	struct tcphdr *th;
	int err;

	err = skb_cow_head(skb, 0);
	if (err < 0)
		return err;

	th = tcp_hdr(skb);
	l4_offset = skb_transport_offset(skb);
	l4_len = tcp_hdrlen(skb);
	off->hdr_len = l4_offset + l4_len;

	if (skb_shinfo(skb)->gso_type & SKB_GSO_TCPV4) {
		iph = ip_hdr(skb);
		/* The device fills both lengths and the IP checksum per segment. */
		iph->tot_len = 0;
		iph->check = 0;
		off->type_tucmd |= RONIC_TXCTX_TUCMD_IPV4;
		off->olinfo |= RONIC_TXD_POPTS_IXSM;
	} else {
		ipv6_hdr(skb)->payload_len = 0;
	}
	/* The stack's pseudo-header sum covers the length: take it out. */
	paylen = skb->len - l4_offset;
	csum_replace_by_diff(&th->check, (__force __wsum)htonl(paylen));

	off->type_tucmd |= RONIC_TXCTX_TUCMD_L4T_TCP;
	off->mss_l4len = (l4_len << RONIC_TXCTX_L4LEN_SHIFT) |
			 (skb_shinfo(skb)->gso_size << RONIC_TXCTX_MSS_SHIFT);
	off->cmd |= RONIC_TXD_CMD_TSE;
	off->olinfo |= RONIC_TXD_POPTS_TXSM;
	return 1;
}

static int ronic_tx_prep_csum(struct sk_buff *skb, struct ronic_tx_offload *off)
{
	switch (skb->csum_offset) {
	case offsetof(struct tcphdr, check):
		off->type_tucmd |= RONIC_TXCTX_TUCMD_L4T_TCP;
		break;
	case offsetof(struct udphdr, check):
		break;
	case offsetof(struct sctphdr, checksum):
		if (skb_csum_is_sctp(skb)) {
			off->type_tucmd |= RONIC_TXCTX_TUCMD_L4T_SCTP;
			break;
		}
		fallthrough;
	default:
		return skb_checksum_help(skb) ? -EINVAL : 0;
	}
	if (skb->protocol == htons(ETH_P_IP))
		off->type_tucmd |= RONIC_TXCTX_TUCMD_IPV4;
	off->olinfo |= RONIC_TXD_POPTS_TXSM;
	return 1;
}

/* Return: 1 if a context descriptor is needed, 0 if not, or an errno. */
static int ronic_tx_prep_offload(struct sk_buff *skb,
				 struct ronic_tx_offload *off)
{
	int ret = 0;

	/* The tag goes in the context descriptor; VLE inserts it. */
	if (skb_vlan_tag_present(skb)) {
		off->vlan_macip_lens = skb_vlan_tag_get(skb) <<
				       RONIC_TXCTX_VLAN_SHIFT;
		off->cmd |= RONIC_TXD_CMD_VLE;
	}
	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		if (skb_is_gso(skb))
			ret = ronic_tx_prep_tso(skb, off);
		else
			ret = ronic_tx_prep_csum(skb, off);
	}
	if (ret < 0)
		return ret;
	if (ret)
		off->vlan_macip_lens |=
			(skb_network_offset(skb) << RONIC_TXCTX_MACLEN_SHIFT) |
			(skb_checksum_start_offset(skb) - skb_network_offset(skb));
	else if (!skb_vlan_tag_present(skb))
		return 0;
	return 1;
}

static void ronic_tx_write_ctx(struct ronic_ring *ring, u16 i,
			       const struct ronic_tx_offload *off)
{
	struct ronic_tx_ctx_desc *ctx = (struct ronic_tx_ctx_desc *)ronic_tx_desc(ring, i);

	ctx->vlan_macip_lens = cpu_to_le32(off->vlan_macip_lens);
	ctx->seqnum_seed = 0;
	ctx->type_tucmd_mlhl = cpu_to_le32(off->type_tucmd | RONIC_TXD_CMD_DEXT |
					   RONIC_TXD_DTYP_CTXT);
	ctx->mss_l4len_idx = cpu_to_le32(off->mss_l4len);
}

/* Write one data descriptor per chunk of [addr, addr + len). */
static u16 ronic_tx_write_data(struct ronic_ring *ring, u16 i, dma_addr_t addr,
			       u32 len, const struct ronic_tx_offload *off,
			       struct ronic_tx_desc **last)
{
	u32 cmd = RONIC_TXD_DTYP_DATA | RONIC_TXD_CMD_DEXT |
		  RONIC_TXD_CMD_IFCS | off->cmd;
	struct ronic_tx_desc *desc;
	u32 chunk;

	do {
		chunk = min_t(u32, len, RONIC_TX_MAX_DATA);
		desc = ronic_tx_desc(ring, i);
		desc->addr = cpu_to_le64(addr);
		desc->cmd_type_len = cpu_to_le32(cmd | chunk);
		desc->olinfo_status = cpu_to_le32(off->olinfo);
		addr += chunk;
		len -= chunk;
		*last = desc;
		i = ronic_ring_next(ring, i);
	} while (len);
	return i;
}

/*
 * Descriptor @i's coherent bounce slot, if @len bytes may go there (no
 * more than tx-copybreak): its CPU address, and its device address in
 * @addr. Return: NULL if they may not.
 */
static void *ronic_tx_bounce_slot(struct ronic_ring *ring, u16 i,
				  unsigned int len, dma_addr_t *addr)
{
	u32 limit = READ_ONCE(ring->q_vector->adapter->tx_copybreak);
	size_t slot = (size_t)i * RONIC_TX_COPYBREAK_MAX;

	if (!ring->bounce || len > limit)
		return NULL;
	*addr = ring->bounce_dma + slot;
	return ring->bounce + slot;
}

/*
 * A linear part no longer than tx-copybreak (a TSO frame's headers, say)
 * goes into the coherent slot of descriptor @i instead of being mapped:
 * a page fewer in the frame's mapping for an IOMMU to map and unmap.
 * Return: true, with the slot's device address in @addr, if copied.
 */
static bool ronic_tx_copy_head(struct ronic_ring *ring,
			       const struct sk_buff *skb, u16 i,
			       dma_addr_t *addr)
{
	void *slot = ronic_tx_bounce_slot(ring, i, skb_headlen(skb), addr);

	if (!slot)
		return false;
	memcpy(slot, skb->data, skb_headlen(skb));
	return true;
}

/*
 * Data descriptors for a mapped list: one per list entry (and per 32 KB in
 * it) even where the IOMMU merged entries into one segment, so the frame
 * takes the descriptors ronic_tx_desc_count() reserved and at least one per
 * entry, which keeps the lists of frames in flight apart (ronic_ring.tx_sg).
 */
static u16 ronic_tx_write_sg(struct ronic_ring *ring, u16 i,
			     struct scatterlist *sgl, int nsegs,
			     const struct ronic_tx_offload *off,
			     struct ronic_tx_desc **last)
{
	struct scatterlist *entry = sgl, *seg;
	u32 entry_left = entry->length;
	int s;

	for_each_sg(sgl, seg, nsegs, s) {
		dma_addr_t addr = sg_dma_address(seg);
		u32 left = sg_dma_len(seg), len;

		while (left) {
			if (!entry_left) {
				entry = sg_next(entry);
				entry_left = entry->length;
			}
			len = min(left, entry_left);
			i = ronic_tx_write_data(ring, i, addr, len, off, last);
			addr += len;
			left -= len;
			entry_left -= len;
		}
	}
	return i;
}

/*
 * Map and describe the frame's data from slot @first on; @head is the
 * frame's first slot (its context descriptor, if any), which clean reads.
 * A short linear part is copied; everything else is mapped in one call.
 */
static int ronic_tx_map(struct ronic_ring *ring, struct sk_buff *skb,
			struct ronic_tx_buffer *head, u16 first,
			const struct ronic_tx_offload *off)
{
	struct ronic_tx_desc *last = NULL;
	struct ronic_dma_map *map;
	unsigned int weak = 0;
	bool copied = false;
	dma_addr_t addr;
	u16 i = first;
	int nsegs;

	if (skb_headlen(skb)) {
		copied = ronic_tx_copy_head(ring, skb, i, &addr);
		if (copied)
			i = ronic_tx_write_data(ring, i, addr, skb_headlen(skb),
						off, &last);
	}

	if (!copied || skb_shinfo(skb)->nr_frags) {
		map = &ring->tx_buf[i].map;
		nsegs = ronic_dma_map_tx_skb(ring->dma, skb,
					     !copied && skb_headlen(skb),
					     &ring->tx_sg[i], map);
		if (nsegs < 0)
			return nsegs;
		weak = !!(map->attrs & DMA_ATTR_WEAK_ORDERING);
		i = ronic_tx_write_sg(ring, i, map->sgl, nsegs, off, &last);
	}

	last->cmd_type_len |= cpu_to_le32(RONIC_TXD_CMD_EOP | RONIC_TXD_CMD_RS);
	if (copied || unlikely(weak)) {
		u64_stats_update_begin(&ring->xmit_syncp);
		u64_stats_add(&ring->xmit_stats.head_copy, copied);
		u64_stats_add(&ring->xmit_stats.dma_weak, weak);
		u64_stats_update_end(&ring->xmit_syncp);
	}
	ring->next_to_use = i;
	/* Descriptors before the pointer that lets tx clean look at them. */
	smp_wmb();
	WRITE_ONCE(head->eop_desc, last);
	return 0;
}

static void ronic_xmit_stat(struct ronic_ring *ring, u64_stats_t *counter)
{
	u64_stats_update_begin(&ring->xmit_syncp);
	u64_stats_inc(counter);
	u64_stats_update_end(&ring->xmit_syncp);
}

/* Descriptors the frame took from @start on, its context descriptor too. */
static void ronic_xmit_descs(struct ronic_ring *ring, u16 start)
{
	u16 used = ring->next_to_use - start;

	if (ring->next_to_use < start)
		used += ring->count;
	u64_stats_update_begin(&ring->xmit_syncp);
	u64_stats_add(&ring->xmit_stats.descs, used);
	u64_stats_update_end(&ring->xmit_syncp);
}

/*
 * A small frame is copied whole into the coherent slot of its data
 * descriptor: no streaming map, so no IOVA search with an IOMMU on.
 */
static bool ronic_tx_copybreak(struct ronic_ring *ring, struct sk_buff *skb,
			       struct ronic_tx_buffer *head, u16 first,
			       const struct ronic_tx_offload *off)
{
	struct ronic_tx_desc *desc;
	dma_addr_t addr;
	void *slot;

	if (skb_is_gso(skb))
		return false;
	slot = ronic_tx_bounce_slot(ring, first, skb->len, &addr);
	if (!slot || skb_copy_bits(skb, 0, slot, skb->len))
		return false;

	desc = ronic_tx_desc(ring, first);
	desc->addr = cpu_to_le64(addr);
	desc->cmd_type_len = cpu_to_le32(RONIC_TXD_DTYP_DATA | RONIC_TXD_CMD_DEXT |
					 RONIC_TXD_CMD_IFCS | off->cmd |
					 RONIC_TXD_CMD_EOP | RONIC_TXD_CMD_RS |
					 skb->len);
	desc->olinfo_status = cpu_to_le32(off->olinfo);
	ronic_xmit_stat(ring, &ring->xmit_stats.copybreak);
	ring->next_to_use = ronic_ring_next(ring, first);
	/* Descriptors before the pointer that lets tx clean look at them. */
	smp_wmb();
	WRITE_ONCE(head->eop_desc, desc);
	return true;
}

/**
 * ronic_xmit_frame - ndo_start_xmit
 * @skb: the frame
 * @netdev: the device
 *
 * Return: NETDEV_TX_OK, or NETDEV_TX_BUSY if the ring was full, which the
 * stop threshold should make impossible (counted in txN_busy).
 */
netdev_tx_t ronic_xmit_frame(struct sk_buff *skb, struct net_device *netdev)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_ring *ring = adapter->tx_ring[skb_get_queue_mapping(skb)];
	struct netdev_queue *txq = netdev_get_tx_queue(netdev, ring->queue_index);
	u16 stop = ronic_tx_stop_thresh(ring), wake = ronic_tx_wake_thresh(ring);
	struct ronic_tx_offload off = { };
	struct ronic_tx_buffer *head;
	u16 needed, first, start;
	int ctx;

	/*
	 * A short frame is padded to 60 bytes here, so every frame on the
	 * wire is full size (QEMU's model sends what it is given; its
	 * receivers count shorter ones as undersize). Its checksum is made
	 * first, in software: the padding would otherwise sit inside the
	 * span the device checksums, and QEMU's model takes the padded
	 * length for the UDP pseudo-header.
	 */
	if (skb->len < ETH_ZLEN && skb->ip_summed == CHECKSUM_PARTIAL &&
	    skb_checksum_help(skb))
		goto drop;
	/* On failure the frame is freed already. */
	if (skb_put_padto(skb, ETH_ZLEN))
		goto dropped;

	needed = ronic_tx_desc_count(skb);
	if (unlikely(needed > stop)) {
		if (skb_linearize(skb))
			goto drop;
		ronic_xmit_stat(ring, &ring->xmit_stats.linearized);
		/* Under 64 KB in one part: three descriptors at most. */
		needed = ronic_tx_desc_count(skb);
		if (unlikely(needed > stop))
			goto drop;
	}
	/*
	 * The previous frame stopped the queue if it left fewer than @stop,
	 * so this frame fits; the check stays for safety, not as flow control.
	 */
	if (unlikely(!netif_txq_maybe_stop(txq, ronic_desc_unused(ring),
					   needed, wake))) {
		ronic_xmit_stat(ring, &ring->xmit_stats.busy);
		/* Earlier frames of a batch must go: their completion wakes us. */
		ronic_tx_doorbell(ring);
		return NETDEV_TX_BUSY;
	}

	ctx = ronic_tx_prep_offload(skb, &off);
	if (ctx < 0)
		goto drop;

	start = ring->next_to_use;
	first = start;
	if (ctx) {
		ronic_tx_write_ctx(ring, first, &off);
		first = ronic_ring_next(ring, first);
		if (skb->ip_summed == CHECKSUM_PARTIAL)
			ronic_xmit_stat(ring, skb_is_gso(skb) ?
					&ring->xmit_stats.tso :
					&ring->xmit_stats.csum_offload);
	}
	if (skb_is_gso(skb))
		off.olinfo |= (skb->len - off.hdr_len) << RONIC_TXD_PAYLEN_SHIFT;
	else
		off.olinfo |= skb->len << RONIC_TXD_PAYLEN_SHIFT;

	/* The frame's bookkeeping lives in the slot of its first descriptor. */
	head = &ring->tx_buf[ring->next_to_use];
	head->skb = skb;
	head->type = RONIC_TX_BUF_SKB;
	head->segs = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	head->bytes = skb->len + (head->segs - 1) * off.hdr_len;

	if (!ronic_tx_copybreak(ring, skb, head, first, &off) &&
	    ronic_tx_map(ring, skb, head, first, &off)) {
		head->skb = NULL;
		ronic_xmit_stat(ring, &ring->xmit_stats.map_errors);
		goto drop;
	}
	skb_tx_timestamp(skb);
	ronic_xmit_descs(ring, start);

	/* Room for the largest next frame, or stop until tx clean makes it. */
	netif_txq_maybe_stop(txq, ronic_desc_unused(ring), stop, wake);

	/*
	 * One doorbell per xmit_more batch, at its last frame, and whenever
	 * the queue stopped: the stack sends no more of the batch then.
	 */
	if (__netdev_tx_sent_queue(txq, head->bytes, netdev_xmit_more()))
		ronic_tx_doorbell(ring);
	return NETDEV_TX_OK;

drop:
	dev_kfree_skb_any(skb);
dropped:
	ronic_xmit_stat(ring, &ring->xmit_stats.dropped);
	/*
	 * The frames queued before this one in an xmit_more batch wait for
	 * the doorbell that the batch's last frame rings: if this was it, or
	 * the queue stopped, nothing else will ring it.
	 */
	if (!netdev_xmit_more() || netif_xmit_stopped(txq))
		ronic_tx_doorbell(ring);
	return NETDEV_TX_OK;
}

/* Return: true if the ring was cleaned completely within the budget. */
static bool ronic_clean_tx(struct ronic_ring *ring, int napi_budget)
{
	unsigned int packets = 0, bytes = 0, budget = RONIC_TX_CLEAN_BUDGET;
	/* the stack's frames, for BQL: AF_XDP frames never entered it */
	unsigned int skb_packets = 0, skb_bytes = 0;
	u32 xsk_frames = 0;
	struct netdev_queue *txq;
	struct ronic_tx_buffer *head;
	struct ronic_tx_desc *eop;
	u16 i = ring->next_to_clean;
	struct sk_buff *skb;

	for (; budget; budget--) {
		eop = ronic_tx_reap_eop(ring, i);
		if (!eop)
			break;
		head = &ring->tx_buf[i];
		skb = head->skb;
		head->skb = NULL;
		packets += head->segs;
		bytes += head->bytes;
		if (head->type == RONIC_TX_BUF_XSK) {
			xsk_frames++;
		} else {
			skb_packets += head->segs;
			skb_bytes += head->bytes;
		}

		for (;;) {
			struct ronic_tx_desc *desc = ronic_tx_desc(ring, i);

			ronic_dma_unmap_tx(ring->dma, &ring->tx_buf[i].map);
			i = ronic_ring_next(ring, i);
			if (desc == eop)
				break;
		}
		/*
		 * Freed only once unmapped: a page freed while an IOVA still
		 * maps it could be reused and read by the device (strict IOMMU).
		 */
		napi_consume_skb(skb, napi_budget);
	}
	ring->next_to_clean = i;
	if (packets)
		WRITE_ONCE(ring->last_completion, jiffies);
	ronic_xsk_tx_completed(ring, xsk_frames);

	u64_stats_update_begin(&ring->syncp);
	u64_stats_add(&ring->stats.packets, packets);
	u64_stats_add(&ring->stats.bytes, bytes);
	u64_stats_update_end(&ring->syncp);
	ring->q_vector->itr_packets += packets;
	ring->q_vector->itr_bytes += bytes;

	txq = netdev_get_tx_queue(ring->netdev, ring->queue_index);
	if (!__netif_txq_completed_wake(txq, skb_packets, skb_bytes,
					ronic_desc_unused(ring),
					ronic_tx_wake_thresh(ring),
					test_bit(RONIC_STATE_DOWN,
						 &ring->q_vector->adapter->state))) {
		u64_stats_update_begin(&ring->syncp);
		u64_stats_inc(&ring->tx_stats.restarts);
		u64_stats_update_end(&ring->syncp);
	}
	return budget != 0;
}

/**
 * ronic_rx_refill - give the device fresh buffers
 * @ring: the rx ring
 * @count: how many descriptors to fill
 */
void ronic_rx_refill(struct ronic_ring *ring, u16 count)
{
	u16 i = ring->next_to_use;
	union ronic_rx_desc *desc;
	struct ronic_rx_buffer *buf;

	for (; count; count--) {
		buf = &ring->rx_buf[i];
		if (!buf->page) {
			buf->page = page_pool_dev_alloc_frag(ring->pp,
							     &buf->page_offset,
							     RONIC_RX_SLOT_LEN);
			if (unlikely(!buf->page)) {
				u64_stats_update_begin(&ring->syncp);
				u64_stats_inc(&ring->rx_stats.alloc_failed);
				u64_stats_update_end(&ring->syncp);
				break;
			}
		}
		desc = ronic_rx_desc(ring, i);
		desc->read.pkt_addr = cpu_to_le64(ronic_dma_rx_page_addr(buf->page) +
						  buf->page_offset +
						  RONIC_RX_HEADROOM);
		/* also clears the status word of the write-back format */
		desc->read.hdr_addr = 0;
		i = ronic_ring_next(ring, i);
	}

	if (i != ring->next_to_use) {
		ring->next_to_use = i;
		/* writel() orders the descriptor writes before the tail moves. */
		writel(i, ring->tail);
	}
}

/**
 * ronic_rx_fill - give a started ring's every free descriptor a buffer
 * @ring: the rx ring: page_pool slots or its zero-copy pool's buffers
 */
void ronic_rx_fill(struct ronic_ring *ring)
{
	if (ring->xsk_pool)
		ronic_xsk_refill(ring, ronic_desc_unused(ring));
	else
		ronic_rx_refill(ring, ronic_desc_unused(ring));
}

static void ronic_rx_checksum(struct ronic_ring *ring, struct sk_buff *skb,
			      u32 staterr)
{
	skb_checksum_none_assert(skb);
	if (!(ring->netdev->features & NETIF_F_RXCSUM) ||
	    (staterr & RONIC_RXD_STAT_IXSM))
		return;

	if (staterr & (RONIC_RXD_ERR_TCPE | RONIC_RXD_ERR_IPE)) {
		u64_stats_update_begin(&ring->syncp);
		u64_stats_inc(&ring->rx_stats.csum_err);
		u64_stats_update_end(&ring->syncp);
		return;
	}
	if (staterr & (RONIC_RXD_STAT_L4CS | RONIC_RXD_STAT_UDPCS)) {
		skb->ip_summed = CHECKSUM_UNNECESSARY;
		u64_stats_update_begin(&ring->syncp);
		u64_stats_inc(&ring->rx_stats.csum_ok);
		u64_stats_update_end(&ring->syncp);
	}
}

/* RSS types whose hash covers the L4 ports. */
#define RONIC_RSS_L4_TYPES	(BIT(RONIC_RSS_IPV4_TCP) | BIT(RONIC_RSS_IPV6_TCP) | \
				 BIT(RONIC_RSS_IPV6_TCP_EX) | BIT(RONIC_RSS_IPV4_UDP) | \
				 BIT(RONIC_RSS_IPV6_UDP) | BIT(RONIC_RSS_IPV6_UDP_EX))

static void ronic_rx_hash(struct ronic_ring *ring, union ronic_rx_desc *desc,
			  struct sk_buff *skb)
{
	enum ronic_rss_type type = ronic_rx_rss_type(ring->netdev, desc);

	if (type == RONIC_RSS_NONE)
		return;
	skb_set_hash(skb, le32_to_cpu(desc->wb.rss_hash),
		     (BIT(type) & RONIC_RSS_L4_TYPES) ? PKT_HASH_TYPE_L4 :
		     PKT_HASH_TYPE_L3);
}

static struct sk_buff *ronic_rx_build_skb(void *va, u32 offset, u32 len,
					  u32 metasize)
{
	struct sk_buff *skb;

	net_prefetch(va + offset);
	skb = napi_build_skb(va, RONIC_RX_SLOT_LEN);
	if (unlikely(!skb))
		return NULL;
	skb_mark_for_recycle(skb);
	skb_reserve(skb, offset);
	__skb_put(skb, len);
	if (metasize)
		skb_metadata_set(skb, metasize);
	return skb;
}

/*
 * Add one buffer to the frame being assembled; false if it was dropped.
 * @offset is where the data starts in the slot.
 */
static bool ronic_rx_add_buffer(struct ronic_ring *ring,
				const struct ronic_rx_buffer *buf,
				u32 offset, u32 len, u32 metasize)
{
	struct sk_buff *skb = ring->rx_skb;

	if (ring->rx_discard)
		goto drop;
	if (!skb) {
		ring->rx_skb = ronic_rx_build_skb(ronic_rx_slot_va(buf), offset,
						  len, metasize);
		if (!ring->rx_skb)
			goto drop;
		return true;
	}
	if (skb_shinfo(skb)->nr_frags >= MAX_SKB_FRAGS) {
		dev_kfree_skb_any(skb);
		ring->rx_skb = NULL;
		goto drop;
	}
	skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, buf->page,
			buf->page_offset + offset, len, RONIC_RX_SLOT_LEN);
	return true;

drop:
	page_pool_recycle_direct(ring->pp, buf->page);
	ring->rx_discard = true;
	return false;
}

static void ronic_rx_count_drop(struct ronic_ring *ring)
{
	ronic_ring_count(ring, &ring->rx_stats.dropped);
}

/* What one rx poll leaves to do once its loop is over. */
struct ronic_rx_pending {
	struct ronic_ring *xdp_tx;	/* XDP ring whose doorbell is due */
	bool redirect;			/* xdp_do_flush() is due */
};

/* What became of a buffer received under a program. */
enum ronic_rx_fate {
	RONIC_RX_MORE,		/* its frame goes on in the next buffer */
	RONIC_RX_CONSUMED,	/* the program took the frame or dropped it */
	RONIC_RX_REUSE,		/* dropped whole in its one buffer: reuse it */
	RONIC_RX_DROPPED,	/* a bad frame, or one the program cannot take */
	RONIC_RX_SKB,		/* XDP_PASS: an skb to deliver */
};

/*
 * Add a buffer to the frame the program will see: the first as its head,
 * the others as fragments. Return: false if it did not fit.
 */
static bool ronic_rx_xdp_add(struct ronic_ring *ring,
			     const struct ronic_rx_buffer *buf, u32 len)
{
	struct xdp_buff *xdp = &ring->rx_xdp.xdp;
	struct skb_shared_info *sinfo;

	if (!ring->rx_xdp_open) {
		xdp_init_buff(xdp, RONIC_RX_SLOT_LEN, &ring->xdp_rxq);
		xdp_prepare_buff(xdp, ronic_rx_slot_va(buf), RONIC_RX_HEADROOM,
				 len, true);
		ring->rx_xdp_open = true;
		return true;
	}
	sinfo = xdp_get_shared_info_from_buff(xdp);
	if (!xdp_buff_has_frags(xdp)) {
		sinfo->nr_frags = 0;
		sinfo->xdp_frags_size = 0;
		xdp_buff_set_frags_flag(xdp);
	} else if (sinfo->nr_frags == MAX_SKB_FRAGS) {
		return false;
	}
	skb_frag_fill_page_desc(&sinfo->frags[sinfo->nr_frags++], buf->page,
				buf->page_offset + RONIC_RX_HEADROOM, len);
	sinfo->xdp_frags_size += len;
	if (page_is_pfmemalloc(buf->page))
		xdp_buff_set_frag_pfmemalloc(xdp);
	return true;
}

/* An skb of what the program passed: its head, fragments and metadata. */
static struct sk_buff *ronic_rx_xdp_skb(struct xdp_buff *xdp)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);
	u32 nr_frags = 0, frags_size = 0;
	struct sk_buff *skb;

	/* napi_build_skb() clears what the frame's fragment count is in. */
	if (xdp_buff_has_frags(xdp)) {
		nr_frags = sinfo->nr_frags;
		frags_size = sinfo->xdp_frags_size;
	}
	skb = ronic_rx_build_skb(xdp->data_hard_start,
				 xdp->data - xdp->data_hard_start,
				 xdp->data_end - xdp->data,
				 xdp->data - xdp->data_meta);
	if (skb && nr_frags)
		xdp_update_skb_frags_info(skb, nr_frags, frags_size,
					  nr_frags * RONIC_RX_SLOT_LEN,
					  xdp->flags);
	return skb;
}

/*
 * With a program attached, a frame is assembled into ring->rx_xdp and the
 * program runs at its last buffer; a program that has not declared
 * fragments never sees a frame that has them (the MTU keeps them rare).
 * @prog is NULL when the program went away mid-frame: the frame passes.
 * Return: what became of the frame, whose length before the program is
 * in *wire_len at its end; for RONIC_RX_SKB, the skb in *skbp.
 */
static enum ronic_rx_fate ronic_rx_xdp(struct ronic_ring *ring,
				       struct bpf_prog *prog,
				       const struct ronic_rx_buffer *buf,
				       const union ronic_rx_desc *desc,
				       u32 len, u32 staterr,
				       struct ronic_rx_pending *pending,
				       u32 *wire_len, struct sk_buff **skbp)
{
	struct xdp_buff *xdp = &ring->rx_xdp.xdp;
	struct ronic_ring *tx_ring = NULL;

	if (ring->rx_discard || !ronic_rx_xdp_add(ring, buf, len)) {
		/* Dropped to its end: what was assembled goes now. */
		page_pool_recycle_direct(ring->pp, buf->page);
		if (ring->rx_xdp_open)
			ronic_xdp_buff_free(ring->pp, xdp, true);
		ring->rx_xdp_open = false;
		ring->rx_discard = true;
	}
	if (!(staterr & RONIC_RXD_STAT_EOP))
		return RONIC_RX_MORE;
	if (ring->rx_discard) {
		ring->rx_discard = false;
		return RONIC_RX_DROPPED;
	}

	ring->rx_xdp_open = false;
	if ((staterr & RONIC_RXD_ERR_FRAME) ||
	    (prog && xdp_buff_has_frags(xdp) && !prog->aux->xdp_has_frags)) {
		ronic_xdp_buff_free(ring->pp, xdp, true);
		return RONIC_RX_DROPPED;
	}
	*wire_len = xdp_get_buff_len(xdp);
	ring->rx_xdp.desc = desc;
	if (prog) {
		switch (ronic_xdp_run(ring, prog, xdp, &tx_ring)) {
		case RONIC_XDP_PASS:
			break;
		case RONIC_XDP_TX:
			/* One ring per CPU: every XDP_TX of this poll went to it. */
			pending->xdp_tx = tx_ring;
			return RONIC_RX_CONSUMED;
		case RONIC_XDP_REDIRECT:
			pending->redirect = true;
			return RONIC_RX_CONSUMED;
		case RONIC_XDP_DROP:
			/*
			 * A frame in one buffer: that buffer goes back on the
			 * ring as it is, with no trip through the pool.
			 */
			if (!xdp_buff_has_frags(xdp))
				return RONIC_RX_REUSE;
			ronic_xdp_buff_free(ring->pp, xdp, true);
			return RONIC_RX_CONSUMED;
		default:
			return RONIC_RX_CONSUMED;
		}
	}
	*skbp = ronic_rx_xdp_skb(xdp);
	if (unlikely(!*skbp)) {
		ronic_xdp_buff_free(ring->pp, xdp, true);
		return RONIC_RX_DROPPED;
	}
	return RONIC_RX_SKB;
}

/**
 * ronic_rx_deliver - hand a received frame to the stack
 * @ring: the rx ring
 * @desc: its last descriptor: hash, checksum and VLAN results
 * @skb: the frame
 * @staterr: the descriptor's status and errors
 */
void ronic_rx_deliver(struct ronic_ring *ring, union ronic_rx_desc *desc,
		      struct sk_buff *skb, u32 staterr)
{
	u16 tci;

	ronic_rx_hash(ring, desc, skb);
	ronic_rx_checksum(ring, skb, staterr);
	if (ronic_rx_vlan_stripped(ring->netdev, desc, &tci))
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), tci);
	skb_record_rx_queue(skb, ring->queue_index);
	skb->protocol = eth_type_trans(skb, ring->netdev);
	napi_gro_receive(&ring->q_vector->napi, skb);
}

static int ronic_clean_rx(struct ronic_ring *ring, int budget)
{
	struct bpf_prog *prog = READ_ONCE(ring->xdp_prog);
	struct ronic_rx_pending pending = { };
	unsigned int packets = 0, bytes = 0;
	u16 cleaned = ronic_desc_unused(ring);
	union ronic_rx_desc *desc;
	struct ronic_rx_buffer buf;
	struct sk_buff *skb;
	u32 staterr, len;
	u16 slot;

	while (packets < budget) {
		if (cleaned >= RONIC_RX_REFILL_BATCH) {
			ronic_rx_refill(ring, cleaned);
			cleaned = ronic_desc_unused(ring);
		}

		desc = ronic_rx_done_desc(ring, cleaned, &staterr);
		if (!desc)
			break;

		len = le16_to_cpu(desc->wb.length);
		slot = ring->next_to_clean;
		buf = ring->rx_buf[slot];
		ring->rx_buf[slot].page = NULL;
		ring->next_to_clean = ronic_ring_next(ring, slot);
		cleaned++;

		ronic_dma_rx_sync_for_cpu(ring->pp, buf.page,
					  buf.page_offset + RONIC_RX_HEADROOM, len);

		/*
		 * A frame started one way ends that way, whatever happened to
		 * the program in between.
		 */
		if (ring->rx_xdp_open || (prog && !ring->rx_skb)) {
			skb = NULL;
			switch (ronic_rx_xdp(ring, prog, &buf, desc, len,
					     staterr, &pending, &len, &skb)) {
			case RONIC_RX_MORE:
				continue;
			case RONIC_RX_DROPPED:
				ronic_rx_count_drop(ring);
				continue;
			case RONIC_RX_REUSE:
				/* The refill finds the slot's page still there. */
				ronic_dma_rx_reuse(ring->pp, buf.page,
						   buf.page_offset + RONIC_RX_HEADROOM,
						   RONIC_RX_BUF_LEN);
				ring->rx_buf[slot] = buf;
				fallthrough;
			case RONIC_RX_CONSUMED:
				packets++;
				bytes += len;
				continue;
			case RONIC_RX_SKB:
				break;
			}
		} else {
			ronic_rx_add_buffer(ring, &buf, RONIC_RX_HEADROOM, len, 0);
			if (!(staterr & RONIC_RXD_STAT_EOP))
				continue;

			skb = ring->rx_skb;
			ring->rx_skb = NULL;
			if (ring->rx_discard || (staterr & RONIC_RXD_ERR_FRAME)) {
				ring->rx_discard = false;
				if (skb)
					dev_kfree_skb_any(skb);
				ronic_rx_count_drop(ring);
				continue;
			}
		}

		packets++;
		bytes += skb->len;
		ronic_rx_deliver(ring, desc, skb, staterr);
	}

	if (pending.xdp_tx)
		ronic_xdp_ring_doorbell(pending.xdp_tx);
	if (pending.redirect)
		xdp_do_flush();
	if (cleaned)
		ronic_rx_refill(ring, cleaned);

	u64_stats_update_begin(&ring->syncp);
	u64_stats_add(&ring->stats.packets, packets);
	u64_stats_add(&ring->stats.bytes, bytes);
	u64_stats_update_end(&ring->syncp);
	ring->q_vector->itr_packets += packets;
	ring->q_vector->itr_bytes += bytes;
	return packets;
}

/*
 * Adaptive moderation, judged on rates over a window of a few milliseconds
 * rather than on one interrupt's count: a count per interrupt shrinks as
 * interrupts speed up, so a flow once judged sparse would stay sparse. A
 * vector moving more than 20 bytes a microsecond either way (160 Mbit/s) is
 * bulk and waits long; one under 20,000 frames a second is sparse and is
 * not throttled at all; the rest get rx-usecs. tx counts as well as rx, so
 * a TCP sender, whose rx sees only small ACKs, is bulk too.
 *
 * Sparse means request/response traffic, where every microsecond of
 * throttling is latency, while the interrupts it could save are few: a
 * sparse vector raises at most its frame rate of interrupts, and fewer
 * when polls overlap. Any interval, however short, also delays the
 * interrupt of a frame that lands while the previous interval runs; on
 * QEMU's model that wait is a host timer, whose slack made a 10 us
 * interval cost netperf's UDP_RR 2.5 times igb's P99 latency.
 */
#define RONIC_ITR_WINDOW_MS		4
#define RONIC_ITR_SPARSE		0
#define RONIC_ITR_BULK			250
#define RONIC_ITR_BULK_BYTES_PER_US	20
#define RONIC_ITR_SPARSE_PPS		20000

static void ronic_update_itr(struct ronic_q_vector *qv)
{
	unsigned long elapsed = jiffies - qv->itr_window_start;
	struct ronic_adapter *adapter = qv->adapter;
	u32 usecs = adapter->itr_usecs;
	u64 window_us;

	if (elapsed < max(1UL, msecs_to_jiffies(RONIC_ITR_WINDOW_MS)))
		return;
	window_us = jiffies_to_usecs(min_t(unsigned long, elapsed, HZ));
	if (qv->itr_bytes >= RONIC_ITR_BULK_BYTES_PER_US * window_us)
		usecs = RONIC_ITR_BULK;
	else if (qv->itr_packets * USEC_PER_SEC <
		 RONIC_ITR_SPARSE_PPS * window_us)
		usecs = RONIC_ITR_SPARSE;
	qv->itr_window_start = jiffies;
	qv->itr_packets = 0;
	qv->itr_bytes = 0;
	if ((usecs << 2) != qv->itr_val) {
		qv->itr_val = usecs << 2;
		ronic_hw_write_itr(adapter, qv);
	}
}

/**
 * ronic_napi_poll - NAPI poll of one queue vector
 * @napi: the vector's NAPI context
 * @budget: rx frames allowed
 *
 * Return: rx frames processed, or @budget to be polled again.
 */
int ronic_napi_poll(struct napi_struct *napi, int budget)
{
	struct ronic_q_vector *qv = container_of(napi, struct ronic_q_vector, napi);
	struct ronic_adapter *adapter = qv->adapter;
	bool complete = true;
	int work = 0;
	u16 x;

	if (qv->tx_ring)
		complete = ronic_clean_tx(qv->tx_ring, budget);
	for (x = 0; x < qv->num_xdp_rings; x++)
		complete &= ronic_xdp_clean_ring(qv->xdp_ring[x]);
	if (budget <= 0)
		return budget;
	/* Not from netpoll (budget 0): socket frames are no console output. */
	if (qv->tx_ring && qv->tx_ring->xsk_pool)
		complete &= ronic_xsk_xmit(qv->tx_ring);
	if (qv->rx_ring) {
		work = qv->rx_ring->xsk_pool ?
		       ronic_xsk_clean_rx(qv->rx_ring, budget) :
		       ronic_clean_rx(qv->rx_ring, budget);
		if (work >= budget)
			complete = false;
	}
	/*
	 * Judged whether or not the poll completes: a bulk flow can keep a
	 * vector polling for seconds, and its rate must still set the
	 * interval it gets when it next waits for an interrupt.
	 */
	if (adapter->itr_adaptive &&
	    !test_bit(RONIC_STATE_DOWN, &adapter->state))
		ronic_update_itr(qv);
	if (!complete)
		return budget;

	if (napi_complete_done(napi, work) &&
	    !test_bit(RONIC_STATE_DOWN, &adapter->state)) {
		if (adapter->irq_mode == RONIC_IRQ_MSIX)
			ronic_hw_unmask_vector(adapter, qv->eims);
		else
			ronic_hw_irq_enable(adapter);
	}
	return min(work, budget - 1);
}
