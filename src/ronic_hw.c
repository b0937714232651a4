// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: 82576 register programming. Reset, MAC address, link, queue
 * set-up, receive filters, interrupt routing and MAC counters.
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/iopoll.h>
#include <linux/mii.h>

#include "ronic_hw.h"

#define RONIC_RESET_POLL_US	10
#define RONIC_RESET_TIMEOUT_US	100000
#define RONIC_QUEUE_TIMEOUT_US	10000
#define RONIC_AUTO_RD_TIMEOUT_US	10000

/* Descriptor thresholds: fetch ahead when 8 are free, write back each one. */
#define RONIC_TXDCTL_DEFAULT	((8 << RONIC_DCTL_PTHRESH_SHIFT) | \
				 (1 << RONIC_DCTL_HTHRESH_SHIFT) | \
				 (1 << RONIC_DCTL_WTHRESH_SHIFT))
#define RONIC_RXDCTL_DEFAULT	((8 << RONIC_DCTL_PTHRESH_SHIFT) | \
				 (8 << RONIC_DCTL_HTHRESH_SHIFT) | \
				 (4 << RONIC_DCTL_WTHRESH_SHIFT))

static int ronic_hw_stop_master(struct ronic_adapter *adapter)
{
	u32 status;

	ronic_wr32(adapter, RONIC_CTRL, ronic_rd32(adapter, RONIC_CTRL) |
		   RONIC_CTRL_GIO_MASTER_DISABLE);
	return readl_poll_timeout(adapter->hw_addr + RONIC_STATUS, status,
				  !(status & RONIC_STATUS_GIO_MASTER_ENABLE),
				  RONIC_RESET_POLL_US, RONIC_RESET_TIMEOUT_US);
}

/**
 * ronic_hw_reset - global reset of the MAC, leaving every cause masked
 * @adapter: the device
 *
 * Return: 0, or -ETIMEDOUT if the device did not come back.
 */
int ronic_hw_reset(struct ronic_adapter *adapter)
{
	u32 eecd, ctrl;
	int err;

	ronic_wr32(adapter, RONIC_IMC, ~0u);
	ronic_wr32(adapter, RONIC_EIMC, ~0u);
	/* A racing rx-mode update must not write the receiver back on. */
	spin_lock_bh(&adapter->rctl_lock);
	ronic_wr32(adapter, RONIC_RCTL, 0);
	spin_unlock_bh(&adapter->rctl_lock);
	ronic_wr32(adapter, RONIC_TCTL, RONIC_TCTL_PSP);
	ronic_flush(adapter);
	usleep_range(10000, 11000);

	/* Outstanding requests must drain before the reset; go on regardless. */
	if (ronic_hw_stop_master(adapter))
		dev_warn(&adapter->pdev->dev, "DMA master did not stop before reset\n");

	ronic_wr32(adapter, RONIC_CTRL, ronic_rd32(adapter, RONIC_CTRL) |
		   RONIC_CTRL_RST);
	usleep_range(1000, 2000);

	err = readl_poll_timeout(adapter->hw_addr + RONIC_CTRL, ctrl,
				 !(ctrl & RONIC_CTRL_RST),
				 RONIC_RESET_POLL_US, RONIC_RESET_TIMEOUT_US);
	if (err) {
		dev_err(&adapter->pdev->dev, "device did not come out of reset\n");
		return err;
	}
	/*
	 * A part without an EEPROM (and QEMU's model) never reports the
	 * auto-read done; the defaults it would load are then in place.
	 */
	if (readl_poll_timeout(adapter->hw_addr + RONIC_EECD, eecd,
			       eecd & RONIC_EECD_AUTO_RD,
			       RONIC_RESET_POLL_US, RONIC_AUTO_RD_TIMEOUT_US))
		dev_dbg(&adapter->pdev->dev, "EEPROM auto-read not reported done\n");

	ronic_wr32(adapter, RONIC_IMC, ~0u);
	ronic_wr32(adapter, RONIC_EIMC, ~0u);
	ronic_rd32(adapter, RONIC_ICR);
	ronic_rd32(adapter, RONIC_EICR);
	return 0;
}

/**
 * ronic_hw_phy_write - write a register of the internal PHY through MDIC
 * @adapter: the device
 * @reg: PHY register (MII_*)
 * @val: the value
 *
 * Return: 0, -ETIMEDOUT if MDIC never reported ready, -EIO on its error.
 */
int ronic_hw_phy_write(struct ronic_adapter *adapter, u32 reg, u16 val)
{
	u32 mdic;
	int err;

	ronic_wr32(adapter, RONIC_MDIC, val | (reg << RONIC_MDIC_REG_SHIFT) |
		   (RONIC_PHY_ADDR << RONIC_MDIC_PHY_SHIFT) | RONIC_MDIC_OP_WRITE);
	err = readl_poll_timeout(adapter->hw_addr + RONIC_MDIC, mdic,
				 mdic & RONIC_MDIC_READY, 10, 10000);
	if (err)
		return err;
	return mdic & RONIC_MDIC_ERROR ? -EIO : 0;
}

/**
 * ronic_hw_phy_loopback - loop transmitted frames back in the PHY
 * @adapter: the device
 *
 * PHY loopback, not RCTL.LBM: the 82576 datasheet says MAC loopback is
 * not used on this part (3.5.6.2) and has the internal PHY loop frames
 * back instead (3.5.6.3.1: BMCR 0x4140, 1000 Mb/s full duplex forced),
 * with the MAC's speed and link forced to match. Those sections were read
 * as quoted in a linux-kernel review of a VFIO igb test driver (May 2026),
 * not in the PDF; igb's copper self-test loops back in the PHY as well.
 * Nothing goes out on the wire while it is on.
 *
 * Return: 0, or a negative errno if the PHY did not take the command.
 */
int ronic_hw_phy_loopback(struct ronic_adapter *adapter)
{
	u32 ctrl;
	int err;

	/*
	 * An autonegotiation restart first, as igb's loopback test resets the
	 * PHY with it on: QEMU's model raises STATUS.LU (without which it
	 * receives nothing) only when one ends, and after a device reset none
	 * is under way; the loopback write below ends it on a real PHY.
	 */
	err = ronic_hw_phy_write(adapter, MII_BMCR, BMCR_ANENABLE | BMCR_ANRESTART);
	if (err)
		return err;
	err = ronic_hw_phy_write(adapter, MII_BMCR, BMCR_LOOPBACK |
				 BMCR_SPEED1000 | BMCR_FULLDPLX);
	if (err)
		return err;
	ctrl = ronic_rd32(adapter, RONIC_CTRL);
	ctrl &= ~(3 << RONIC_CTRL_SPD_SHIFT);
	ctrl |= RONIC_CTRL_SLU | RONIC_CTRL_FRCSPD | RONIC_CTRL_FRCDPX |
		RONIC_CTRL_FD | (2 << RONIC_CTRL_SPD_SHIFT);
	ronic_wr32(adapter, RONIC_CTRL, ctrl);
	return 0;
}

