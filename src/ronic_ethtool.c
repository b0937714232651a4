// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: ethtool operations.
 */
#include <linux/ethtool.h>
#include <linux/linkmode.h>
#include <linux/pci.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_hw.h"
#include "ronic_selftest.h"
#include "ronic_stats.h"

static void ronic_get_drvinfo(struct net_device *netdev,
			      struct ethtool_drvinfo *info)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	strscpy(info->driver, RONIC_DRV_NAME, sizeof(info->driver));
	strscpy(info->version, RONIC_DRV_VERSION, sizeof(info->version));
	strscpy(info->fw_version, adapter->nvm_version, sizeof(info->fw_version));
	strscpy(info->bus_info, pci_name(adapter->pdev), sizeof(info->bus_info));
}

/* Modes the PHY can advertise; adapter->advertising holds BIT(mode). */
static const enum ethtool_link_mode_bit_indices ronic_link_modes[] = {
	ETHTOOL_LINK_MODE_10baseT_Half_BIT,
	ETHTOOL_LINK_MODE_10baseT_Full_BIT,
	ETHTOOL_LINK_MODE_100baseT_Half_BIT,
	ETHTOOL_LINK_MODE_100baseT_Full_BIT,
	ETHTOOL_LINK_MODE_1000baseT_Full_BIT,
};

static int ronic_get_link_ksettings(struct net_device *netdev,
				    struct ethtool_link_ksettings *cmd)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	unsigned int i;

	ethtool_link_ksettings_zero_link_mode(cmd, supported);
	ethtool_link_ksettings_zero_link_mode(cmd, advertising);
	for (i = 0; i < ARRAY_SIZE(ronic_link_modes); i++) {
		linkmode_set_bit(ronic_link_modes[i], cmd->link_modes.supported);
		if (adapter->autoneg && (adapter->advertising & BIT(ronic_link_modes[i])))
			linkmode_set_bit(ronic_link_modes[i], cmd->link_modes.advertising);
	}
	linkmode_set_bit(ETHTOOL_LINK_MODE_Autoneg_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_TP_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_Pause_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_Asym_Pause_BIT, cmd->link_modes.supported);
	if (adapter->autoneg)
		linkmode_set_bit(ETHTOOL_LINK_MODE_Autoneg_BIT,
				 cmd->link_modes.advertising);

	cmd->base.port = PORT_TP;
	cmd->base.phy_address = RONIC_PHY_ADDR;
	cmd->base.autoneg = adapter->autoneg ? AUTONEG_ENABLE : AUTONEG_DISABLE;
	if (netif_carrier_ok(netdev)) {
		cmd->base.speed = adapter->link_speed;
		cmd->base.duplex = adapter->link_full_duplex ? DUPLEX_FULL :
							       DUPLEX_HALF;
	} else {
		cmd->base.speed = SPEED_UNKNOWN;
		cmd->base.duplex = DUPLEX_UNKNOWN;
	}
	return 0;
}

static int ronic_set_link_ksettings(struct net_device *netdev,
				    const struct ethtool_link_ksettings *cmd)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	u32 advertising = 0;
	unsigned int i;

	if (cmd->base.autoneg == AUTONEG_ENABLE) {
		for (i = 0; i < ARRAY_SIZE(ronic_link_modes); i++)
			if (linkmode_test_bit(ronic_link_modes[i],
					      cmd->link_modes.advertising))
				advertising |= BIT(ronic_link_modes[i]);
		if (!advertising)
			return -EINVAL;
		adapter->autoneg = true;
		adapter->advertising = advertising;
	} else {
		/* 1000BASE-T needs autonegotiation to pick master and slave. */
		if (cmd->base.speed != SPEED_10 && cmd->base.speed != SPEED_100)
			return -EINVAL;
		if (cmd->base.duplex != DUPLEX_FULL && cmd->base.duplex != DUPLEX_HALF)
			return -EINVAL;
		adapter->autoneg = false;
		adapter->forced_speed = cmd->base.speed;
		adapter->forced_duplex = cmd->base.duplex;
	}
	return ronic_hw_setup_link(adapter);
}

static void ronic_get_pauseparam(struct net_device *netdev,
				 struct ethtool_pauseparam *pause)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	pause->autoneg = AUTONEG_DISABLE;
	pause->rx_pause = adapter->rx_pause;
	pause->tx_pause = adapter->tx_pause;
}

static int ronic_set_pauseparam(struct net_device *netdev,
				struct ethtool_pauseparam *pause)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	if (pause->autoneg)
		return -EOPNOTSUPP;
	adapter->rx_pause = pause->rx_pause;
	adapter->tx_pause = pause->tx_pause;
	/* Also sets SRRCTL.DROP_EN of the running rx queues to match. */
	ronic_hw_setup_flow_control(adapter);
	return 0;
}

