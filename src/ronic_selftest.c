// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: ethtool -t. Online, only the link is looked at. Offline, the
 * port is taken from the stack (ronic_run_quiesced) while the registers,
 * the EEPROM checksum, an interrupt raised by software and frames sent to
 * the port itself through PHY loopback are checked; the device is reset,
 * set up again and given back to the stack afterwards.
 *
 * Result codes, one per test (0 passed):
 *   register   the offset of the first register that did not keep a value
 *   EEPROM     1 words 0x00-0x3F do not sum to 0xBABA, 2 EERD did not answer
 *   interrupt  1 taken while masked, 2 not taken
 *   loopback   1 a frame did not come back, 2 one came back with another
 *              length or an error bit, 3 with other bytes, 4 the transmit
 *              descriptors were not written back, 5 the PHY refused the
 *              loopback setting
 *   link       1 no link (STATUS.LU) within RONIC_ST_LINK_WAIT_MS
 * and RONIC_SELFTEST_NOT_RUN for a test that did not run.
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/iopoll.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/mii.h>

#include "ronic.h"
#include "ronic_hw.h"
#include "ronic_irq.h"
#include "ronic_selftest.h"

enum ronic_st_index {
	RONIC_ST_REG,
	RONIC_ST_EEPROM,
	RONIC_ST_IRQ,
	RONIC_ST_LOOPBACK,
	RONIC_ST_LINK,
	RONIC_ST_COUNT,
};

/* The names igb gives the same five tests, so that scripts read both. */
static const char ronic_st_names[RONIC_ST_COUNT][ETH_GSTRING_LEN] = {
	[RONIC_ST_REG]		= "Register test  (offline)",
	[RONIC_ST_EEPROM]	= "Eeprom test    (offline)",
	[RONIC_ST_IRQ]		= "Interrupt test (offline)",
	[RONIC_ST_LOOPBACK]	= "Loopback test  (offline)",
	[RONIC_ST_LINK]		= "Link test   (on/offline)",
};

/* A link still autonegotiating (after a reset, say) gets this long. */
#define RONIC_ST_LINK_WAIT_MS	5000

/* ------------------------------------------------------------ registers */

/*
 * Registers that the 82576 and QEMU's model both keep as plain storage,
 * each with the bits both keep: QEMU stores RDBAL/TDBAL without bits 3:0
 * and RDLEN/TDLEN as bits 19:4, where the 82576 needs 128-byte aligned
 * bases and lengths, so neither sees bits 6:0 here; the flow-control
 * registers and RDT hold 16 bits. The queue is the last one, which a
 * quiesced port does not use; none of these is written by the rx-mode
 * path, which may run beside the test (it holds only the address lock),
 * and the reset afterwards puts them all back.
 */
#define RONIC_ST_REG_QUEUE	(RONIC_NUM_HW_QUEUES - 1)

struct ronic_st_reg {
	u32 reg;
	u32 mask;
};

static const struct ronic_st_reg ronic_st_regs[] = {
	{ RONIC_FCAL, 0xFFFFFFFF },
	{ RONIC_FCAH, 0x0000FFFF },
	{ RONIC_FCT, 0x0000FFFF },
	{ RONIC_FCTTV, 0x0000FFFF },
	{ RONIC_RDBAL(RONIC_ST_REG_QUEUE), 0xFFFFFF80 },
	{ RONIC_RDBAH(RONIC_ST_REG_QUEUE), 0xFFFFFFFF },
	{ RONIC_RDLEN(RONIC_ST_REG_QUEUE), 0x000FFF80 },
	{ RONIC_RDT(RONIC_ST_REG_QUEUE), 0x0000FFFF },
	{ RONIC_TDBAL(RONIC_ST_REG_QUEUE), 0xFFFFFF80 },
	{ RONIC_TDBAH(RONIC_ST_REG_QUEUE), 0xFFFFFFFF },
	{ RONIC_TDLEN(RONIC_ST_REG_QUEUE), 0x000FFF80 },
};