/**
 * ronic_hw_setup_link - autonegotiate what the adapter advertises, or force
 * @adapter: the device, with autoneg, advertising or the forced mode set
 *
 * A port in loopback (ethtool -K loopback) stays there: the link settings
 * are kept for when it leaves.
 *
 * Return: 0, or a negative errno if the PHY did not take the command.
 */
int ronic_hw_setup_link(struct ronic_adapter *adapter)
{
	u32 ctrl = ronic_rd32(adapter, RONIC_CTRL);
	u16 adv = ADVERTISE_CSMA, adv1000 = 0, bmcr;
	u32 modes = adapter->advertising;
	int err;

	if (adapter->loopback)
		return ronic_hw_phy_loopback(adapter);
	ctrl &= ~(RONIC_CTRL_FRCSPD | RONIC_CTRL_FRCDPX | RONIC_CTRL_FD |
		  (3 << RONIC_CTRL_SPD_SHIFT));
	if (!adapter->autoneg) {
		/* MAC and PHY forced alike. */
		bmcr = adapter->forced_duplex == DUPLEX_FULL ? BMCR_FULLDPLX : 0;
		ctrl |= RONIC_CTRL_FRCSPD | RONIC_CTRL_FRCDPX;
		if (adapter->forced_duplex == DUPLEX_FULL)
			ctrl |= RONIC_CTRL_FD;
		if (adapter->forced_speed == SPEED_1000) {
			ctrl |= 2 << RONIC_CTRL_SPD_SHIFT;
			bmcr |= BMCR_SPEED1000;
		} else if (adapter->forced_speed == SPEED_100) {
			ctrl |= 1 << RONIC_CTRL_SPD_SHIFT;
			bmcr |= BMCR_SPEED100;
		}
		ronic_wr32(adapter, RONIC_CTRL, ctrl | RONIC_CTRL_SLU);
		return ronic_hw_phy_write(adapter, MII_BMCR, bmcr);
	}

	ronic_wr32(adapter, RONIC_CTRL, ctrl | RONIC_CTRL_SLU);
	if (modes & BIT(ETHTOOL_LINK_MODE_10baseT_Half_BIT))
		adv |= ADVERTISE_10HALF;
	if (modes & BIT(ETHTOOL_LINK_MODE_10baseT_Full_BIT))
		adv |= ADVERTISE_10FULL;
	if (modes & BIT(ETHTOOL_LINK_MODE_100baseT_Half_BIT))
		adv |= ADVERTISE_100HALF;
	if (modes & BIT(ETHTOOL_LINK_MODE_100baseT_Full_BIT))
		adv |= ADVERTISE_100FULL;
	if (modes & BIT(ETHTOOL_LINK_MODE_1000baseT_Full_BIT))
		adv1000 |= ADVERTISE_1000FULL;
	if (adapter->rx_pause)
		adv |= ADVERTISE_PAUSE_CAP;
	if (adapter->tx_pause != adapter->rx_pause)
		adv |= ADVERTISE_PAUSE_ASYM;
	err = ronic_hw_phy_write(adapter, MII_ADVERTISE, adv);
	if (!err)
		err = ronic_hw_phy_write(adapter, MII_CTRL1000, adv1000);
	if (!err)
		err = ronic_hw_phy_write(adapter, MII_BMCR, BMCR_ANENABLE |
					 BMCR_ANRESTART);
	return err;
}

/**
 * ronic_hw_init - bring the MAC from reset to a known receive state
 * @adapter: the device
 *
 * Clears the filter tables the driver owns, tells firmware a driver is
 * loaded, and lets the PHY link up (autonegotiation is the reset default).
 */
void ronic_hw_init(struct ronic_adapter *adapter)
{
	unsigned int i;
	u32 ctrl;

	for (i = 0; i < RONIC_MTA_ENTRIES; i++)
		ronic_wr32(adapter, RONIC_MTA(i), 0);
	for (i = 0; i < RONIC_VFTA_ENTRIES; i++)
		ronic_wr32(adapter, RONIC_VFTA(i), 0);
	for (i = 1; i < RONIC_RAR_ENTRIES; i++)
		ronic_hw_clear_rar(adapter, i);

	ctrl = ronic_rd32(adapter, RONIC_CTRL);
	ctrl |= RONIC_CTRL_SLU;
	ctrl &= ~RONIC_CTRL_VME;
	ronic_wr32(adapter, RONIC_CTRL, ctrl);

	ronic_wr32(adapter, RONIC_CTRL_EXT, ronic_rd32(adapter, RONIC_CTRL_EXT) |
		   RONIC_CTRL_EXT_DRV_LOAD | RONIC_CTRL_EXT_PFRSTD);
	ronic_flush(adapter);

	ronic_hw_setup_flow_control(adapter);
	if (ronic_hw_setup_link(adapter))
		dev_warn(&adapter->pdev->dev, "PHY did not accept the link setup\n");
}

/**
 * ronic_hw_release - tell firmware the driver no longer owns the device
 * @adapter: the device
 */
void ronic_hw_release(struct ronic_adapter *adapter)
{
	ronic_wr32(adapter, RONIC_CTRL_EXT, ronic_rd32(adapter, RONIC_CTRL_EXT) &
		   ~RONIC_CTRL_EXT_DRV_LOAD);
}

/**
 * ronic_hw_read_eeprom - read one EEPROM word through EERD
 * @adapter: the device
 * @word: word address, below ronic_hw_nvm_words()
 * @data: the word, filled in
 *
 * Callers serialise: EERD holds one request at a time (probe, or rtnl).
 *
 * Return: 0, or -ETIMEDOUT when the device did not complete the read.
 */
int ronic_hw_read_eeprom(struct ronic_adapter *adapter, u16 word, u16 *data)
{
	u32 eerd;
	int err;

	ronic_wr32(adapter, RONIC_EERD,
		   (word << RONIC_EERD_ADDR_SHIFT) | RONIC_EERD_START);
	err = readl_poll_timeout(adapter->hw_addr + RONIC_EERD, eerd,
				 eerd & RONIC_EERD_DONE, 5, 10000);
	if (err)
		return err;
	*data = eerd >> RONIC_EERD_DATA_SHIFT;
	return 0;
}

/**
 * ronic_hw_nvm_words - the size of the EEPROM, in 16-bit words
 * @adapter: the device
 *
 * EECD.EE_SIZE gives 2^(6 + EE_SIZE) words, as Linux igb reads it for the
 * 82575 and 82576; capped at what EERD can address. QEMU 10's model
 * reads EECD 0x00001110, EE_SIZE 2: 256 words, of which 0x00-0x3F are
 * the checksummed image.
 *
 * Return: the number of words ethtool -e shows.
 */