static void ronic_get_pause_stats(struct net_device *netdev,
				  struct ethtool_pause_stats *stats)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	spin_lock_bh(&adapter->stats_lock);
	stats->tx_pause_frames = adapter->hw_stats.xofftxc + adapter->hw_stats.xontxc;
	stats->rx_pause_frames = adapter->hw_stats.xoffrxc + adapter->hw_stats.xonrxc;
	spin_unlock_bh(&adapter->stats_lock);
}

static void ronic_get_eth_mac_stats(struct net_device *netdev,
				    struct ethtool_eth_mac_stats *mac)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	const struct ronic_hw_stats *hw = &adapter->hw_stats;

	spin_lock_bh(&adapter->stats_lock);
	mac->FramesTransmittedOK = hw->gptc;
	mac->FramesReceivedOK = hw->gprc;
	mac->FrameCheckSequenceErrors = hw->crcerrs;
	mac->AlignmentErrors = hw->algnerrc;
	mac->OctetsTransmittedOK = hw->gotc;
	mac->OctetsReceivedOK = hw->gorc;
	mac->MulticastFramesXmittedOK = hw->mptc;
	mac->BroadcastFramesXmittedOK = hw->bptc;
	mac->MulticastFramesReceivedOK = hw->mprc;
	mac->BroadcastFramesReceivedOK = hw->bprc;
	mac->FrameTooLongErrors = hw->roc;
	mac->SingleCollisionFrames = hw->colc;
	spin_unlock_bh(&adapter->stats_lock);
}

static const struct ethtool_rmon_hist_range ronic_rmon_ranges[] = {
	{ 0, 64 }, { 65, 127 }, { 128, 255 }, { 256, 511 },
	{ 512, 1023 }, { 1024, 1522 }, { }
};

static void ronic_get_rmon_stats(struct net_device *netdev,
				 struct ethtool_rmon_stats *rmon,
				 const struct ethtool_rmon_hist_range **ranges)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	const struct ronic_hw_stats *hw = &adapter->hw_stats;
	unsigned int i;

	spin_lock_bh(&adapter->stats_lock);
	rmon->undersize_pkts = hw->ruc;
	rmon->oversize_pkts = hw->roc;
	rmon->fragments = hw->rfc;
	rmon->jabbers = hw->rjc;
	for (i = 0; i < ARRAY_SIZE(hw->prc); i++) {
		rmon->hist[i] = hw->prc[i];
		rmon->hist_tx[i] = hw->ptc[i];
	}
	spin_unlock_bh(&adapter->stats_lock);
	*ranges = ronic_rmon_ranges;
}

static int ronic_get_regs_len(struct net_device *netdev)
{
	return ronic_hw_regs_len();
}

static void ronic_get_regs(struct net_device *netdev, struct ethtool_regs *regs,
			   void *buf)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	/* 2: LEDCTL and EECD appended after the queue blocks */
	regs->version = 2;
	ronic_hw_get_regs(adapter, buf);
}

static int ronic_get_eeprom_len(struct net_device *netdev)
{
	return ronic_hw_nvm_words(netdev_priv(netdev)) * 2;
}

/*
 * Bytes [offset, offset + len) of the EEPROM, read a word at a time
 * through EERD; each word is little endian (byte 0 of the MAC address is
 * the low byte of word 0). The core has checked the range against
 * ronic_get_eeprom_len(). There is no set_eeprom: ethtool -E is refused
 * with -EOPNOTSUPP by the core (QEMU's model drops EEPROM writes anyway).
 */
static int ronic_get_eeprom(struct net_device *netdev,
			    struct ethtool_eeprom *ee, u8 *bytes)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	u32 end = ee->offset + ee->len, pos;
	u16 word;
	int err;

	ee->magic = adapter->pdev->vendor | (adapter->pdev->device << 16);
	for (pos = ee->offset & ~1u; pos < end; pos += 2) {
		err = ronic_hw_read_eeprom(adapter, pos / 2, &word);
		if (err)
			return err;
		if (pos >= ee->offset)
			bytes[pos - ee->offset] = word & 0xff;
		if (pos + 1 < end)
			bytes[pos + 1 - ee->offset] = word >> 8;
	}
	return 0;
}

/*
 * ethtool -p: the core calls back with ON and OFF twice a second (the 2
 * returned) until the time is up; LEDCTL's own blink is not used, so the
 * identify pattern is the same whatever the EEPROM configured.
 */
static int ronic_set_phys_id(struct net_device *netdev,
			     enum ethtool_phys_id_state state)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	switch (state) {
	case ETHTOOL_ID_ACTIVE:
		adapter->ledctl_saved = ronic_hw_led_read(adapter);
		return 2;
	case ETHTOOL_ID_ON:
		ronic_hw_led_force(adapter, adapter->ledctl_saved, true);
		break;
	case ETHTOOL_ID_OFF:
		ronic_hw_led_force(adapter, adapter->ledctl_saved, false);
		break;
	case ETHTOOL_ID_INACTIVE:
		ronic_hw_led_write(adapter, adapter->ledctl_saved);
		break;
	}
	return 0;
}