/* Every bit set, every bit clear, and neighbours unlike each other. */
static const u32 ronic_st_patterns[] = {
	0xFFFFFFFF, 0x00000000, 0x5A5A5A5A, 0xA5A5A5A5,
};

static bool ronic_st_reg_keeps(struct ronic_adapter *adapter,
			       const struct ronic_st_reg *t, u32 val)
{
	u32 got;

	ronic_wr32(adapter, t->reg, val & t->mask);
	got = ronic_rd32(adapter, t->reg);
	if ((got & t->mask) == (val & t->mask))
		return true;
	netdev_err(adapter->netdev, "self-test: register %#07x wrote %#010x, read %#010x (mask %#010x)\n",
		   t->reg, val & t->mask, got, t->mask);
	return false;
}

static u64 ronic_st_registers(struct ronic_adapter *adapter)
{
	const struct ronic_st_reg *t;
	unsigned int i, p, b;
	bool ok;
	u32 old;

	for (i = 0; i < ARRAY_SIZE(ronic_st_regs); i++) {
		t = &ronic_st_regs[i];
		old = ronic_rd32(adapter, t->reg);
		ok = true;
		for (p = 0; ok && p < ARRAY_SIZE(ronic_st_patterns); p++)
			ok = ronic_st_reg_keeps(adapter, t, ronic_st_patterns[p]);
		/* A walking one finds two bits wired together. */
		for (b = 0; ok && b < 32; b++)
			if (t->mask & BIT(b))
				ok = ronic_st_reg_keeps(adapter, t, BIT(b));
		ronic_wr32(adapter, t->reg, old);
		if (!ok)
			return t->reg;
	}
	return 0;
}

/* ------------------------------------------------------------ EEPROM */