u32 ronic_hw_nvm_words(struct ronic_adapter *adapter)
{
	u32 size = (ronic_rd32(adapter, RONIC_EECD) & RONIC_EECD_SIZE_MASK) >>
		   RONIC_EECD_SIZE_SHIFT;

	return min_t(u32, BIT(RONIC_NVM_WORD_SIZE_BASE_SHIFT + size),
		     RONIC_EERD_MAX_WORDS);
}

/**
 * ronic_hw_read_mac - the permanent address of the port
 * @adapter: the device
 * @mac: ETH_ALEN bytes, filled in
 *
 * The device loads receive address 0 from the EEPROM at reset; when that
 * entry is not valid the EEPROM is read directly.
 *
 * Return: 0 with a valid unicast address in @mac, -EADDRNOTAVAIL otherwise.
 */
int ronic_hw_read_mac(struct ronic_adapter *adapter, u8 *mac)
{
	u32 ral = ronic_rd32(adapter, RONIC_RAL(0));
	u32 rah = ronic_rd32(adapter, RONIC_RAH(0));
	unsigned int i;
	u16 word;

	if (rah & RONIC_RAH_AV) {
		for (i = 0; i < 4; i++)
			mac[i] = ral >> (8 * i);
		mac[4] = rah;
		mac[5] = rah >> 8;
		if (is_valid_ether_addr(mac))
			return 0;
	}

	for (i = 0; i < ETH_ALEN / 2; i++) {
		if (ronic_hw_read_eeprom(adapter, RONIC_EEPROM_MAC_WORD + i, &word))
			return -EADDRNOTAVAIL;
		mac[2 * i] = word;
		mac[2 * i + 1] = word >> 8;
	}
	return is_valid_ether_addr(mac) ? 0 : -EADDRNOTAVAIL;
}

/**
 * ronic_hw_nvm_version - the EEPROM image version, as text
 * @adapter: the device
 * @buf: filled with "major.minor.id"
 * @len: size of @buf
 *
 * The version is EEPROM word 0x05 as the 82576 datasheet lays it out:
 * bits 15:12 the major number, 11:4 the minor as two BCD digits, 3:0 the
 * image id. QEMU's model holds 0x2010 there, "2.1.0".
 *
 * Return: 0, or a negative errno when the EEPROM did not answer.
 */
int ronic_hw_nvm_version(struct ronic_adapter *adapter, char *buf, size_t len)
{
	u16 word;
	int err;

	err = ronic_hw_read_eeprom(adapter, RONIC_EEPROM_VERSION_WORD, &word);
	if (err)
		return err;
	snprintf(buf, len, "%u.%x.%u", word >> 12, (word >> 4) & 0xff,
		 word & 0xf);
	return 0;
}

/**
 * ronic_hw_set_rar - program a receive address filter entry
 * @adapter: the device
 * @index: entry, 0 being the port's own address
 * @mac: the address
 */
void ronic_hw_set_rar(struct ronic_adapter *adapter, unsigned int index,
		      const u8 *mac)
{
	u32 ral = mac[0] | (mac[1] << 8) | (mac[2] << 16) | ((u32)mac[3] << 24);
	u32 rah = mac[4] | (mac[5] << 8) | RONIC_RAH_AV;

	ronic_wr32(adapter, RONIC_RAL(index), ral);
	ronic_wr32(adapter, RONIC_RAH(index), rah);
}

/**
 * ronic_hw_clear_rar - invalidate a receive address filter entry
 * @adapter: the device
 * @index: entry
 */
void ronic_hw_clear_rar(struct ronic_adapter *adapter, unsigned int index)
{
	ronic_wr32(adapter, RONIC_RAH(index), 0);
	ronic_wr32(adapter, RONIC_RAL(index), 0);
}

/**
 * ronic_hw_get_link - read link state, speed and duplex
 * @adapter: the device
 * @link: filled in
 */
void ronic_hw_get_link(struct ronic_adapter *adapter, struct ronic_link *link)
{
	u32 status = ronic_rd32(adapter, RONIC_STATUS);

	link->up = status & RONIC_STATUS_LU;
	link->full_duplex = status & RONIC_STATUS_FD;
	if (status & RONIC_STATUS_SPEED_1000)
		link->speed = SPEED_1000;
	else if (status & RONIC_STATUS_SPEED_100)
		link->speed = SPEED_100;
	else
		link->speed = SPEED_10;
}

/**
 * ronic_hw_led_read - the LED configuration, to restore after identify
 * @adapter: the device
 *
 * Return: LEDCTL.
 */
u32 ronic_hw_led_read(struct ronic_adapter *adapter)
{
	return ronic_rd32(adapter, RONIC_LEDCTL);
}

/**
 * ronic_hw_led_write - put back an LED configuration
 * @adapter: the device
 * @ledctl: what ronic_hw_led_read() returned
 */
void ronic_hw_led_write(struct ronic_adapter *adapter, u32 ledctl)
{
	ronic_wr32(adapter, RONIC_LEDCTL, ledctl);
}

/**
 * ronic_hw_led_force - light every LED of the port, or darken it (identify)
 * @adapter: the device
 * @saved: LEDCTL as it was before identify began
 * @on: lit or dark
 *
 * Each LED keeps its IVRT bit, which the board's wiring decides, so that
 * "asserted" still means lit; its mode is forced and its blinking stopped.
 */
void ronic_hw_led_force(struct ronic_adapter *adapter, u32 saved, bool on)
{
	u32 mode = on ? RONIC_LEDCTL_MODE_ON : RONIC_LEDCTL_MODE_OFF;
	u32 ledctl = 0, led;
	unsigned int i;

	for (i = 0; i < RONIC_LEDCTL_LEDS; i++) {
		led = ((saved >> (8 * i)) & RONIC_LEDCTL_IVRT) | mode;
		ledctl |= led << (8 * i);
	}
	ronic_wr32(adapter, RONIC_LEDCTL, ledctl);
}

/* Return: 0, or -ETIMEDOUT if the queue's enable bit never followed. */
static int ronic_hw_wait_queue(struct ronic_adapter *adapter, u32 reg,
			       bool enabled)
{
	u32 val;
	int err;

	err = readl_poll_timeout(adapter->hw_addr + reg, val,
				 !!(val & RONIC_TXDCTL_QUEUE_ENABLE) == enabled,
				 10, RONIC_QUEUE_TIMEOUT_US);
	if (err)
		dev_err(&adapter->pdev->dev, "queue register %#x did not %s\n",
			reg, enabled ? "enable" : "disable");
	return err;
}

/**
 * ronic_hw_get_tx_state - what the device says of a tx queue, for diagnosis
 * @adapter: the device
 * @ring: the ring
 * @state: filled in
 */