static void ronic_get_ringparam(struct net_device *netdev,
				struct ethtool_ringparam *ring,
				struct kernel_ethtool_ringparam *kring,
				struct netlink_ext_ack *extack)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	ring->rx_max_pending = RONIC_MAX_RING;
	ring->tx_max_pending = RONIC_MAX_RING;
	ring->rx_pending = adapter->rx_ring_count;
	ring->tx_pending = adapter->tx_ring_count;
}

static int ronic_set_ringparam(struct net_device *netdev,
			       struct ethtool_ringparam *ring,
			       struct kernel_ethtool_ringparam *kring,
			       struct netlink_ext_ack *extack)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	if (ring->rx_mini_pending || ring->rx_jumbo_pending) {
		NL_SET_ERR_MSG_MOD(extack, "no mini or jumbo rings");
		return -EINVAL;
	}
	if (ring->tx_pending < RONIC_MIN_RING || ring->rx_pending < RONIC_MIN_RING ||
	    !IS_ALIGNED(ring->tx_pending, RONIC_RING_ALIGN) ||
	    !IS_ALIGNED(ring->rx_pending, RONIC_RING_ALIGN)) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "ring sizes must be %u to %u, multiples of %u",
				       RONIC_MIN_RING, RONIC_MAX_RING, RONIC_RING_ALIGN);
		return -EINVAL;
	}
	if (ring->tx_pending == adapter->tx_ring_count &&
	    ring->rx_pending == adapter->rx_ring_count)
		return 0;
	return ronic_reconfigure(adapter, ring->tx_pending, ring->rx_pending,
				 adapter->num_queues);
}

static void ronic_get_channels(struct net_device *netdev,
			       struct ethtool_channels *ch)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	ch->max_combined = adapter->max_queues;
	ch->combined_count = adapter->num_queues;
	if (adapter->irq_mode == RONIC_IRQ_MSIX) {
		ch->max_other = 1;
		ch->other_count = 1;
	}
}

static const char ronic_priv_flag_names[][ETH_GSTRING_LEN] = {
	"pci_ro_read",
	"pci_ro_write",
};

/* Private flag bits are the RONIC_RO_* flags, in the order named above. */
static_assert(RONIC_RO_READ == BIT(0) && RONIC_RO_WRITE == BIT(1));

/* The name lists below follow the counter structures field by field. */
static_assert(sizeof(struct ronic_tx_xmit_stats) == 10 * sizeof(u64_stats_t));
static_assert(sizeof(struct ronic_tx_ring_stats) == 2 * sizeof(u64_stats_t));
static_assert(sizeof(struct ronic_rx_ring_stats) == 11 * sizeof(u64_stats_t));
static_assert(sizeof(struct ronic_xdp_ring_stats) == 3 * sizeof(u64_stats_t));

struct ronic_stat {
	char name[ETH_GSTRING_LEN];
	unsigned int offset;
};

#define RONIC_HW_STAT(n, m) { n, offsetof(struct ronic_hw_stats, m) }
static const struct ronic_stat ronic_hw_stat_desc[] = {
	RONIC_HW_STAT("rx_crc_errors", crcerrs),
	RONIC_HW_STAT("rx_align_errors", algnerrc),
	RONIC_HW_STAT("rx_symbol_errors", rxerrc),
	RONIC_HW_STAT("rx_missed", mpc),
	RONIC_HW_STAT("collisions", colc),
	RONIC_HW_STAT("rx_length_errors", rlec),
	RONIC_HW_STAT("rx_xon", xonrxc),
	RONIC_HW_STAT("tx_xon", xontxc),
	RONIC_HW_STAT("rx_xoff", xoffrxc),
	RONIC_HW_STAT("tx_xoff", xofftxc),
	RONIC_HW_STAT("rx_good_packets", gprc),
	RONIC_HW_STAT("rx_broadcast", bprc),
	RONIC_HW_STAT("rx_multicast", mprc),
	RONIC_HW_STAT("tx_good_packets", gptc),
	RONIC_HW_STAT("rx_good_bytes", gorc),
	RONIC_HW_STAT("tx_good_bytes", gotc),
	RONIC_HW_STAT("rx_no_buffer", rnbc),
	RONIC_HW_STAT("rx_undersize", ruc),
	RONIC_HW_STAT("rx_fragments", rfc),
	RONIC_HW_STAT("rx_oversize", roc),
	RONIC_HW_STAT("rx_jabbers", rjc),
	RONIC_HW_STAT("rx_total_bytes", tor),
	RONIC_HW_STAT("tx_total_bytes", tot),
	RONIC_HW_STAT("rx_total_packets", tpr),
	RONIC_HW_STAT("tx_total_packets", tpt),
	RONIC_HW_STAT("tx_multicast", mptc),
	RONIC_HW_STAT("tx_broadcast", bptc),
};

static const char * const ronic_drv_stat_names[] = {
	"tx_timeouts",
	"resets",
	"queue_stop_timeouts",
	/* XDP since probe, every ring the port had (struct ronic_xdp_totals) */
	"xdp_pass",
	"xdp_drop",
	"xdp_tx",
	"xdp_redirect",
	"xdp_aborted",
	"xdp_tx_errors",
	"xdp_xmit",
	"xdp_xmit_errors",
	"xdp_sent_packets",
	"xdp_sent_bytes",
};

