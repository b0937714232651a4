/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ronic: the adapter, its queue vectors and rings.
 */
#ifndef _RONIC_H_
#define _RONIC_H_

#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <net/xdp.h>

#include "ronic_dma.h"
#include "ronic_regs.h"
#include "ronic_ro.h"
#include "ronic_txrx.h"

struct xsk_buff_pool;

#define RONIC_DRV_NAME		"ronic"
#ifndef RONIC_DRV_VERSION	/* set by Kbuild from the VERSION file */
#define RONIC_DRV_VERSION	"unknown"
#endif

#define RONIC_MAX_QUEUES	8	/* stack queue pairs */
#define RONIC_NUM_HW_QUEUES	16
#define RONIC_OTHER_VECTOR	0	/* MSI-X vector for link and misc causes */
#define RONIC_DEFAULT_RING	256
#define RONIC_MIN_RING		64
#define RONIC_MAX_RING		4096
#define RONIC_RING_ALIGN	8
#define RONIC_MIN_MTU		ETH_MIN_MTU
#define RONIC_MAX_MTU		9216
#define RONIC_DEFAULT_ITR_USECS	50
#define RONIC_WATCHDOG_INTERVAL	(2 * HZ)

struct ronic_queue_stats {
	u64_stats_t packets;
	u64_stats_t bytes;
};

/* Written by ndo_start_xmit only, under the queue's xmit lock. */
struct ronic_tx_xmit_stats {
	u64_stats_t busy;	/* frame refused for want of descriptors */
	u64_stats_t map_errors;
	u64_stats_t csum_offload;
	u64_stats_t tso;
	u64_stats_t linearized;
	u64_stats_t dropped;	/* frame freed unsent: padding, offload, mapping */
	u64_stats_t dma_weak;	/* mappings made with DMA_ATTR_WEAK_ORDERING */
	u64_stats_t copybreak;	/* frames copied to the bounce slot, unmapped */
	u64_stats_t descs;	/* descriptors written, context ones included */
	u64_stats_t head_copy;	/* linear parts copied to the bounce slot */
};

/* Written by tx completion (NAPI) only. */
struct ronic_tx_ring_stats {
	u64_stats_t restarts;	/* queue woken after being stopped */
	u64_stats_t xsk_sent;	/* AF_XDP frames sent from socket memory */
};

struct ronic_rx_ring_stats {
	u64_stats_t alloc_failed;
	u64_stats_t csum_err;
	u64_stats_t csum_ok;
	u64_stats_t dropped;
	u64_stats_t xdp_pass;
	u64_stats_t xdp_drop;
	u64_stats_t xdp_tx;
	u64_stats_t xdp_redirect;
	u64_stats_t xdp_aborted;
	u64_stats_t xdp_tx_errors;	/* XDP_TX or redirect that failed */
	u64_stats_t xsk_received;	/* frames received into socket memory */
};

/* XDP tx rings, written under the ring's xdp_lock when rings are shared. */
struct ronic_xdp_ring_stats {
	u64_stats_t xdp_xmit;		/* frames queued by ndo_xdp_xmit */
	u64_stats_t xdp_tx_errors;	/* frames refused: ring full, map error */
	u64_stats_t xdp_locked;		/* frames queued with the ring's lock held */
};

enum ronic_tx_buf_type {
	RONIC_TX_BUF_SKB,
	RONIC_TX_BUF_XDP_TX,		/* an rx page sent back, pool-mapped */
	RONIC_TX_BUF_XDP_XMIT,		/* a redirected frame, mapped here */
	RONIC_TX_BUF_XSK,		/* AF_XDP zero-copy: socket memory */
};

/* Software state of one tx descriptor slot. */
struct ronic_tx_buffer {
	union {				/* set on a frame's first slot */
		struct sk_buff *skb;
		struct xdp_frame *xdpf;
	};
	u8 type;			/* enum ronic_tx_buf_type */
	/* the frame's last descriptor; published last, cleared when done */
	struct ronic_tx_desc *eop_desc;
	struct ronic_dma_map map;	/* set on every slot that maps data */
	u32 bytes;			/* wire bytes of the frame (BQL) */
	u16 segs;			/* wire frames it becomes (TSO) */
};