void ronic_hw_get_tx_state(struct ronic_adapter *adapter,
			   struct ronic_ring *ring,
			   struct ronic_tx_queue_state *state)
{
	state->head = ronic_rd32(adapter, RONIC_TDH(ring->reg_idx));
	state->tail = ronic_rd32(adapter, RONIC_TDT(ring->reg_idx));
	state->txdctl = ronic_rd32(adapter, RONIC_TXDCTL(ring->reg_idx));
}

/**
 * ronic_hw_set_tx_ro - program the relaxed-ordering enables of a tx queue
 * @adapter: the device
 * @q: hardware queue
 * @bits: RONIC_DCA_TX_* enables wanted; the others are cleared
 */
void ronic_hw_set_tx_ro(struct ronic_adapter *adapter, u8 q, u32 bits)
{
	u32 val = ronic_rd32(adapter, RONIC_DCA_TXCTRL(q));

	val = (val & ~RONIC_DCA_TX_RO_MASK) | (bits & RONIC_DCA_TX_RO_MASK);
	ronic_wr32(adapter, RONIC_DCA_TXCTRL(q), val);
}

/**
 * ronic_hw_set_rx_ro - program the relaxed-ordering enables of an rx queue
 * @adapter: the device
 * @q: hardware queue
 * @bits: RONIC_DCA_RX_* enables wanted; the others are cleared
 *
 * The value is kept in a shadow too, since QEMU's model does not
 * implement the register and reads it back as 0.
 */
void ronic_hw_set_rx_ro(struct ronic_adapter *adapter, u8 q, u32 bits)
{
	u32 val = adapter->dca_rxctrl_shadow[q];

	val = (val & ~RONIC_DCA_RX_RO_MASK) | (bits & RONIC_DCA_RX_RO_MASK);
	adapter->dca_rxctrl_shadow[q] = val;
	ronic_wr32(adapter, RONIC_DCA_RXCTRL(q), val);
}

/**
 * ronic_hw_disable_tx_ring - stop the device fetching from a tx ring
 * @adapter: the device
 * @ring: the ring
 *
 * Return: 0, or -ETIMEDOUT if the queue did not stop: the device may
 * still read the ring until a reset.
 */
int ronic_hw_disable_tx_ring(struct ronic_adapter *adapter,
			     struct ronic_ring *ring)
{
	u8 q = ring->reg_idx;

	ronic_wr32(adapter, RONIC_TXDCTL(q), RONIC_TXDCTL_SWFLSH);
	return ronic_hw_wait_queue(adapter, RONIC_TXDCTL(q), false);
}

/**
 * ronic_hw_configure_tx_ring - point a hardware tx queue at a ring and start it
 * @adapter: the device
 * @ring: the ring, its descriptor memory allocated
 */
void ronic_hw_configure_tx_ring(struct ronic_adapter *adapter,
				struct ronic_ring *ring)
{
	u64 base = ring->desc_dma;
	u8 q = ring->reg_idx;

	ronic_wr32(adapter, RONIC_TXDCTL(q), 0);
	ronic_flush(adapter);
	ronic_wr32(adapter, RONIC_TDBAL(q), lower_32_bits(base));
	ronic_wr32(adapter, RONIC_TDBAH(q), upper_32_bits(base));
	/* The ring's length, not its allocation (rounded up to 4 KB). */
	ronic_wr32(adapter, RONIC_TDLEN(q),
		   ring->count * sizeof(struct ronic_tx_desc));
	ronic_wr32(adapter, RONIC_TDWBAL(q), 0);
	ronic_wr32(adapter, RONIC_TDWBAH(q), 0);
	ronic_wr32(adapter, RONIC_TDH(q), 0);
	ronic_wr32(adapter, RONIC_TDT(q), 0);
	ring->tail = adapter->hw_addr + RONIC_TDT(q);
	/* Never left at the reset value: QEMU resets all three RO enables on. */
	ronic_hw_set_tx_ro(adapter, q, adapter->ro.decision.dca_txctrl);
	ronic_wr32(adapter, RONIC_TXDCTL(q),
		   RONIC_TXDCTL_DEFAULT | RONIC_TXDCTL_QUEUE_ENABLE);
	ronic_hw_wait_queue(adapter, RONIC_TXDCTL(q), true);
}

/**
 * ronic_hw_disable_rx_ring - stop the device writing into an rx ring
 * @adapter: the device
 * @ring: the ring
 *
 * Return: 0, or -ETIMEDOUT if the queue did not stop: the device may
 * still write into the ring's buffers until a reset.
 */
int ronic_hw_disable_rx_ring(struct ronic_adapter *adapter,
			     struct ronic_ring *ring)
{
	u8 q = ring->reg_idx;

	ronic_wr32(adapter, RONIC_RXDCTL(q), 0);
	return ronic_hw_wait_queue(adapter, RONIC_RXDCTL(q), false);
}

/*
 * SRRCTL.DROP_EN: a queue with no free descriptor drops what it receives
 * instead of holding it in the packet buffer all queues share, where it
 * would block the others. But a filling packet buffer is what makes the
 * MAC send XOFF (FCRTH): dropping early, the peer is never paused. igb
 * keys DROP_EN on rx pause; the XOFF itself is sent with tx pause. With
 * either on, no DROP_EN: frames wait and the link is paused instead. A
 * single queue has no other queue to block.
 */
static bool ronic_hw_rx_drop(const struct ronic_adapter *adapter)
{
	return adapter->num_queues > 1 && !adapter->rx_pause &&
	       !adapter->tx_pause;
}

/*
 * Reprogram DROP_EN in the active rx queues after a pause change. Only
 * that bit changes: the buffer sizes and descriptor type a running queue
 * uses stay as they are. Under rtnl, like ring (re)configuration.
 */
static void ronic_hw_update_rx_drop(struct ronic_adapter *adapter)
{
	bool drop = ronic_hw_rx_drop(adapter);
	struct ronic_ring *ring;
	u32 srrctl;
	u16 q;

	/* A device that is down gets it from ronic_hw_configure_rx_ring. */
	if (test_bit(RONIC_STATE_DOWN, &adapter->state))
		return;
	for (q = 0; q < adapter->num_queues; q++) {
		ring = adapter->rx_ring[q];
		if (!ring)
			continue;
		srrctl = ronic_rd32(adapter, RONIC_SRRCTL(ring->reg_idx));
		if (drop)
			srrctl |= RONIC_SRRCTL_DROP_EN;
		else
			srrctl &= ~RONIC_SRRCTL_DROP_EN;
		ronic_wr32(adapter, RONIC_SRRCTL(ring->reg_idx), srrctl);
	}
}

/**
 * ronic_hw_configure_rx_ring - point a hardware rx queue at a ring, start it
 * @adapter: the device
 * @ring: the ring, its descriptor memory allocated; buffers come later
 */
void ronic_hw_configure_rx_ring(struct ronic_adapter *adapter,
				struct ronic_ring *ring)
{
	u64 base = ring->desc_dma;
	u8 q = ring->reg_idx;
	u32 srrctl;