/* Per stack tx queue, then per rx queue, then per XDP ring. */
static const char * const ronic_txq_stat_names[] = {
	"packets", "bytes", "restarts", "xsk_sent", "busy", "map_errors",
	"csum_offload",
	"tso", "linearized", "dropped", "dma_weak", "copybreak", "descs",
	"head_copy",
};

static const char * const ronic_rxq_stat_names[] = {
	"packets", "bytes", "alloc_failed", "csum_err", "csum_ok", "dropped",
	"xdp_pass", "xdp_drop", "xdp_tx", "xdp_redirect", "xdp_aborted",
	"xdp_tx_errors", "xsk_received",
};

static const char * const ronic_xdpq_stat_names[] = {
	"packets", "bytes", "xdp_xmit", "xdp_tx_errors", "xdp_locked",
};

static int ronic_stats_count(struct ronic_adapter *adapter)
{
	return ARRAY_SIZE(ronic_hw_stat_desc) + ARRAY_SIZE(ronic_drv_stat_names) +
	       adapter->num_queues * (ARRAY_SIZE(ronic_txq_stat_names) +
				      ARRAY_SIZE(ronic_rxq_stat_names)) +
	       adapter->num_xdp_rings * ARRAY_SIZE(ronic_xdpq_stat_names) +
	       page_pool_ethtool_stats_get_count();
}

/*
 * The rx page_pools' counters, summed over the rings; only in kernels
 * built with CONFIG_PAGE_POOL_STATS (otherwise the count is 0).
 */
static u64 *ronic_page_pool_stats(struct ronic_adapter *adapter, u64 *data)
{
#ifdef CONFIG_PAGE_POOL_STATS
	struct page_pool_stats pp_stats = { };
	unsigned int i;

	for (i = 0; i < adapter->num_queues; i++)
		if (adapter->rx_ring[i] && adapter->rx_ring[i]->pp)
			page_pool_get_stats(adapter->rx_ring[i]->pp, &pp_stats);
	data = page_pool_ethtool_stats_get(data, &pp_stats);
#endif
	return data;
}

static int ronic_get_sset_count(struct net_device *netdev, int sset)
{
	switch (sset) {
	case ETH_SS_STATS:
		return ronic_stats_count(netdev_priv(netdev));
	case ETH_SS_PRIV_FLAGS:
		return ARRAY_SIZE(ronic_priv_flag_names);
	case ETH_SS_TEST:
		return ronic_selftest_count();
	default:
		return -EOPNOTSUPP;
	}
}

static void ronic_stat_strings(u8 **data, const char *prefix, unsigned int q,
			       const char * const *names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ethtool_sprintf(data, "%s%u_%s", prefix, q, names[i]);
}

static void ronic_get_strings(struct net_device *netdev, u32 sset, u8 *data)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	unsigned int i;

	switch (sset) {
	case ETH_SS_STATS:
		for (i = 0; i < ARRAY_SIZE(ronic_hw_stat_desc); i++)
			ethtool_puts(&data, ronic_hw_stat_desc[i].name);
		for (i = 0; i < ARRAY_SIZE(ronic_drv_stat_names); i++)
			ethtool_puts(&data, ronic_drv_stat_names[i]);
		for (i = 0; i < adapter->num_queues; i++)
			ronic_stat_strings(&data, "tx", i, ronic_txq_stat_names,
					   ARRAY_SIZE(ronic_txq_stat_names));
		for (i = 0; i < adapter->num_queues; i++)
			ronic_stat_strings(&data, "rx", i, ronic_rxq_stat_names,
					   ARRAY_SIZE(ronic_rxq_stat_names));
		for (i = 0; i < adapter->num_xdp_rings; i++)
			ronic_stat_strings(&data, "xdp", i, ronic_xdpq_stat_names,
					   ARRAY_SIZE(ronic_xdpq_stat_names));
		data = page_pool_ethtool_stats_get_strings(data);
		break;
	case ETH_SS_PRIV_FLAGS:
		for (i = 0; i < ARRAY_SIZE(ronic_priv_flag_names); i++)
			ethtool_puts(&data, ronic_priv_flag_names[i]);
		break;
	case ETH_SS_TEST:
		ronic_selftest_strings(&data);
		break;
	default:
		break;
	}
}

/* Copy @n counters of one sync domain, consistently. */
static void ronic_stats_read(const struct u64_stats_sync *syncp,
			     const u64_stats_t *src, unsigned int n, u64 *dst)
{
	unsigned int start, i;

	do {
		start = u64_stats_fetch_begin(syncp);
		for (i = 0; i < n; i++)
			dst[i] = u64_stats_read(&src[i]);
	} while (u64_stats_fetch_retry(syncp, start));
}

#define RONIC_NR_STATS(s)	(sizeof(s) / sizeof(u64_stats_t))