/*
 * An rx slot: a fragment of a pool page, RONIC_RX_SLOT_LEN bytes. A ring
 * on an AF_XDP zero-copy pool keeps its buffers in rx_xsk instead.
 */
struct ronic_rx_buffer {
	struct page *page;
	u32 page_offset;		/* where the slot starts in the page */
};

/* The kernel address of an rx buffer's slot (pool pages are lowmem). */
static inline void *ronic_rx_slot_va(const struct ronic_rx_buffer *buf)
{
	return page_address(buf->page) + buf->page_offset;
}

struct ronic_ring {
	struct ronic_q_vector *q_vector;
	struct net_device *netdev;
	struct ronic_dma *dma;
	void __iomem *tail;

	void *desc;			/* descriptor memory */
	dma_addr_t desc_dma;
	u32 desc_bytes;
	/* tx: coherent copybreak buffers, one slot per descriptor */
	void *bounce;
	dma_addr_t bounce_dma;
	/*
	 * Scatterlists of mapped frames (stack tx rings): a frame's list
	 * starts at the slot of its first mapped descriptor and has no more
	 * entries than the frame has descriptors from there, so frames in
	 * flight never share entries. MAX_SKB_FRAGS + 1 spare at the end
	 * let a list run past the last slot instead of wrapping.
	 */
	struct scatterlist *tx_sg;
	u16 count;			/* descriptors */
	u16 queue_index;		/* netdev queue */
	u8 reg_idx;			/* hardware queue */

	u16 next_to_use;
	u16 next_to_clean;

	union {
		struct ronic_tx_buffer *tx_buf;
		struct ronic_rx_buffer *rx_buf;
	};
	/*
	 * AF_XDP zero-copy (ronic_xsk.c): the socket's pool this queue pair
	 * receives into and sends from, or NULL.
	 */
	struct xsk_buff_pool *xsk_pool;
	struct xdp_buff **rx_xsk;	/* rx: a pool buffer per descriptor */

	bool is_xdp;			/* an XDP tx ring: no netdev queue */
	/* debugfs tx_hang_queue: skip tail writes until the next reset */
	bool tail_frozen;
	/* jiffies of the last tx completion reaped (devlink's tx dump) */
	unsigned long last_completion;
	/* taken only while CPUs share XDP rings (ronic_xdp_lock_key) */
	spinlock_t xdp_lock;

	/* rx only */
	u16 rx_buf_len;			/* bytes the device may write per buffer */
	struct bpf_prog *xdp_prog;	/* copy of the adapter's, for the poll */
	struct page_pool *pp;
	struct sk_buff *rx_skb;		/* frame spanning several buffers */
	bool rx_discard;		/* dropping a frame until its EOP */
	/*
	 * A frame being assembled for the program: its first buffer the
	 * head, the others its fragments (multi-buffer XDP).
	 */
	bool rx_xdp_open;
	struct ronic_xdp_buff rx_xdp;
	struct xdp_rxq_info xdp_rxq;

	/* completion side: tx clean or rx poll */
	struct u64_stats_sync syncp;
	struct ronic_queue_stats stats;
	union {
		struct ronic_tx_ring_stats tx_stats;
		struct ronic_rx_ring_stats rx_stats;
	};
	/* submission side: ndo_start_xmit, or ndo_xdp_xmit and XDP_TX */
	struct u64_stats_sync xmit_syncp;
	union {
		struct ronic_tx_xmit_stats xmit_stats;
		struct ronic_xdp_ring_stats xdp_stats;
	};
} ____cacheline_internodealigned_in_smp;

struct ronic_q_vector {
	struct ronic_adapter *adapter;
	struct napi_struct napi;
	struct ronic_ring *tx_ring;
	struct ronic_ring *rx_ring;
	struct ronic_ring *xdp_ring[RONIC_NUM_HW_QUEUES];
	u16 num_xdp_rings;
	u32 eims;			/* this vector's EIMS/EIMC bit */
	u16 v_idx;			/* index in adapter->q_vector[] */
	u16 msix_vector;		/* device vector (EITR, IVAR) */
	u32 itr_val;			/* EITR value */
	/* adaptive moderation: rx and tx traffic since itr_window_start */
	unsigned long itr_window_start;	/* jiffies */
	u64 itr_packets;
	u64 itr_bytes;
	char name[IFNAMSIZ + 16];
};