static u64 ronic_st_eeprom(struct ronic_adapter *adapter)
{
	u16 word, sum = 0;
	unsigned int i;

	for (i = 0; i < RONIC_EEPROM_CHECKSUM_WORDS; i++) {
		if (ronic_hw_read_eeprom(adapter, i, &word)) {
			netdev_err(adapter->netdev, "self-test: EEPROM word %#x not read\n",
				   i);
			return 2;
		}
		sum += word;
	}
	if (sum != RONIC_EEPROM_SUM) {
		netdev_err(adapter->netdev, "self-test: EEPROM words 0x00-0x%x sum to %#06x, not %#06x\n",
			   RONIC_EEPROM_CHECKSUM_WORDS - 1, sum, RONIC_EEPROM_SUM);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ interrupt */

/* How long a raised interrupt may take, and how long a masked one is given. */
#define RONIC_ST_IRQ_WAIT_MS	200
#define RONIC_ST_IRQ_QUIET_MS	20

/*
 * The cause raised by software: in MSI-X mode the other-causes vector's
 * EICR bit (EICS), else LSC (ICS), which the single vector's handler
 * takes as its own. The handlers act on neither while the port is down,
 * which it is for them during the test.
 */
static bool ronic_st_msix(const struct ronic_adapter *adapter)
{
	return adapter->irq_mode == RONIC_IRQ_MSIX;
}

/* Mask everything and clear what is pending; then unmask the test cause. */
static void ronic_st_irq_arm(struct ronic_adapter *adapter, bool unmask)
{
	ronic_wr32(adapter, RONIC_EIMC, ~0u);
	ronic_wr32(adapter, RONIC_IMC, ~0u);
	ronic_wr32(adapter, RONIC_EICR, ~0u);
	ronic_hw_read_clear_causes(adapter);
	if (unmask) {
		if (ronic_st_msix(adapter))
			ronic_wr32(adapter, RONIC_EIMS, BIT(RONIC_OTHER_VECTOR));
		else
			ronic_wr32(adapter, RONIC_IMS, RONIC_ICR_LSC);
	}
	ronic_flush(adapter);
}

static void ronic_st_irq_raise(struct ronic_adapter *adapter)
{
	if (ronic_st_msix(adapter))
		ronic_wr32(adapter, RONIC_EICS, BIT(RONIC_OTHER_VECTOR));
	else
		ronic_wr32(adapter, RONIC_ICS, RONIC_ICR_LSC);
	ronic_flush(adapter);
}

/* Has the handler run since it had counted @before, within @ms? */
static bool ronic_st_irq_taken(struct ronic_adapter *adapter, int before,
			       unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	do {
		if (atomic_read(&adapter->other_irqs) != before)
			return true;
		usleep_range(500, 1000);
	} while (time_before(jiffies, end));
	return atomic_read(&adapter->other_irqs) != before;
}

static u64 ronic_st_interrupt(struct ronic_adapter *adapter)
{
	/* A port that is down has no handlers: install the driver's own. */
	bool own = !ronic_port_open(adapter);
	u64 result = 0;
	int before;

	if (own && ronic_irq_request(adapter)) {
		netdev_err(adapter->netdev, "self-test: interrupt handlers not installed, interrupt test not run\n");
		return RONIC_SELFTEST_NOT_RUN;
	}
	/* The reset before the test cleared the routing of EICR to vectors. */
	if (ronic_st_msix(adapter))
		ronic_wr32(adapter, RONIC_GPIE, RONIC_GPIE_MSIX_MODE |
			   RONIC_GPIE_PBA | RONIC_GPIE_NSICR);

	ronic_st_irq_arm(adapter, false);
	before = atomic_read(&adapter->other_irqs);
	ronic_st_irq_raise(adapter);
	if (ronic_st_irq_taken(adapter, before, RONIC_ST_IRQ_QUIET_MS)) {
		netdev_err(adapter->netdev, "self-test: interrupt taken while masked\n");
		result = 1;
		goto out;
	}

	ronic_st_irq_arm(adapter, true);
	before = atomic_read(&adapter->other_irqs);
	ronic_st_irq_raise(adapter);
	if (!ronic_st_irq_taken(adapter, before, RONIC_ST_IRQ_WAIT_MS)) {
		netdev_err(adapter->netdev, "self-test: no interrupt within %u ms of raising it\n",
			   RONIC_ST_IRQ_WAIT_MS);
		result = 2;
	}
out:
	ronic_hw_irq_disable(adapter);
	ronic_irq_sync(adapter);
	if (own)
		ronic_irq_free(adapter);
	return result;
}

/* ------------------------------------------------------------ loopback */

#define RONIC_LB_QUEUE		0
#define RONIC_LB_FRAMES		16
/* More than the frames: a ring whose tail met its head would look empty. */
#define RONIC_LB_TX_DESCS	32
/* Spare slots: a frame from the wire that got past the filter waits there. */
#define RONIC_LB_RX_DESCS	32
#define RONIC_LB_BUF_LEN	2048	/* a whole frame; SRRCTL in 1 KB units */
#define RONIC_LB_ETHERTYPE	0x88B5	/* IEEE 802 local experimental */
#define RONIC_LB_LINK_WAIT_MS	2000
#define RONIC_LB_WAIT_MS	500
#define RONIC_LB_DESC_BYTES	(RONIC_LB_RX_DESCS * sizeof(union ronic_rx_desc) + \
				 RONIC_LB_TX_DESCS * sizeof(struct ronic_tx_desc))

static_assert(RONIC_LB_FRAMES < RONIC_LB_TX_DESCS);
/* RDLEN and TDLEN are multiples of 128 bytes; the tx ring follows rx's. */
static_assert(RONIC_LB_RX_DESCS * sizeof(union ronic_rx_desc) % 128 == 0);
static_assert(RONIC_LB_TX_DESCS * sizeof(struct ronic_tx_desc) % 128 == 0);

enum {
	RONIC_LB_MISSING = 1,
	RONIC_LB_LENGTH,
	RONIC_LB_DATA,
	RONIC_LB_TX_DONE,
	RONIC_LB_PHY,
};

/* Test memory, coherent: the CPU and the device see each other's writes. */
struct ronic_lb {
	union ronic_rx_desc *rx_desc;	/* then the tx descriptors */
	struct ronic_tx_desc *tx_desc;
	dma_addr_t desc_dma;
	u8 *rx_buf;
	dma_addr_t rx_buf_dma;
	u8 *tx_buf;
	dma_addr_t tx_buf_dma;
	u8 addr[ETH_ALEN];		/* where the frames go: only they pass */
	unsigned int foreign;		/* frames from the wire that passed */
};

static void ronic_lb_free(struct ronic_adapter *adapter, struct ronic_lb *lb)
{
	if (lb->tx_buf)
		ronic_dma_free_ring(&adapter->dma,
				    RONIC_LB_FRAMES * RONIC_LB_BUF_LEN,
				    lb->tx_buf, lb->tx_buf_dma);
	if (lb->rx_buf)
		ronic_dma_free_ring(&adapter->dma,
				    RONIC_LB_RX_DESCS * RONIC_LB_BUF_LEN,
				    lb->rx_buf, lb->rx_buf_dma);
	if (lb->rx_desc)
		ronic_dma_free_ring(&adapter->dma, RONIC_LB_DESC_BYTES,
				    lb->rx_desc, lb->desc_dma);
}

static int ronic_lb_alloc(struct ronic_adapter *adapter, struct ronic_lb *lb)
{
	lb->rx_desc = ronic_dma_alloc_ring(&adapter->dma, RONIC_LB_DESC_BYTES,
					   &lb->desc_dma);
	lb->rx_buf = ronic_dma_alloc_ring(&adapter->dma,
					  RONIC_LB_RX_DESCS * RONIC_LB_BUF_LEN,
					  &lb->rx_buf_dma);
	lb->tx_buf = ronic_dma_alloc_ring(&adapter->dma,
					  RONIC_LB_FRAMES * RONIC_LB_BUF_LEN,
					  &lb->tx_buf_dma);
	if (!lb->rx_desc || !lb->rx_buf || !lb->tx_buf) {
		ronic_lb_free(adapter, lb);
		return -ENOMEM;
	}
	lb->tx_desc = (struct ronic_tx_desc *)(lb->rx_desc + RONIC_LB_RX_DESCS);
	return 0;
}

static dma_addr_t ronic_lb_tx_desc_dma(const struct ronic_lb *lb)
{
	return lb->desc_dma + RONIC_LB_RX_DESCS * sizeof(union ronic_rx_desc);
}

/* Give rx slot @i its buffer again (write-back overwrote the address). */
static void ronic_lb_arm(struct ronic_lb *lb, u16 i)
{
	union ronic_rx_desc *desc = &lb->rx_desc[i];

	desc->read.pkt_addr = cpu_to_le64(lb->rx_buf_dma +
					  (dma_addr_t)i * RONIC_LB_BUF_LEN);
	desc->read.hdr_addr = 0;
}

/* Lengths from the shortest frame to the longest untagged one. */
static unsigned int ronic_lb_len(unsigned int seq)
{
	return min(ETH_ZLEN + seq * 97, ETH_FRAME_LEN);
}

/* Every byte depends on the frame and on its place in it. */
static u8 ronic_lb_byte(unsigned int seq, unsigned int off)
{
	return (seq * 31 + off) ^ (off >> 8);
}

static void ronic_lb_build(struct ronic_adapter *adapter, struct ronic_lb *lb,
			   unsigned int seq)
{
	u8 *frame = lb->tx_buf + seq * RONIC_LB_BUF_LEN;
	struct ethhdr *eth = (struct ethhdr *)frame;
	unsigned int len = ronic_lb_len(seq), off;
	struct ronic_tx_desc *desc = &lb->tx_desc[seq];

	ether_addr_copy(eth->h_dest, lb->addr);
	ether_addr_copy(eth->h_source, adapter->netdev->dev_addr);
	eth->h_proto = htons(RONIC_LB_ETHERTYPE);
	for (off = ETH_HLEN; off < len; off++)
		frame[off] = ronic_lb_byte(seq, off);

	desc->addr = cpu_to_le64(lb->tx_buf_dma +
				 (dma_addr_t)seq * RONIC_LB_BUF_LEN);
	desc->cmd_type_len = cpu_to_le32(RONIC_TXD_DTYP_DATA |
					 RONIC_TXD_CMD_DEXT |
					 RONIC_TXD_CMD_IFCS |
					 RONIC_TXD_CMD_EOP |
					 RONIC_TXD_CMD_RS | len);
	desc->olinfo_status = cpu_to_le32(len << RONIC_TXD_PAYLEN_SHIFT);
}

/*
 * Check the frame written back into rx slot @i; *@ours tells whether it
 * was one of the test's (the next expected, @seq) or one from the wire
 * that the filters let by (the rx-mode path may turn promiscuous mode on
 * beside the test), which is only counted.
 */
static u64 ronic_lb_check(struct ronic_lb *lb, u16 i, u32 status,
			  unsigned int seq, bool *ours,
			  struct net_device *netdev)
{
	const union ronic_rx_desc *desc = &lb->rx_desc[i];
	const u8 *frame = lb->rx_buf + i * RONIC_LB_BUF_LEN;
	const u8 *sent = lb->tx_buf + seq * RONIC_LB_BUF_LEN;
	const struct ethhdr *eth = (const struct ethhdr *)frame;
	unsigned int len = le16_to_cpu(desc->wb.length), off;
	unsigned int want = ronic_lb_len(seq);

	*ours = len >= ETH_HLEN && ether_addr_equal(eth->h_dest, lb->addr) &&
		eth->h_proto == htons(RONIC_LB_ETHERTYPE);
	if (!*ours) {
		lb->foreign++;
		return 0;
	}
	if (len != want || !(status & RONIC_RXD_STAT_EOP) ||
	    (status & RONIC_RXD_ERR_RXE)) {
		netdev_err(netdev, "self-test: loopback frame %u came back with %u bytes (sent %u), status %#x\n",
			   seq, len, want, status);
		return RONIC_LB_LENGTH;
	}
	for (off = 0; off < len; off++) {
		if (frame[off] != sent[off]) {
			netdev_err(netdev, "self-test: loopback frame %u byte %u is %#04x, sent %#04x\n",
				   seq, off, frame[off], sent[off]);
			return RONIC_LB_DATA;
		}
	}
	return 0;
}

/*
 * The PHY loops frames back (ronic_hw_phy_loopback()). QEMU's model
 * receives nothing while STATUS.LU is clear, which the reset before the
 * test cleared until its 500 ms autonegotiation ends: wait for it, only so
 * long, since the part itself needs no link partner here.
 */
static int ronic_lb_loop(struct ronic_adapter *adapter)
{
	u32 status;
	int err;

	err = ronic_hw_phy_loopback(adapter);
	if (err) {
		netdev_err(adapter->netdev, "self-test: PHY loopback not set (%d)\n",
			   err);
		return err;
	}
	if (readl_poll_timeout(adapter->hw_addr + RONIC_STATUS, status,
			       status & RONIC_STATUS_LU, 1000,
			       RONIC_LB_LINK_WAIT_MS * USEC_PER_MSEC))
		netdev_dbg(adapter->netdev, "self-test: no STATUS.LU in loopback, trying anyway\n");
	return 0;
}

static void ronic_lb_wait_queue(struct ronic_adapter *adapter, u32 reg,
				bool enabled)
{
	u32 val;

	/* A queue that does not follow shows as frames that do not come back. */
	readl_poll_timeout(adapter->hw_addr + reg, val,
			   !!(val & RONIC_RXDCTL_QUEUE_ENABLE) == enabled, 10,
			   10000);
}

/*
 * Hardware queue 0 on the test's rings. Write-back threshold 1: the test
 * polls with every interrupt masked, so a descriptor must not wait for
 * others before it is written back.
 */
static void ronic_lb_queues(struct ronic_adapter *adapter, struct ronic_lb *lb)
{
	const u8 q = RONIC_LB_QUEUE;
	u32 rctl;
	u16 i;

	for (i = 0; i < RONIC_LB_RX_DESCS; i++)
		ronic_lb_arm(lb, i);

	ronic_wr32(adapter, RONIC_RXDCTL(q), 0);
	ronic_wr32(adapter, RONIC_TXDCTL(q), 0);
	ronic_lb_wait_queue(adapter, RONIC_RXDCTL(q), false);
	ronic_lb_wait_queue(adapter, RONIC_TXDCTL(q), false);

	ronic_wr32(adapter, RONIC_RDBAL(q), lower_32_bits(lb->desc_dma));
	ronic_wr32(adapter, RONIC_RDBAH(q), upper_32_bits(lb->desc_dma));
	ronic_wr32(adapter, RONIC_RDLEN(q),
		   RONIC_LB_RX_DESCS * sizeof(union ronic_rx_desc));
	ronic_wr32(adapter, RONIC_RDH(q), 0);
	ronic_wr32(adapter, RONIC_RDT(q), 0);
	ronic_wr32(adapter, RONIC_SRRCTL(q),
		   (RONIC_LB_BUF_LEN >> RONIC_SRRCTL_BSIZEPKT_SHIFT) |
		   RONIC_SRRCTL_DESCTYPE_ADV_ONEBUF);
	/* The frames cross the bus as the data path's do. */
	ronic_hw_set_rx_ro(adapter, q, adapter->ro.decision.dca_rxctrl);
	ronic_wr32(adapter, RONIC_RXDCTL(q), RONIC_RXDCTL_QUEUE_ENABLE |
		   (8 << RONIC_DCTL_PTHRESH_SHIFT) |
		   (8 << RONIC_DCTL_HTHRESH_SHIFT) |
		   (1 << RONIC_DCTL_WTHRESH_SHIFT));
	ronic_lb_wait_queue(adapter, RONIC_RXDCTL(q), true);

	ronic_wr32(adapter, RONIC_TDBAL(q),
		   lower_32_bits(ronic_lb_tx_desc_dma(lb)));
	ronic_wr32(adapter, RONIC_TDBAH(q),
		   upper_32_bits(ronic_lb_tx_desc_dma(lb)));
	ronic_wr32(adapter, RONIC_TDLEN(q),
		   RONIC_LB_TX_DESCS * sizeof(struct ronic_tx_desc));
	ronic_wr32(adapter, RONIC_TDWBAL(q), 0);
	ronic_wr32(adapter, RONIC_TDWBAH(q), 0);
	ronic_wr32(adapter, RONIC_TDH(q), 0);
	ronic_wr32(adapter, RONIC_TDT(q), 0);
	ronic_hw_set_tx_ro(adapter, q, adapter->ro.decision.dca_txctrl);
	ronic_wr32(adapter, RONIC_TXDCTL(q), RONIC_TXDCTL_QUEUE_ENABLE |
		   (8 << RONIC_DCTL_PTHRESH_SHIFT) |
		   (1 << RONIC_DCTL_HTHRESH_SHIFT) |
		   (1 << RONIC_DCTL_WTHRESH_SHIFT));
	ronic_lb_wait_queue(adapter, RONIC_TXDCTL(q), true);

	/*
	 * Receive address 0 is the test's own address (put back by the
	 * reset and set-up afterwards): frames the peer sends to the port's
	 * address meanwhile are filtered out, broadcasts too (no BAM).
	 */
	ronic_hw_set_rar(adapter, 0, lb->addr);
	ronic_hw_enable_tx(adapter);
	rctl = RONIC_RCTL_EN | RONIC_RCTL_SECRC;
	spin_lock_bh(&adapter->rctl_lock);
	ronic_wr32(adapter, RONIC_RCTL, rctl);
	spin_unlock_bh(&adapter->rctl_lock);
	/* Every slot but one to the device: head == tail means empty. */
	ronic_wr32(adapter, RONIC_RDT(q), RONIC_LB_RX_DESCS - 1);
	ronic_flush(adapter);
}

/* Stop the device's DMA into the test memory before it is freed. */
static void ronic_lb_stop(struct ronic_adapter *adapter)
{
	ronic_hw_disable_rxtx(adapter);
	ronic_wr32(adapter, RONIC_RXDCTL(RONIC_LB_QUEUE), 0);
	ronic_wr32(adapter, RONIC_TXDCTL(RONIC_LB_QUEUE), 0);
	ronic_lb_wait_queue(adapter, RONIC_RXDCTL(RONIC_LB_QUEUE), false);
	ronic_lb_wait_queue(adapter, RONIC_TXDCTL(RONIC_LB_QUEUE), false);
}

static u64 ronic_lb_exchange(struct ronic_adapter *adapter, struct ronic_lb *lb)
{
	unsigned long end;
	unsigned int seq = 0, i;
	u16 ntc = 0;
	bool ours;
	u32 status;
	u64 res;

	for (i = 0; i < RONIC_LB_FRAMES; i++)
		ronic_lb_build(adapter, lb, i);
	/* writel orders the descriptor writes before the device sees TDT. */
	ronic_wr32(adapter, RONIC_TDT(RONIC_LB_QUEUE), RONIC_LB_FRAMES);

	end = jiffies + msecs_to_jiffies(RONIC_LB_WAIT_MS);
	while (seq < RONIC_LB_FRAMES) {
		status = le32_to_cpu(READ_ONCE(lb->rx_desc[ntc].wb.status_error));
		if (!(status & RONIC_RXD_STAT_DD)) {
			if (time_after(jiffies, end)) {
				netdev_err(adapter->netdev, "self-test: %u of %u loopback frames came back within %u ms\n",
					   seq, RONIC_LB_FRAMES, RONIC_LB_WAIT_MS);
				return RONIC_LB_MISSING;
			}
			usleep_range(100, 200);
			continue;
		}
		/* The status before the length and the bytes it vouches for. */
		dma_rmb();
		res = ronic_lb_check(lb, ntc, status, seq, &ours,
				     adapter->netdev);
		if (res)
			return res;
		if (ours)
			seq++;
		/* Re-armed, the slot goes back behind the one handed back last. */
		ronic_lb_arm(lb, ntc);
		ronic_wr32(adapter, RONIC_RDT(RONIC_LB_QUEUE), ntc);
		ntc = (ntc + 1) % RONIC_LB_RX_DESCS;
	}

	for (i = 0; i < RONIC_LB_FRAMES; i++) {
		while (!(le32_to_cpu(READ_ONCE(lb->tx_desc[i].olinfo_status)) &
			 RONIC_TXD_STAT_DD)) {
			if (time_after(jiffies, end)) {
				netdev_err(adapter->netdev, "self-test: loopback transmit descriptor %u not written back\n",
					   i);
				return RONIC_LB_TX_DONE;
			}
			usleep_range(100, 200);
		}
	}
	if (lb->foreign)
		netdev_dbg(adapter->netdev, "self-test: %u frames from the wire skipped\n",
			   lb->foreign);
	return 0;
}

static u64 ronic_st_loopback(struct ronic_adapter *adapter)
{
	struct ronic_lb lb = { };
	u64 res;

	if (ronic_lb_alloc(adapter, &lb)) {
		netdev_err(adapter->netdev, "self-test: no memory, loopback test not run\n");
		return RONIC_SELFTEST_NOT_RUN;
	}
	/* The port's address made locally administered: no one else's. */
	ether_addr_copy(lb.addr, adapter->netdev->dev_addr);
	lb.addr[0] ^= 0x02;

	if (ronic_lb_loop(adapter)) {
		res = RONIC_LB_PHY;
	} else {
		ronic_lb_queues(adapter, &lb);
		res = ronic_lb_exchange(adapter, &lb);
		ronic_lb_stop(adapter);
	}
	ronic_lb_free(adapter, &lb);
	return res;
}

/* ------------------------------------------------------------ link */

static u64 ronic_st_link(struct ronic_adapter *adapter)
{
	unsigned long end = jiffies + msecs_to_jiffies(RONIC_ST_LINK_WAIT_MS);
	struct ronic_link link;

	for (;;) {
		ronic_hw_get_link(adapter, &link);
		if (link.up)
			return 0;
		if (time_after(jiffies, end))
			break;
		msleep(100);
	}
	netdev_err(adapter->netdev, "self-test: no link within %u ms\n",
		   RONIC_ST_LINK_WAIT_MS);
	return 1;
}

/* ------------------------------------------------------------ ethtool */

/*
 * Under ronic_run_quiesced(): every interrupt masked, no DMA running, the
 * device freshly reset; the loopback test last, so that the reset's
 * autonegotiation has had the other tests' time to end (QEMU's model).
 */
static int ronic_st_offline(struct ronic_adapter *adapter, void *arg)
{
	u64 *data = arg;

	data[RONIC_ST_REG] = ronic_st_registers(adapter);
	data[RONIC_ST_EEPROM] = ronic_st_eeprom(adapter);
	data[RONIC_ST_IRQ] = ronic_st_interrupt(adapter);
	data[RONIC_ST_LOOPBACK] = ronic_st_loopback(adapter);
	return 0;
}

/**
 * ronic_selftest_count - how many results ethtool -t gets
 *
 * Return: the number of tests, offline and online alike.
 */
int ronic_selftest_count(void)
{
	return RONIC_ST_COUNT;
}

/**
 * ronic_selftest_strings - the tests' names, for ETH_SS_TEST
 * @data: where the names go; advanced past them
 */
void ronic_selftest_strings(u8 **data)
{
	unsigned int i;

	for (i = 0; i < RONIC_ST_COUNT; i++)
		ethtool_puts(data, ronic_st_names[i]);
}

/**
 * ronic_selftest - ethtool -t
 * @netdev: the port, under rtnl
 * @test: the request; ETH_TEST_FL_FAILED is set on any failure
 * @data: one result per test, 0 for passed (codes: top of this file)
 *
 * The link test runs first, on the port as it is. An offline request
 * then runs the other tests with the port taken from the stack, which
 * gets it back as it was (rings, queues, MTU, XDP program, flags) once
 * they are done; a port that was down stays down. An online request
 * leaves the offline tests at RONIC_SELFTEST_NOT_RUN, which is not a
 * failure there; in an offline run it is.
 */
void ronic_selftest(struct net_device *netdev, struct ethtool_test *test,
		    u64 *data)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	bool offline = test->flags & ETH_TEST_FL_OFFLINE;
	unsigned int i;
	ktime_t start;

	for (i = 0; i < RONIC_ST_COUNT; i++)
		data[i] = RONIC_SELFTEST_NOT_RUN;

	data[RONIC_ST_LINK] = ronic_st_link(adapter);
	if (offline) {
		start = ktime_get();
		ronic_run_quiesced(adapter, ronic_st_offline, data);
		netdev_info(netdev, "offline self-test: register %llu, EEPROM %llu, interrupt %llu, loopback %llu; port held %lld ms\n",
			    data[RONIC_ST_REG], data[RONIC_ST_EEPROM],
			    data[RONIC_ST_IRQ], data[RONIC_ST_LOOPBACK],
			    ktime_ms_delta(ktime_get(), start));
	}

	for (i = 0; i < RONIC_ST_COUNT; i++)
		if (data[i] && (offline || data[i] != RONIC_SELFTEST_NOT_RUN))
			test->flags |= ETH_TEST_FL_FAILED;
}