static void ronic_get_ethtool_stats(struct net_device *netdev,
				    struct ethtool_stats *stats, u64 *data)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_xdp_totals xdp;
	struct ronic_ring *ring;
	unsigned int i;

	spin_lock_bh(&adapter->stats_lock);
	for (i = 0; i < ARRAY_SIZE(ronic_hw_stat_desc); i++)
		*data++ = *(u64 *)((u8 *)&adapter->hw_stats +
				   ronic_hw_stat_desc[i].offset);
	spin_unlock_bh(&adapter->stats_lock);
	*data++ = adapter->tx_timeouts;
	*data++ = adapter->resets;
	*data++ = adapter->queue_stop_timeouts;
	ronic_xdp_totals_get(adapter, &xdp);
	*data++ = xdp.pass;
	*data++ = xdp.drop;
	*data++ = xdp.tx;
	*data++ = xdp.redirect;
	*data++ = xdp.aborted;
	*data++ = xdp.tx_errors;
	*data++ = xdp.xmit;
	*data++ = xdp.xmit_errors;
	*data++ = xdp.sent;
	*data++ = xdp.sent_bytes;

	/* Queues of a device that is down have no rings: they read 0. */
	memset(data, 0, (ronic_stats_count(adapter) - ARRAY_SIZE(ronic_hw_stat_desc) -
			 ARRAY_SIZE(ronic_drv_stat_names)) * sizeof(u64));
	for (i = 0; i < adapter->num_queues; i++) {
		ring = adapter->tx_ring[i];
		if (!ring) {
			data += ARRAY_SIZE(ronic_txq_stat_names);
			continue;
		}
		ronic_stats_read(&ring->syncp, &ring->stats.packets, 2, data);
		data += 2;
		ronic_stats_read(&ring->syncp, &ring->tx_stats.restarts,
				 RONIC_NR_STATS(ring->tx_stats), data);
		data += RONIC_NR_STATS(ring->tx_stats);
		ronic_stats_read(&ring->xmit_syncp, &ring->xmit_stats.busy,
				 RONIC_NR_STATS(ring->xmit_stats), data);
		data += RONIC_NR_STATS(ring->xmit_stats);
	}
	for (i = 0; i < adapter->num_queues; i++) {
		ring = adapter->rx_ring[i];
		if (!ring) {
			data += ARRAY_SIZE(ronic_rxq_stat_names);
			continue;
		}
		ronic_stats_read(&ring->syncp, &ring->stats.packets, 2, data);
		data += 2;
		ronic_stats_read(&ring->syncp, &ring->rx_stats.alloc_failed,
				 RONIC_NR_STATS(ring->rx_stats), data);
		data += RONIC_NR_STATS(ring->rx_stats);
	}
	for (i = 0; i < adapter->num_xdp_rings; i++) {
		ring = adapter->xdp_ring[i];
		ronic_stats_read(&ring->syncp, &ring->stats.packets, 2, data);
		data += 2;
		ronic_stats_read(&ring->xmit_syncp, &ring->xdp_stats.xdp_xmit,
				 RONIC_NR_STATS(ring->xdp_stats), data);
		data += RONIC_NR_STATS(ring->xdp_stats);
	}
	ronic_page_pool_stats(adapter, data);
}

static u32 ronic_get_priv_flags(struct net_device *netdev)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	return adapter->ro.flags;
}

static int ronic_set_priv_flags(struct net_device *netdev, u32 flags)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	return ronic_ro_set_flags(adapter, flags & RONIC_RO_ALL);
}

static int ronic_set_channels(struct net_device *netdev,
			      struct ethtool_channels *ch)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	unsigned int i;
	u16 old;
	int err;

	/* Only combined channels; the other-causes vector is fixed. */
	if (ch->rx_count || ch->tx_count || !ch->combined_count ||
	    ch->combined_count > adapter->max_queues ||
	    ch->other_count != (adapter->irq_mode == RONIC_IRQ_MSIX ? 1 : 0))
		return -EINVAL;
	if (ch->combined_count == adapter->num_queues)
		return 0;
	/* A table the user set keeps its entries: they must stay valid. */
	if (netif_is_rxfh_configured(netdev)) {
		for (i = 0; i < ARRAY_SIZE(adapter->rss_reta); i++) {
			if (adapter->rss_reta[i] >= ch->combined_count)
				return -EINVAL;
		}
	}

	old = adapter->num_queues;
	err = ronic_reconfigure(adapter, adapter->tx_ring_count,
				adapter->rx_ring_count, ch->combined_count);
	if (err)
		return err;
	if (!netif_is_rxfh_configured(netdev)) {
		ronic_set_default_reta(adapter);
		ronic_hw_setup_rss(adapter);
	}
	netdev_info(netdev, "%u -> %u queue pairs\n", old, adapter->num_queues);
	return 0;
}

#define RONIC_MAX_ITR_USECS	(RONIC_EITR_INTERVAL_MASK >> 2)