/* Hardware MAC counters, accumulated: the device clears them on read. */
struct ronic_hw_stats {
	u64 crcerrs;
	u64 algnerrc;
	u64 rxerrc;
	u64 mpc;
	u64 colc;
	u64 rlec;
	u64 xonrxc;
	u64 xontxc;
	u64 xoffrxc;
	u64 xofftxc;
	u64 gprc;
	u64 bprc;
	u64 mprc;
	u64 gptc;
	u64 gorc;
	u64 gotc;
	u64 rnbc;
	u64 ruc;
	u64 rfc;
	u64 roc;
	u64 rjc;
	u64 tor;
	u64 tot;
	u64 tpr;
	u64 tpt;
	u64 mptc;
	u64 bptc;
	u64 prc[6];		/* 64, 65-127, ..., 1024-1522 bytes */
	u64 ptc[6];
};

/* XDP counters of the whole port: its rx rings' verdicts, its XDP rings. */
struct ronic_xdp_totals {
	u64 pass;
	u64 drop;
	u64 tx;			/* XDP_TX verdicts queued */
	u64 redirect;
	u64 aborted;
	u64 tx_errors;		/* XDP_TX or redirect that failed */
	u64 xmit;		/* frames queued by ndo_xdp_xmit */
	u64 xmit_errors;	/* frames ndo_xdp_xmit refused */
	u64 sent;		/* frames the XDP rings completed */
	u64 sent_bytes;
};

/* Counters of rings already released, so totals never go backwards. */
struct ronic_base_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 rx_dropped;
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_dropped;
	/* for the qstats */
	u64 rx_alloc_fail;
	u64 rx_csum_bad;
	u64 rx_csum_unnecessary;
	u64 tx_hw_gso_packets;
	u64 tx_wake;
	struct ronic_xdp_totals xdp;
};

enum ronic_state_bits {
	RONIC_STATE_DOWN,
	RONIC_STATE_RESETTING,
	RONIC_STATE_REMOVING,
	RONIC_STATE_DETACHED,	/* open, but stopped by a recovery or sleep */
	RONIC_STATE_TX_HANG,	/* a tx timeout for the reset task to report */
};

enum ronic_irq_mode {
	RONIC_IRQ_MSIX,
	RONIC_IRQ_MSI,
	RONIC_IRQ_INTX,
};

struct ronic_adapter {
	struct net_device *netdev;
	struct pci_dev *pdev;
	u8 __iomem *hw_addr;
	struct ronic_dma dma;

	unsigned long state;
	enum ronic_irq_mode irq_mode;
	u16 num_vectors;		/* allocated interrupt vectors */
	u16 num_q_vectors;		/* allocated: one per possible queue pair */
	u16 num_queues;			/* active queue pairs, and their vectors */
	u16 max_queues;			/* what the vectors allow */
	u16 xps_default_queues;		/* tx queues whose XPS map is set */
	bool irq_affinity_defaulted;	/* default IRQ affinity applied once */
	u16 tx_ring_count;
	u16 rx_ring_count;
	u32 tx_copybreak;		/* frames up to this size are copied */
	u32 itr_usecs;
	bool itr_adaptive;
	u32 wol;			/* WAKE_* of ethtool -s wol */
	/* queues whose AF_XDP pool is bound in zero-copy mode (ronic_xsk.c) */
	DECLARE_BITMAP(xsk_zc_queues, RONIC_MAX_QUEUES);
	unsigned long xsk_attrs[RONIC_MAX_QUEUES];	/* each pool's mapping */
	/* VLAN ids the stack added: the VFTA's contents, rewritten on reset */
	DECLARE_BITMAP(active_vlans, VLAN_N_VID);

	struct ronic_q_vector *q_vector[RONIC_MAX_QUEUES];
	struct ronic_ring *tx_ring[RONIC_MAX_QUEUES];
	struct ronic_ring *rx_ring[RONIC_MAX_QUEUES];

