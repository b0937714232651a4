/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Descriptor formats and the hot-path entry points shared by the files
 * that move frames: xmit, tx clean, rx poll.
 */
#ifndef _RONIC_TXRX_H_
#define _RONIC_TXRX_H_

#include <linux/bpf.h>
#include <linux/jump_label.h>
#include <linux/netdevice.h>
#include <net/xdp.h>

#include "ronic_dma.h"
#include "ronic_regs.h"

/* Advanced transmit data descriptor, as written by the driver */
struct ronic_tx_desc {
	__le64 addr;
	__le32 cmd_type_len;
	__le32 olinfo_status;
};

/* Advanced transmit context descriptor (checksum and TSO parameters) */
struct ronic_tx_ctx_desc {
	__le32 vlan_macip_lens;
	__le32 seqnum_seed;
	__le32 type_tucmd_mlhl;
	__le32 mss_l4len_idx;
};

/* Advanced receive descriptor: read format, then write-back format */
union ronic_rx_desc {
	struct {
		__le64 pkt_addr;
		__le64 hdr_addr;
	} read;
	struct {
		__le16 pkt_info;
		__le16 hdr_info;
		__le32 rss_hash;
		__le32 status_error;
		__le16 length;
		__le16 vlan;
	} wb;
};

/* The hash an rx descriptor carries: pkt_info's low nibble (RSS type). */
enum ronic_rss_type {
	RONIC_RSS_NONE,
	RONIC_RSS_IPV4_TCP,
	RONIC_RSS_IPV4,
	RONIC_RSS_IPV6_TCP,
	RONIC_RSS_IPV6_EX,
	RONIC_RSS_IPV6,
	RONIC_RSS_IPV6_TCP_EX,
	RONIC_RSS_IPV4_UDP,
	RONIC_RSS_IPV6_UDP,
	RONIC_RSS_IPV6_UDP_EX,
	RONIC_RSS_TYPES
};

/*
 * A received frame under a program: the xdp_buff its context points at,
 * first, and the descriptor the rx metadata kfuncs read.
 */
struct ronic_xdp_buff {
	struct xdp_buff xdp;
	const union ronic_rx_desc *desc;	/* the frame's last descriptor */
};

/* The frame's RSS hash type; RONIC_RSS_NONE when it has no hash for us. */
static inline enum ronic_rss_type ronic_rx_rss_type(const struct net_device *dev,
						    const union ronic_rx_desc *desc)
{
	u16 type = le16_to_cpu(desc->wb.pkt_info) & RONIC_RXD_RSSTYPE_MASK;

	if (!(dev->features & NETIF_F_RXHASH) || type >= RONIC_RSS_TYPES)
		return RONIC_RSS_NONE;
	return type;
}

/* Whether the device took an 802.1Q tag off (CTRL.VME): its TCI in @tci. */
static inline bool ronic_rx_vlan_stripped(const struct net_device *dev,
					  const union ronic_rx_desc *desc,
					  u16 *tci)
{
	if (!(le32_to_cpu(desc->wb.status_error) & RONIC_RXD_STAT_VP) ||
	    !(dev->features & NETIF_F_HW_VLAN_CTAG_RX))
		return false;
	*tci = le16_to_cpu(desc->wb.vlan);
	return true;
}

/* Room in front of every rx frame, enough for an XDP program to grow. */
#define RONIC_RX_HEADROOM	XDP_PACKET_HEADROOM
/* What the device may write into one rx buffer (SRRCTL, 1 KB units). */
#define RONIC_RX_BUF_LEN	2048
/*
 * One rx buffer's share of a pool page: headroom, the device's 2 KB and
 * the skb_shared_info that build_skb puts behind them, in whole cache
 * lines so no two buffers share one. Three fit an order-1 page of 4 KB
 * pages (truesize 2624 instead of a page each); larger pages take more.
 */
#define RONIC_RX_SLOT_LEN	(SKB_DATA_ALIGN(RONIC_RX_HEADROOM + RONIC_RX_BUF_LEN) + \
				 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
#define RONIC_RX_PAGE_ORDER	(PAGE_SIZE < 3 * RONIC_RX_SLOT_LEN ? 1 : 0)
/* Largest chunk one tx data descriptor carries. */
#define RONIC_TX_MAX_DATA	SZ_32K
/* tx copybreak: default, and the bounce slot each descriptor has */
#define RONIC_TX_COPYBREAK_DEFAULT	256
#define RONIC_TX_COPYBREAK_MAX		256
/*
 * The most descriptors a frame sent unlinearized takes: its context
 * descriptor, one per part (the linear part and MAX_SKB_FRAGS fragments)
 * and one more. A part takes a descriptor per 32 KB started, and a frame
 * under 64 KB (the stack segments anything longer, as ronic keeps the
 * legacy TSO limit) has room for only one 32 KB chunk beyond the first
 * of each part. A frame needing more is linearized (ronic_xmit_frame()).
 */
#define RONIC_TX_DESC_MAX	(MAX_SKB_FRAGS + 3)

struct ronic_ring;
struct ronic_q_vector;

/* On once a test has frozen a tx tail (debugfs tx_hang_queue). */
DECLARE_STATIC_KEY_FALSE(ronic_tx_hang_key);
void ronic_tx_hang_arm(void);

/* Frame errors that make a received frame worthless. */
#define RONIC_RXD_ERR_FRAME	(BIT(24) | BIT(25) | BIT(26) | BIT(28) | \
				 RONIC_RXD_ERR_RXE)
/* Rx buffers are given back to the device in batches of at least this. */
#define RONIC_RX_REFILL_BATCH	16

netdev_tx_t ronic_xmit_frame(struct sk_buff *skb, struct net_device *netdev);
/* ronic_xdp.c: a data descriptor without offloads (XDP and AF_XDP frames) */
void ronic_xdp_write_part(struct ronic_ring *ring, u16 i, dma_addr_t addr,
			  u32 len, u32 frame_len, bool last);
void ronic_tx_doorbell(struct ronic_ring *ring);
int ronic_napi_poll(struct napi_struct *napi, int budget);
void ronic_rx_refill(struct ronic_ring *ring, u16 count);
void ronic_rx_fill(struct ronic_ring *ring);
void ronic_rx_deliver(struct ronic_ring *ring, union ronic_rx_desc *desc,
		      struct sk_buff *skb, u32 staterr);

#endif /* _RONIC_TXRX_H_ */