static int ronic_get_coalesce(struct net_device *netdev,
			      struct ethtool_coalesce *ec,
			      struct kernel_ethtool_coalesce *kec,
			      struct netlink_ext_ack *extack)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	ec->rx_coalesce_usecs = adapter->itr_usecs;
	ec->tx_coalesce_usecs = adapter->itr_usecs;
	ec->use_adaptive_rx_coalesce = adapter->itr_adaptive;
	ec->use_adaptive_tx_coalesce = adapter->itr_adaptive;
	return 0;
}

static int ronic_get_tunable(struct net_device *netdev,
			     const struct ethtool_tunable *tuna, void *data)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	switch (tuna->id) {
	case ETHTOOL_TX_COPYBREAK:
		*(u32 *)data = READ_ONCE(adapter->tx_copybreak);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/* Takes effect from the next frame: the bounce slots always exist. */
static int ronic_set_tunable(struct net_device *netdev,
			     const struct ethtool_tunable *tuna,
			     const void *data)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	u32 val;

	switch (tuna->id) {
	case ETHTOOL_TX_COPYBREAK:
		val = *(const u32 *)data;
		if (val > RONIC_TX_COPYBREAK_MAX)
			return -EINVAL;
		WRITE_ONCE(adapter->tx_copybreak, val);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int ronic_set_coalesce(struct net_device *netdev,
			      struct ethtool_coalesce *ec,
			      struct kernel_ethtool_coalesce *kec,
			      struct netlink_ext_ack *extack)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	u32 usecs = ec->rx_coalesce_usecs;
	unsigned int v;

	/* One vector serves a queue pair: rx and tx share its interval. */
	if (ec->tx_coalesce_usecs != adapter->itr_usecs &&
	    ec->tx_coalesce_usecs != usecs) {
		if (usecs != adapter->itr_usecs) {
			NL_SET_ERR_MSG_MOD(extack, "rx and tx share a vector: one value");
			return -EINVAL;
		}
		usecs = ec->tx_coalesce_usecs;
	}
	if (usecs > RONIC_MAX_ITR_USECS) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "usecs must be 0 to %u",
				       RONIC_MAX_ITR_USECS);
		return -EINVAL;
	}
	if (ec->use_adaptive_rx_coalesce != ec->use_adaptive_tx_coalesce) {
		NL_SET_ERR_MSG_MOD(extack, "adaptive-rx and adaptive-tx go together");
		return -EINVAL;
	}

	adapter->itr_usecs = usecs;
	adapter->itr_adaptive = ec->use_adaptive_rx_coalesce;
	for (v = 0; v < adapter->num_q_vectors; v++) {
		adapter->q_vector[v]->itr_val = usecs << 2;
		if (ronic_port_open(adapter))
			ronic_hw_write_itr(adapter, adapter->q_vector[v]);
	}
	return 0;
}

static u32 ronic_get_rxfh_key_size(struct net_device *netdev)
{
	return RONIC_RSS_KEY_BYTES;
}

static u32 ronic_get_rxfh_indir_size(struct net_device *netdev)
{
	return RONIC_RETA_ENTRIES;
}

/* The RSS table and key (where not NULL) and the hash function used. */
static void ronic_rss_get(struct ronic_adapter *adapter, u32 *indir, u8 *key,
			  u8 *hfunc)
{
	unsigned int i;

	if (hfunc)
		*hfunc = ETH_RSS_HASH_TOP;
	if (key)
		memcpy(key, adapter->rss_key, RONIC_RSS_KEY_BYTES);
	if (indir)
		for (i = 0; i < RONIC_RETA_ENTRIES; i++)
			indir[i] = adapter->rss_reta[i];
}

/*
 * Set the RSS table and key (where not NULL); @hfunc can only stay the
 * Toeplitz hash. A refusal says why in @extack (NULL before 6.8, whose
 * set_rxfh op has none).
 */
static int ronic_rss_set(struct ronic_adapter *adapter, const u32 *indir,
			 const u8 *key, u8 hfunc,
			 struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (hfunc != ETH_RSS_HASH_NO_CHANGE && hfunc != ETH_RSS_HASH_TOP) {
		NL_SET_ERR_MSG_MOD(extack, "only the Toeplitz hash is supported");
		return -EOPNOTSUPP;
	}
	if (indir) {
		for (i = 0; i < RONIC_RETA_ENTRIES; i++) {
			if (indir[i] >= adapter->num_queues) {
				NL_SET_ERR_MSG_FMT_MOD(extack, "no queue %u (%u queues)",
						       indir[i], adapter->num_queues);
				return -EINVAL;
			}
		}
		for (i = 0; i < RONIC_RETA_ENTRIES; i++)
			adapter->rss_reta[i] = indir[i];
	}
	if (key)
		memcpy(adapter->rss_key, key, RONIC_RSS_KEY_BYTES);
	ronic_hw_setup_rss(adapter);
	return 0;
}

/*
 * The RSS ops pass struct ethtool_rxfh_param where the kernel has it
 * (RONIC_HAVE_ETHTOOL_RXFH_PARAM), the table, key and function before.
 */