	ronic_wr32(adapter, RONIC_RXDCTL(q), 0);
	ronic_flush(adapter);
	ronic_wr32(adapter, RONIC_RDBAL(q), lower_32_bits(base));
	ronic_wr32(adapter, RONIC_RDBAH(q), upper_32_bits(base));
	/* The ring's length, not its allocation (rounded up to 4 KB). */
	ronic_wr32(adapter, RONIC_RDLEN(q),
		   ring->count * sizeof(union ronic_rx_desc));
	ronic_wr32(adapter, RONIC_RDH(q), 0);
	ronic_wr32(adapter, RONIC_RDT(q), 0);
	ring->tail = adapter->hw_addr + RONIC_RDT(q);

	srrctl = (ring->rx_buf_len >> RONIC_SRRCTL_BSIZEPKT_SHIFT) |
		 RONIC_SRRCTL_DESCTYPE_ADV_ONEBUF;
	if (ronic_hw_rx_drop(adapter))
		srrctl |= RONIC_SRRCTL_DROP_EN;
	ronic_wr32(adapter, RONIC_SRRCTL(q), srrctl);
	ronic_hw_set_rx_ro(adapter, q, adapter->ro.decision.dca_rxctrl);

	ronic_wr32(adapter, RONIC_RXDCTL(q),
		   RONIC_RXDCTL_DEFAULT | RONIC_RXDCTL_QUEUE_ENABLE);
	ronic_hw_wait_queue(adapter, RONIC_RXDCTL(q), true);
}

/**
 * ronic_hw_enable_tx - turn the transmitter on
 * @adapter: the device
 */
void ronic_hw_enable_tx(struct ronic_adapter *adapter)
{
	ronic_wr32(adapter, RONIC_TCTL, RONIC_TCTL_EN | RONIC_TCTL_PSP |
		   RONIC_TCTL_RTLC | (0xF << RONIC_TCTL_CT_SHIFT) |
		   (0x3F << RONIC_TCTL_COLD_SHIFT));
	ronic_flush(adapter);
}

/**
 * ronic_hw_enable_rx - turn the receiver on
 * @adapter: the device
 * @max_frame: longest frame to accept, FCS included
 */
void ronic_hw_enable_rx(struct ronic_adapter *adapter, u32 max_frame)
{
	u32 rctl;

	ronic_wr32(adapter, RONIC_RLPML, max_frame);
	spin_lock_bh(&adapter->rctl_lock);
	rctl = ronic_rd32(adapter, RONIC_RCTL);
	rctl &= ~(RONIC_RCTL_LBM_MASK | RONIC_RCTL_MO_MASK | RONIC_RCTL_SBP);
	rctl |= RONIC_RCTL_EN | RONIC_RCTL_BAM | RONIC_RCTL_SECRC |
		RONIC_RCTL_LPE;
	ronic_wr32(adapter, RONIC_RCTL, rctl);
	spin_unlock_bh(&adapter->rctl_lock);
	ronic_flush(adapter);
}

/**
 * ronic_hw_set_wake - program the wake-up filters, or clear them
 * @adapter: the device, stopped (its receiver is turned on for the filters)
 * @wufc: RONIC_WUFC_* filters to wake on; 0 clears wake-up
 */
void ronic_hw_set_wake(struct ronic_adapter *adapter, u32 wufc)
{
	u32 rctl;

	if (!wufc) {
		ronic_wr32(adapter, RONIC_WUFC, 0);
		ronic_wr32(adapter, RONIC_WUC, 0);
		return;
	}
	/* The filters see only what the receiver accepts. */
	spin_lock_bh(&adapter->rctl_lock);
	rctl = ronic_rd32(adapter, RONIC_RCTL) | RONIC_RCTL_EN | RONIC_RCTL_BAM;
	if (wufc & RONIC_WUFC_MC)
		rctl |= RONIC_RCTL_MPE;
	ronic_wr32(adapter, RONIC_RCTL, rctl);
	spin_unlock_bh(&adapter->rctl_lock);
	ronic_wr32(adapter, RONIC_WUFC, wufc);
	ronic_wr32(adapter, RONIC_WUC, RONIC_WUC_PME_EN);
	ronic_flush(adapter);
}

/**
 * ronic_hw_disable_rxtx - stop the receiver and the transmitter
 * @adapter: the device
 */
void ronic_hw_disable_rxtx(struct ronic_adapter *adapter)
{
	spin_lock_bh(&adapter->rctl_lock);
	ronic_wr32(adapter, RONIC_RCTL,
		   ronic_rd32(adapter, RONIC_RCTL) & ~RONIC_RCTL_EN);
	spin_unlock_bh(&adapter->rctl_lock);
	ronic_wr32(adapter, RONIC_TCTL,
		   ronic_rd32(adapter, RONIC_TCTL) & ~RONIC_TCTL_EN);
	ronic_flush(adapter);
	usleep_range(10000, 11000);
}

/**
 * ronic_hw_write_vfta - load the VLAN filter table from the driver's bitmap
 * @adapter: the device
 *
 * VLAN 0 is always in the table, whatever the bitmap says.
 */
void ronic_hw_write_vfta(struct ronic_adapter *adapter)
{
	unsigned int i, b;
	u32 word;

	for (i = 0; i < RONIC_VFTA_ENTRIES; i++) {
		/* VLAN 0 always passes: priority-tagged frames are untagged. */
		word = i ? 0 : BIT(0);
		for (b = 0; b < 32; b++)
			if (test_bit(i * 32 + b, adapter->active_vlans))
				word |= BIT(b);
		ronic_wr32(adapter, RONIC_VFTA(i), word);
	}
}

/**
 * ronic_hw_set_vfta_bit - let one VLAN id through the filter, or not
 * @adapter: the device
 * @vid: the VLAN id, 0..4095
 * @on: accept it
 */
void ronic_hw_set_vfta_bit(struct ronic_adapter *adapter, u16 vid, bool on)
{
	u32 reg = RONIC_VFTA(vid >> 5);
	u32 word = ronic_rd32(adapter, reg);

	if (on)
		word |= BIT(vid & 0x1F);
	else
		word &= ~BIT(vid & 0x1F);
	ronic_wr32(adapter, reg, word);
}

/**
 * ronic_hw_set_rx_features - apply the receive offloads the stack asked for
 * @adapter: the device
 * @features: the netdev's features
 */