	/* XDP: program, and tx rings on the hardware queues after the stack's */
	struct bpf_prog *xdp_prog;
	struct ronic_ring *xdp_ring[RONIC_NUM_HW_QUEUES];
	u16 num_xdp_rings;
	bool xdp_lock_key_held;		/* this adapter holds one key reference */
	/*
	 * Test aid (debugfs xdp_rings_cap): at most this many XDP rings from
	 * the next ring rebuild on, so CPUs share them; 0 for one per CPU.
	 */
	u16 xdp_rings_cap;

	/* RSS as programmed: what ethtool -x shows and -X changes */
	u32 rss_key[10];
	u8 rss_reta[128];
	bool rss_udp4;			/* hash UDP/IPv4 on ports too */
	bool rss_udp6;

	bool rx_pause;
	bool tx_pause;
	bool loopback;			/* ethtool -K loopback: PHY loopback */
	bool autoneg;
	u32 advertising;		/* BIT(ETHTOOL_LINK_MODE_*) to advertise */
	u16 forced_speed;		/* SPEED_* while autoneg is off */
	u8 forced_duplex;

	struct ronic_ro_state ro;
	struct dentry *debugfs_dir;	/* ronic/<pci-bdf>, or NULL */
	struct devlink *devlink;	/* see ronic_devlink.c */
	struct devlink_health_reporter *tx_reporter;	/* "tx", or NULL */
	u16 tx_hang_queue;		/* the queue of the last tx timeout */
	char nvm_version[16];		/* EEPROM image, "" if unreadable */
	/* what was written to DCA_RXCTRL: QEMU's model reads it back as 0 */
	u32 dca_rxctrl_shadow[RONIC_NUM_HW_QUEUES];
	/*
	 * Every RCTL read-modify-write: ndo_set_rx_mode runs under the
	 * address lock only (maybe in BH), the other writers under rtnl.
	 */
	spinlock_t rctl_lock;
	u32 ledctl_saved;		/* LEDCTL while ethtool -p drives the LEDs */

	u32 eims_other;
	u32 eims_queues;
	/* calls of the other-causes (or single) vector's handler: ethtool -t */
	atomic_t other_irqs;
	bool link_up;
	u16 link_speed;
	bool link_full_duplex;

	struct delayed_work watchdog;
	struct work_struct reset_task;

	spinlock_t stats_lock;		/* hw_stats accumulation */
	struct ronic_hw_stats hw_stats;
	u64 tx_timeouts;
	u64 resets;
	u64 queue_stop_timeouts;	/* downs where a queue did not disable */
	struct ronic_base_stats base;	/* under stats_lock */

	char other_name[IFNAMSIZ + 16];
};

/* Count one event of a ring's completion side (rx poll or tx clean). */
static inline void ronic_ring_count(struct ronic_ring *ring, u64_stats_t *counter)
{
	u64_stats_update_begin(&ring->syncp);
	u64_stats_inc(counter);
	u64_stats_update_end(&ring->syncp);
}

static inline u16 ronic_desc_unused(const struct ronic_ring *ring)
{
	u16 ntc = ring->next_to_clean, ntu = ring->next_to_use;

	return ((ntc > ntu) ? 0 : ring->count) + ntc - ntu - 1;
}

static inline u16 ronic_ring_next(const struct ronic_ring *ring, u16 i)
{
	return ++i == ring->count ? 0 : i;
}

/* Bytes of a tx ring's copybreak buffers: a slot per descriptor. */
static inline size_t ronic_tx_bounce_bytes(const struct ronic_ring *ring)
{
	return (size_t)ring->count * RONIC_TX_COPYBREAK_MAX;
}

/* Entries of a stack tx ring's scatterlist array. */
static inline unsigned int ronic_tx_sg_entries(const struct ronic_ring *ring)
{
	return ring->count + MAX_SKB_FRAGS + 1;
}

static inline struct ronic_tx_desc *ronic_tx_desc(struct ronic_ring *ring,
						  u16 i)
{
	return &((struct ronic_tx_desc *)ring->desc)[i];
}

static inline union ronic_rx_desc *ronic_rx_desc(struct ronic_ring *ring,
						 u16 i)
{
	return &((union ronic_rx_desc *)ring->desc)[i];
}

/*
 * The descriptor at next_to_clean if the device has written it back, its
 * status in *staterr; else NULL. @cleaned is how many descriptors the poll
 * holds back from the device: with every one of them back and none
 * refilled (the buffers ran out), the next still shows its last
 * write-back, done bit and all. Shared by both rx polls.
 */