#ifdef RONIC_HAVE_ETHTOOL_RXFH_PARAM
static int ronic_get_rxfh(struct net_device *netdev,
			  struct ethtool_rxfh_param *rxfh)
{
	ronic_rss_get(netdev_priv(netdev), rxfh->indir, rxfh->key,
		      &rxfh->hfunc);
	return 0;
}

static int ronic_set_rxfh(struct net_device *netdev,
			  struct ethtool_rxfh_param *rxfh,
			  struct netlink_ext_ack *extack)
{
	return ronic_rss_set(netdev_priv(netdev), rxfh->indir, rxfh->key,
			     rxfh->hfunc, extack);
}
#else
static int ronic_get_rxfh(struct net_device *netdev, u32 *indir, u8 *key,
			  u8 *hfunc)
{
	ronic_rss_get(netdev_priv(netdev), indir, key, hfunc);
	return 0;
}

static int ronic_set_rxfh(struct net_device *netdev, const u32 *indir,
			  const u8 *key, const u8 hfunc)
{
	return ronic_rss_set(netdev_priv(netdev), indir, key, hfunc, NULL);
}
#endif

/* The header fields flow type @flow_type hashes on, in @data (RXH_*). */
static int ronic_rss_fields_get(struct ronic_adapter *adapter, u32 flow_type,
				u64 *data)
{
	switch (flow_type & ~(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS)) {
	case TCP_V4_FLOW:
	case TCP_V6_FLOW:
		*data = RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3;
		return 0;
	case UDP_V4_FLOW:
		*data = RXH_IP_SRC | RXH_IP_DST;
		if (adapter->rss_udp4)
			*data |= RXH_L4_B_0_1 | RXH_L4_B_2_3;
		return 0;
	case UDP_V6_FLOW:
		*data = RXH_IP_SRC | RXH_IP_DST;
		if (adapter->rss_udp6)
			*data |= RXH_L4_B_0_1 | RXH_L4_B_2_3;
		return 0;
	case SCTP_V4_FLOW:
	case AH_ESP_V4_FLOW:
	case IPV4_FLOW:
	case SCTP_V6_FLOW:
	case AH_ESP_V6_FLOW:
	case IPV6_FLOW:
		*data = RXH_IP_SRC | RXH_IP_DST;
		return 0;
	default:
		*data = 0;
		return -EINVAL;
	}
}

#define RONIC_RXH_L3	(RXH_IP_SRC | RXH_IP_DST)
#define RONIC_RXH_L4	(RONIC_RXH_L3 | RXH_L4_B_0_1 | RXH_L4_B_2_3)

/*
 * Hash flow type @flow_type on @data (RXH_*): UDP may add its ports. A
 * refusal says why in @extack (NULL through the rxnfc ioctl).
 */
static int ronic_rss_fields_set(struct ronic_adapter *adapter, u32 flow_type,
				u64 data, struct netlink_ext_ack *extack)
{
	bool *udp = NULL;

	switch (flow_type & ~(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS)) {
	case TCP_V4_FLOW:
	case TCP_V6_FLOW:
		if (data != RONIC_RXH_L4)
			goto unsupported;
		return 0;
	case UDP_V4_FLOW:
		udp = &adapter->rss_udp4;
		break;
	case UDP_V6_FLOW:
		udp = &adapter->rss_udp6;
		break;
	default:
		if (data != RONIC_RXH_L3)
			goto unsupported;
		return 0;
	}
	if (data == RONIC_RXH_L4)
		*udp = true;
	else if (data == RONIC_RXH_L3)
		*udp = false;
	else
		goto unsupported;
	ronic_hw_setup_rss(adapter);
	return 0;

unsupported:
	NL_SET_ERR_MSG_MOD(extack,
			   "TCP hashes on sdfn, UDP on sd or sdfn, other flows on sd");
	return -EINVAL;
}

static u32 ronic_get_rx_ring_count(struct net_device *netdev)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	return adapter->num_queues;
}

/*
 * Where the kernel has ops of their own for the flow hash fields and the
 * ring count (RONIC_HAVE_ETHTOOL_*), they are used; the rxnfc commands
 * cover what it lacks.
 */
#ifdef RONIC_HAVE_ETHTOOL_RXFH_FIELDS
static int ronic_get_rxfh_fields(struct net_device *netdev,
				 struct ethtool_rxfh_fields *fields)
{
	u64 data;
	int err;

	err = ronic_rss_fields_get(netdev_priv(netdev), fields->flow_type,
				   &data);
	fields->data = data;
	return err;
}

static int ronic_set_rxfh_fields(struct net_device *netdev,
				 const struct ethtool_rxfh_fields *fields,
				 struct netlink_ext_ack *extack)
{
	return ronic_rss_fields_set(netdev_priv(netdev), fields->flow_type,
				    fields->data, extack);
}
#endif

#if !defined(RONIC_HAVE_ETHTOOL_RXFH_FIELDS) || \
	!defined(RONIC_HAVE_ETHTOOL_RX_RING_COUNT)