void ronic_hw_set_rx_features(struct ronic_adapter *adapter,
			      netdev_features_t features)
{
	/* PCSD: the descriptor carries the RSS hash, not a packet checksum. */
	u32 rxcsum = RONIC_RXCSUM_PCSD;
	u32 ctrl, rctl;

	if (features & NETIF_F_RXCSUM)
		rxcsum |= RONIC_RXCSUM_IPOFL | RONIC_RXCSUM_TUOFL |
			  RONIC_RXCSUM_CRCOFL;
	ronic_wr32(adapter, RONIC_RXCSUM, rxcsum);

	/* CTRL.VME strips the 802.1Q tag on rx (and lets tx insert one). */
	ctrl = ronic_rd32(adapter, RONIC_CTRL);
	if (features & NETIF_F_HW_VLAN_CTAG_RX)
		ctrl |= RONIC_CTRL_VME;
	else
		ctrl &= ~RONIC_CTRL_VME;
	ronic_wr32(adapter, RONIC_CTRL, ctrl);

	/* RCTL.VFE drops tagged frames whose id has no VFTA bit. */
	spin_lock_bh(&adapter->rctl_lock);
	rctl = ronic_rd32(adapter, RONIC_RCTL);
	if (features & NETIF_F_HW_VLAN_CTAG_FILTER)
		rctl |= RONIC_RCTL_VFE;
	else
		rctl &= ~RONIC_RCTL_VFE;
	ronic_wr32(adapter, RONIC_RCTL, rctl);
	spin_unlock_bh(&adapter->rctl_lock);
}

/**
 * ronic_hw_setup_rss - program the key, the indirection table and the hashes
 * @adapter: the device, with rss_key, rss_reta and the UDP choices set
 */
void ronic_hw_setup_rss(struct ronic_adapter *adapter)
{
	unsigned int i, j;
	u32 reta, mrqc;

	for (i = 0; i < ARRAY_SIZE(adapter->rss_key); i++)
		ronic_wr32(adapter, RONIC_RSSRK(i), adapter->rss_key[i]);

	for (i = 0; i < RONIC_RETA_ENTRIES / 4; i++) {
		reta = 0;
		for (j = 0; j < 4; j++)
			reta |= adapter->rss_reta[i * 4 + j] << (8 * j);
		ronic_wr32(adapter, RONIC_RETA(i), reta);
	}

	mrqc = RONIC_MRQC_RSS_ENABLE | RONIC_MRQC_RSS_IPV4 |
	       RONIC_MRQC_RSS_IPV4_TCP | RONIC_MRQC_RSS_IPV6 |
	       RONIC_MRQC_RSS_IPV6_TCP | RONIC_MRQC_RSS_IPV6_EX |
	       RONIC_MRQC_RSS_IPV6_TCP_EX;
	if (adapter->rss_udp4)
		mrqc |= RONIC_MRQC_RSS_IPV4_UDP;
	if (adapter->rss_udp6)
		mrqc |= RONIC_MRQC_RSS_IPV6_UDP;
	ronic_wr32(adapter, RONIC_MRQC, mrqc);
}

/**
 * ronic_hw_setup_flow_control - 802.3x pause as the adapter asks
 * @adapter: the device, with rx_pause and tx_pause set
 */
void ronic_hw_setup_flow_control(struct ronic_adapter *adapter)
{
	u32 ctrl = ronic_rd32(adapter, RONIC_CTRL);

	/* The 802.3x pause destination address and type. */
	ronic_wr32(adapter, RONIC_FCAL, 0x00C28001);
	ronic_wr32(adapter, RONIC_FCAH, 0x0100);
	ronic_wr32(adapter, RONIC_FCT, 0x8808);
	ronic_wr32(adapter, RONIC_FCTTV, 0xFFFF);
	/* XOFF with 16 KB of the 64 KB rx buffer left, XON at 24 KB. */
	ronic_wr32(adapter, RONIC_FCRTH, 0xBFF0);
	ronic_wr32(adapter, RONIC_FCRTL, 0xA000 | RONIC_FCRTL_XONE);

	ctrl &= ~(RONIC_CTRL_RFCE | RONIC_CTRL_TFCE);
	if (adapter->rx_pause)
		ctrl |= RONIC_CTRL_RFCE;
	if (adapter->tx_pause)
		ctrl |= RONIC_CTRL_TFCE;
	ronic_wr32(adapter, RONIC_CTRL, ctrl);
	ronic_hw_update_rx_drop(adapter);
}

/* Multicast table index with MO = 0: bits 47:36 of the address. */
static u32 ronic_hw_mta_hash(const u8 *addr)
{
	return ((addr[4] >> 4) | ((u32)addr[5] << 4)) & 0xFFF;
}

/**
 * ronic_hw_set_rx_mode - program unicast, multicast and promiscuous filters
 * @adapter: the device
 * @netdev: its netdev, whose address lists and flags are followed
 *
 * The caller holds the netdev's address lock (ndo_set_rx_mode does), so
 * the lists hold still and two updates never interleave; outside it, call
 * ronic_hw_sync_rx_mode().
 */
void ronic_hw_set_rx_mode(struct ronic_adapter *adapter,
			  struct net_device *netdev)
{
	u32 mta[RONIC_MTA_ENTRIES] = { };
	struct netdev_hw_addr *ha;
	unsigned int i, rar = 1;
	u32 rctl, mode = 0, hash;

	if (netdev->flags & IFF_PROMISC)
		mode |= RONIC_RCTL_UPE | RONIC_RCTL_MPE;
	else if (netdev->flags & IFF_ALLMULTI)
		mode |= RONIC_RCTL_MPE;

	/* Extra unicast addresses take filter entries; too many, promiscuous. */
	if (netdev_uc_count(netdev) > RONIC_RAR_ENTRIES - 1) {
		mode |= RONIC_RCTL_UPE;
	} else {
		netdev_for_each_uc_addr(ha, netdev)
			ronic_hw_set_rar(adapter, rar++, ha->addr);
	}
	for (; rar < RONIC_RAR_ENTRIES; rar++)
		ronic_hw_clear_rar(adapter, rar);

	netdev_for_each_mc_addr(ha, netdev) {
		hash = ronic_hw_mta_hash(ha->addr);
		mta[hash >> 5] |= BIT(hash & 0x1F);
	}
	for (i = 0; i < RONIC_MTA_ENTRIES; i++)
		ronic_wr32(adapter, RONIC_MTA(i), mta[i]);

	/* Already in BH under the address lock; _bh for the rtnl callers. */
	spin_lock_bh(&adapter->rctl_lock);
	rctl = ronic_rd32(adapter, RONIC_RCTL);
	rctl &= ~(RONIC_RCTL_UPE | RONIC_RCTL_MPE);
	ronic_wr32(adapter, RONIC_RCTL, rctl | mode);
	spin_unlock_bh(&adapter->rctl_lock);
}

/**
 * ronic_hw_sync_rx_mode - ronic_hw_set_rx_mode() from outside ndo_set_rx_mode
 * @adapter: the device
 * @netdev: its netdev
 *
 * For bring-up under rtnl, which does not keep the address lists still:
 * another CPU may add or remove addresses under the address lock meanwhile.
 * Must not be called with the address lock held.
 */
void ronic_hw_sync_rx_mode(struct ronic_adapter *adapter,
			   struct net_device *netdev)
{
	netif_addr_lock_bh(netdev);
	ronic_hw_set_rx_mode(adapter, netdev);
	netif_addr_unlock_bh(netdev);
}