static inline union ronic_rx_desc *ronic_rx_done_desc(struct ronic_ring *ring,
						      u16 cleaned, u32 *staterr)
{
	union ronic_rx_desc *desc;

	if (unlikely(cleaned >= ring->count - 1))
		return NULL;
	desc = ronic_rx_desc(ring, ring->next_to_clean);
	*staterr = le32_to_cpu(desc->wb.status_error);
	if (!(*staterr & RONIC_RXD_STAT_DD))
		return NULL;
	/* status before the rest of the descriptor and the data */
	dma_rmb();
	return desc;
}

/*
 * The last descriptor of the packet starting at slot i once the device has
 * written it back (its slot forgotten: the caller reaps it), else NULL.
 * Shared by the stack's and the XDP tx rings.
 */
static inline struct ronic_tx_desc *ronic_tx_reap_eop(struct ronic_ring *ring,
						      u16 i)
{
	struct ronic_tx_buffer *head = &ring->tx_buf[i];
	struct ronic_tx_desc *eop = READ_ONCE(head->eop_desc);

	if (!eop)
		return NULL;
	/* eop_desc before the status it points at */
	smp_rmb();
	if (!(eop->olinfo_status & cpu_to_le32(RONIC_TXD_STAT_DD)))
		return NULL;
	head->eop_desc = NULL;
	return eop;
}

/*
 * A complete set of rings for one configuration. A new set is built in
 * full before the running one is taken down, so a failed allocation
 * leaves the device as it was.
 */
struct ronic_ring_set {
	struct ronic_ring *tx[RONIC_MAX_QUEUES];
	struct ronic_ring *rx[RONIC_MAX_QUEUES];
	struct ronic_ring *xdp[RONIC_NUM_HW_QUEUES];
	u16 num_queues;
	u16 num_xdp;
	u16 tx_count;
	u16 rx_count;
};

/*
 * The port's rings and interrupts exist: it is open and not stopped under
 * the stack by an error recovery, a function reset or system sleep.
 */
static inline bool ronic_port_open(const struct ronic_adapter *adapter)
{
	return netif_running(adapter->netdev) &&
	       !test_bit(RONIC_STATE_DETACHED, &adapter->state);
}

/* ronic_main.c */
int ronic_open(struct net_device *netdev);
int ronic_stop(struct net_device *netdev);
void ronic_schedule_reset(struct ronic_adapter *adapter);
void ronic_set_default_reta(struct ronic_adapter *adapter);
int ronic_reconfigure(struct ronic_adapter *adapter, u16 tx_count,
		      u16 rx_count, u16 queues);
int ronic_run_quiesced(struct ronic_adapter *adapter,
		       int (*fn)(struct ronic_adapter *adapter, void *arg),
		       void *arg);

/* ronic_ring.c */
int ronic_ring_alloc_tx(struct ronic_ring *ring);
void ronic_ring_free_tx(struct ronic_ring *ring);
void ronic_ring_clean_tx(struct ronic_ring *ring);
void ronic_ring_clean_rx(struct ronic_ring *ring);
struct ronic_ring *ronic_ring_create_rx(struct ronic_adapter *adapter, u16 q,
					u16 count);
void ronic_ring_destroy_rx(struct ronic_ring *ring);
int ronic_rings_create(struct ronic_adapter *adapter, u16 queues,
		       u16 tx_count, u16 rx_count, struct ronic_ring_set *set);
void ronic_rings_destroy(struct ronic_ring_set *set);
void ronic_rings_install(struct ronic_adapter *adapter,
			 struct ronic_ring_set *set);
void ronic_rings_uninstall(struct ronic_adapter *adapter,
			   struct ronic_ring_set *set);

/* ronic_ethtool.c */
extern const struct ethtool_ops ronic_ethtool_ops;

/* ronic_recover.c */
extern const struct pci_error_handlers ronic_err_handlers;
extern const struct dev_pm_ops ronic_pm_ops;
void ronic_detach(struct ronic_adapter *adapter);
void ronic_arm_wake(struct ronic_adapter *adapter);

#endif /* _RONIC_H_ */