static int ronic_get_rxnfc(struct net_device *netdev, struct ethtool_rxnfc *cmd,
			   u32 *rule_locs)
{
	switch (cmd->cmd) {
	case ETHTOOL_GRXRINGS:
		cmd->data = ronic_get_rx_ring_count(netdev);
		return 0;
#ifndef RONIC_HAVE_ETHTOOL_RXFH_FIELDS
	case ETHTOOL_GRXFH:
		return ronic_rss_fields_get(netdev_priv(netdev), cmd->flow_type,
					    &cmd->data);
#endif
	default:
		return -EOPNOTSUPP;
	}
}
#endif

#ifndef RONIC_HAVE_ETHTOOL_RXFH_FIELDS
static int ronic_set_rxnfc(struct net_device *netdev, struct ethtool_rxnfc *cmd)
{
	if (cmd->cmd == ETHTOOL_SRXFH)
		return ronic_rss_fields_set(netdev_priv(netdev), cmd->flow_type,
					    cmd->data, NULL);
	return -EOPNOTSUPP;
}
#endif

/* The wake-up filters the 82576 has; QEMU's model keeps but never fires them. */
#define RONIC_WAKE_SUPPORTED	(WAKE_MAGIC | WAKE_UCAST | WAKE_MCAST | WAKE_BCAST)

static void ronic_get_wol(struct net_device *netdev,
			  struct ethtool_wolinfo *wol)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	if (!device_can_wakeup(&adapter->pdev->dev))
		return;
	wol->supported = RONIC_WAKE_SUPPORTED;
	wol->wolopts = adapter->wol;
}

/* Armed when the system sleeps or shuts down (ronic_arm_wake). */
static int ronic_set_wol(struct net_device *netdev,
			 struct ethtool_wolinfo *wol)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	if (!device_can_wakeup(&adapter->pdev->dev) ||
	    wol->wolopts & ~RONIC_WAKE_SUPPORTED)
		return -EOPNOTSUPP;
	adapter->wol = wol->wolopts;
	device_set_wakeup_enable(&adapter->pdev->dev, !!adapter->wol);
	return 0;
}

const struct ethtool_ops ronic_ethtool_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS |
				     ETHTOOL_COALESCE_USE_ADAPTIVE,
	.get_drvinfo		= ronic_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_wol		= ronic_get_wol,
	.set_wol		= ronic_set_wol,
	.get_link_ksettings	= ronic_get_link_ksettings,
	.set_link_ksettings	= ronic_set_link_ksettings,
	.get_pauseparam		= ronic_get_pauseparam,
	.set_pauseparam		= ronic_set_pauseparam,
	.get_pause_stats	= ronic_get_pause_stats,
	.get_eth_mac_stats	= ronic_get_eth_mac_stats,
	.get_rmon_stats		= ronic_get_rmon_stats,
	.get_regs_len		= ronic_get_regs_len,
	.get_regs		= ronic_get_regs,
	.get_eeprom_len		= ronic_get_eeprom_len,
	.get_eeprom		= ronic_get_eeprom,
	.set_phys_id		= ronic_set_phys_id,
	/* software timestamps: the tx path calls skb_tx_timestamp() */
	.get_ts_info		= ethtool_op_get_ts_info,
	.get_ringparam		= ronic_get_ringparam,
	.set_ringparam		= ronic_set_ringparam,
	.get_channels		= ronic_get_channels,
	.set_channels		= ronic_set_channels,
	.get_coalesce		= ronic_get_coalesce,
	.set_coalesce		= ronic_set_coalesce,
	.get_tunable		= ronic_get_tunable,
	.set_tunable		= ronic_set_tunable,
	.get_rxfh_key_size	= ronic_get_rxfh_key_size,
	.get_rxfh_indir_size	= ronic_get_rxfh_indir_size,
	.get_rxfh		= ronic_get_rxfh,
	.set_rxfh		= ronic_set_rxfh,
#ifdef RONIC_HAVE_ETHTOOL_RXFH_FIELDS
	.get_rxfh_fields	= ronic_get_rxfh_fields,
	.set_rxfh_fields	= ronic_set_rxfh_fields,
#else
	.set_rxnfc		= ronic_set_rxnfc,
#endif
#ifdef RONIC_HAVE_ETHTOOL_RX_RING_COUNT
	.get_rx_ring_count	= ronic_get_rx_ring_count,
#endif
#if !defined(RONIC_HAVE_ETHTOOL_RXFH_FIELDS) || \
	!defined(RONIC_HAVE_ETHTOOL_RX_RING_COUNT)
	.get_rxnfc		= ronic_get_rxnfc,
#endif
	.get_sset_count		= ronic_get_sset_count,
	.get_ethtool_stats	= ronic_get_ethtool_stats,
	.get_strings		= ronic_get_strings,
	.get_priv_flags		= ronic_get_priv_flags,
	.set_priv_flags		= ronic_set_priv_flags,
	.self_test		= ronic_selftest,
};