static void ronic_hw_write_ivar(struct ronic_adapter *adapter, u8 queue,
				u8 vector, bool tx)
{
	/* 82576: IVAR(q & 7) holds rx/tx of queue q in byte 0/1, q + 8 in 2/3 */
	unsigned int shift = (queue & 0x8 ? 16 : 0) + (tx ? 8 : 0);
	u32 reg = RONIC_IVAR(queue & 0x7);
	u32 ivar = ronic_rd32(adapter, reg);

	ivar &= ~(0xFFu << shift);
	ivar |= (u32)(vector | RONIC_IVAR_VALID) << shift;
	ronic_wr32(adapter, reg, ivar);
}

static void ronic_hw_route_queues(struct ronic_adapter *adapter)
{
	struct ronic_q_vector *qv;
	unsigned int v, x;

	for (v = 0; v < adapter->num_q_vectors; v++) {
		qv = adapter->q_vector[v];
		if (qv->rx_ring)
			ronic_hw_write_ivar(adapter, qv->rx_ring->reg_idx,
					    qv->msix_vector, false);
		if (qv->tx_ring)
			ronic_hw_write_ivar(adapter, qv->tx_ring->reg_idx,
					    qv->msix_vector, true);
		for (x = 0; x < qv->num_xdp_rings; x++)
			ronic_hw_write_ivar(adapter, qv->xdp_ring[x]->reg_idx,
					    qv->msix_vector, true);
		ronic_hw_write_itr(adapter, qv);
	}
}

/**
 * ronic_hw_setup_msix - route queue and link causes to their MSI-X vectors
 * @adapter: the device, its queue vectors assigned
 */
void ronic_hw_setup_msix(struct ronic_adapter *adapter)
{
	unsigned int i;

	for (i = 0; i < RONIC_NUM_HW_QUEUES / 2; i++)
		ronic_wr32(adapter, RONIC_IVAR(i), 0);
	ronic_wr32(adapter, RONIC_GPIE, RONIC_GPIE_MSIX_MODE |
		   RONIC_GPIE_PBA | RONIC_GPIE_NSICR);
	ronic_wr32(adapter, RONIC_IVAR_MISC,
		   (RONIC_OTHER_VECTOR | RONIC_IVAR_VALID) << 8);
	ronic_hw_route_queues(adapter);
	/*
	 * Every cause clears itself in EICR when its message is sent: a bit
	 * left set would swallow the next interrupt of its vector (the next
	 * link change would wait for the watchdog's poll).
	 */
	ronic_wr32(adapter, RONIC_EIAC, adapter->eims_queues | adapter->eims_other);
	ronic_flush(adapter);
}

/**
 * ronic_hw_setup_legacy_irq - one vector (MSI or INTx) for everything
 * @adapter: the device, one queue vector assigned
 */
void ronic_hw_setup_legacy_irq(struct ronic_adapter *adapter)
{
	unsigned int i;

	for (i = 0; i < RONIC_NUM_HW_QUEUES / 2; i++)
		ronic_wr32(adapter, RONIC_IVAR(i), 0);
	ronic_wr32(adapter, RONIC_GPIE, 0);
	ronic_hw_route_queues(adapter);
	ronic_flush(adapter);
}

#define RONIC_IMS_LEGACY	(RONIC_ICR_TXDW | RONIC_ICR_LSC | \
				 RONIC_ICR_RXSEQ | RONIC_ICR_RXDMT0 | \
				 RONIC_ICR_RXO | RONIC_ICR_RXT0)

/**
 * ronic_hw_irq_enable - unmask link and queue causes
 * @adapter: the device
 */
void ronic_hw_irq_enable(struct ronic_adapter *adapter)
{
	if (adapter->irq_mode == RONIC_IRQ_MSIX) {
		ronic_wr32(adapter, RONIC_IMS, RONIC_ICR_LSC | RONIC_ICR_DRSTA);
		ronic_wr32(adapter, RONIC_EIMS,
			   adapter->eims_other | adapter->eims_queues);
	} else {
		ronic_wr32(adapter, RONIC_IMS, RONIC_IMS_LEGACY);
		ronic_wr32(adapter, RONIC_EIMS, adapter->eims_queues);
	}
	ronic_flush(adapter);
}

/**
 * ronic_hw_irq_disable - mask every cause
 * @adapter: the device
 */
void ronic_hw_irq_disable(struct ronic_adapter *adapter)
{
	ronic_wr32(adapter, RONIC_EIMC, ~0u);
	ronic_wr32(adapter, RONIC_EIAC, 0);
	ronic_wr32(adapter, RONIC_IMC, ~0u);
	ronic_flush(adapter);
}

/**
 * ronic_hw_write_itr - program a vector's interrupt throttling interval
 * @adapter: the device
 * @q_vector: the vector, with itr_val set
 */
void ronic_hw_write_itr(struct ronic_adapter *adapter,
			struct ronic_q_vector *q_vector)
{
	ronic_wr32(adapter, RONIC_EITR(q_vector->msix_vector),
		   (q_vector->itr_val & RONIC_EITR_INTERVAL_MASK) |
		   RONIC_EITR_CNT_IGNR);
}

/**
 * ronic_hw_kick_queues - raise every queue vector's interrupt by software
 * @adapter: the device
 */
void ronic_hw_kick_queues(struct ronic_adapter *adapter)
{
	if (adapter->irq_mode == RONIC_IRQ_MSIX)
		ronic_wr32(adapter, RONIC_EICS, adapter->eims_queues);
	else
		ronic_wr32(adapter, RONIC_ICS, RONIC_ICR_RXT0);
}

/**
 * ronic_hw_kick_vector - raise one queue vector's interrupt by software
 * @adapter: the device
 * @qv: the vector
 */
void ronic_hw_kick_vector(struct ronic_adapter *adapter,
			  struct ronic_q_vector *qv)
{
	if (adapter->irq_mode == RONIC_IRQ_MSIX)
		ronic_wr32(adapter, RONIC_EICS, qv->eims);
	else
		ronic_wr32(adapter, RONIC_ICS, RONIC_ICR_RXT0);
}

/**
 * ronic_hw_read_clear_causes - read and clear the legacy interrupt causes
 * @adapter: the device
 *
 * Return: the ICR causes that were pending.
 */
u32 ronic_hw_read_clear_causes(struct ronic_adapter *adapter)
{
	return ronic_rd32(adapter, RONIC_ICR);
}

/* 64-bit counters clear when their high half is read: low first. */
static u64 ronic_hw_rd64(struct ronic_adapter *adapter, u32 lo, u32 hi)
{
	u64 val = ronic_rd32(adapter, lo);

	return val | ((u64)ronic_rd32(adapter, hi) << 32);
}

/**
 * ronic_hw_update_stats - fold the clear-on-read MAC counters into @stats
 * @adapter: the device
 * @stats: running totals
 */
void ronic_hw_update_stats(struct ronic_adapter *adapter,
			   struct ronic_hw_stats *stats)
{
	unsigned int i;

	stats->crcerrs += ronic_rd32(adapter, RONIC_CRCERRS);
	stats->algnerrc += ronic_rd32(adapter, RONIC_ALGNERRC);
	stats->rxerrc += ronic_rd32(adapter, RONIC_RXERRC);
	stats->mpc += ronic_rd32(adapter, RONIC_MPC);
	stats->colc += ronic_rd32(adapter, RONIC_COLC);
	stats->rlec += ronic_rd32(adapter, RONIC_RLEC);
	stats->xonrxc += ronic_rd32(adapter, RONIC_XONRXC);
	stats->xontxc += ronic_rd32(adapter, RONIC_XONTXC);
	stats->xoffrxc += ronic_rd32(adapter, RONIC_XOFFRXC);
	stats->xofftxc += ronic_rd32(adapter, RONIC_XOFFTXC);
	stats->gprc += ronic_rd32(adapter, RONIC_GPRC);
	stats->bprc += ronic_rd32(adapter, RONIC_BPRC);
	stats->mprc += ronic_rd32(adapter, RONIC_MPRC);
	stats->gptc += ronic_rd32(adapter, RONIC_GPTC);
	stats->gorc += ronic_hw_rd64(adapter, RONIC_GORCL, RONIC_GORCH);
	stats->gotc += ronic_hw_rd64(adapter, RONIC_GOTCL, RONIC_GOTCH);
	stats->rnbc += ronic_rd32(adapter, RONIC_RNBC);
	stats->ruc += ronic_rd32(adapter, RONIC_RUC);
	stats->rfc += ronic_rd32(adapter, RONIC_RFC);
	stats->roc += ronic_rd32(adapter, RONIC_ROC);
	stats->rjc += ronic_rd32(adapter, RONIC_RJC);
	stats->tor += ronic_hw_rd64(adapter, RONIC_TORL, RONIC_TORH);
	stats->tot += ronic_hw_rd64(adapter, RONIC_TOTL, RONIC_TOTH);
	stats->tpr += ronic_rd32(adapter, RONIC_TPR);
	stats->tpt += ronic_rd32(adapter, RONIC_TPT);
	stats->mptc += ronic_rd32(adapter, RONIC_MPTC);
	stats->bptc += ronic_rd32(adapter, RONIC_BPTC);
	for (i = 0; i < ARRAY_SIZE(stats->prc); i++) {
		stats->prc[i] += ronic_rd32(adapter, RONIC_PRC64 + 4 * i);
		stats->ptc[i] += ronic_rd32(adapter, RONIC_PTC64 + 4 * i);
	}
}

/* Global registers in the dump, then 16 per-queue blocks. */
static const u32 ronic_hw_dump_global[] = {
	RONIC_CTRL, RONIC_STATUS, RONIC_CTRL_EXT, RONIC_RCTL, RONIC_TCTL,
	RONIC_RXCSUM, RONIC_RLPML, RONIC_MRQC, RONIC_GPIE, RONIC_EIMS,
	RONIC_IMS, RONIC_IVAR_MISC, RONIC_IVAR(0), RONIC_IVAR(1),
	RONIC_IVAR(2), RONIC_IVAR(3), RONIC_IVAR(4), RONIC_IVAR(5),
	RONIC_IVAR(6), RONIC_IVAR(7), RONIC_FCRTL, RONIC_FCRTH,
};

#define RONIC_HW_DUMP_PER_QUEUE	17

/* After the queue blocks, so that every earlier word keeps its place. */
static const u32 ronic_hw_dump_tail[] = {
	RONIC_LEDCTL, RONIC_EECD,
};

/**
 * ronic_hw_regs_len - bytes of the register dump
 *
 * Return: the size ronic_hw_get_regs() fills.
 */
u32 ronic_hw_regs_len(void)
{
	return sizeof(u32) * (ARRAY_SIZE(ronic_hw_dump_global) +
			      RONIC_NUM_HW_QUEUES * RONIC_HW_DUMP_PER_QUEUE +
			      ARRAY_SIZE(ronic_hw_dump_tail));
}

/**
 * ronic_hw_get_regs - the register dump of ethtool -d
 * @adapter: the device
 * @buf: ronic_hw_regs_len() bytes
 *
 * Per queue: RDBAL, RDBAH, RDLEN, RDH, RDT, RXDCTL, SRRCTL, DCA_RXCTRL as
 * read, DCA_RXCTRL as written (QEMU's model reads it as 0), TDBAL, TDBAH,
 * TDLEN, TDH, TDT, TXDCTL, DCA_TXCTRL, EITR of the vector of that index.
 * Then LEDCTL and EECD (dump version 2; version 1 ended with the queue
 * blocks).
 */
void ronic_hw_get_regs(struct ronic_adapter *adapter, u32 *buf)
{
	unsigned int i, q;

	for (i = 0; i < ARRAY_SIZE(ronic_hw_dump_global); i++)
		*buf++ = ronic_rd32(adapter, ronic_hw_dump_global[i]);
	for (q = 0; q < RONIC_NUM_HW_QUEUES; q++) {
		*buf++ = ronic_rd32(adapter, RONIC_RDBAL(q));
		*buf++ = ronic_rd32(adapter, RONIC_RDBAH(q));
		*buf++ = ronic_rd32(adapter, RONIC_RDLEN(q));
		*buf++ = ronic_rd32(adapter, RONIC_RDH(q));
		*buf++ = ronic_rd32(adapter, RONIC_RDT(q));
		*buf++ = ronic_rd32(adapter, RONIC_RXDCTL(q));
		*buf++ = ronic_rd32(adapter, RONIC_SRRCTL(q));
		*buf++ = ronic_rd32(adapter, RONIC_DCA_RXCTRL(q));
		*buf++ = adapter->dca_rxctrl_shadow[q];
		*buf++ = ronic_rd32(adapter, RONIC_TDBAL(q));
		*buf++ = ronic_rd32(adapter, RONIC_TDBAH(q));
		*buf++ = ronic_rd32(adapter, RONIC_TDLEN(q));
		*buf++ = ronic_rd32(adapter, RONIC_TDH(q));
		*buf++ = ronic_rd32(adapter, RONIC_TDT(q));
		*buf++ = ronic_rd32(adapter, RONIC_TXDCTL(q));
		*buf++ = ronic_rd32(adapter, RONIC_DCA_TXCTRL(q));
		*buf++ = ronic_rd32(adapter, RONIC_EITR(q < 10 ? q : 0));
	}
	for (i = 0; i < ARRAY_SIZE(ronic_hw_dump_tail); i++)
		*buf++ = ronic_rd32(adapter, ronic_hw_dump_tail[i]);
}
