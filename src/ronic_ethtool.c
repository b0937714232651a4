// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: ethtool operations.
 */
#include <linux/ethtool.h>
#include <linux/linkmode.h>
#include <linux/pci.h>

#include "ronic.h"

static void ronic_get_drvinfo(struct net_device *netdev,
			      struct ethtool_drvinfo *info)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	strscpy(info->driver, RONIC_DRV_NAME, sizeof(info->driver));
	strscpy(info->version, RONIC_DRV_VERSION, sizeof(info->version));
	strscpy(info->bus_info, pci_name(adapter->pdev), sizeof(info->bus_info));
}

static int ronic_get_link_ksettings(struct net_device *netdev,
				    struct ethtool_link_ksettings *cmd)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	ethtool_link_ksettings_zero_link_mode(cmd, supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_10baseT_Half_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_10baseT_Full_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_100baseT_Half_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_100baseT_Full_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_1000baseT_Full_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_Autoneg_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_TP_BIT, cmd->link_modes.supported);
	linkmode_copy(cmd->link_modes.advertising, cmd->link_modes.supported);

	cmd->base.port = PORT_TP;
	cmd->base.autoneg = AUTONEG_ENABLE;
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
static_assert(sizeof(struct ronic_tx_xmit_stats) == 6 * sizeof(u64_stats_t));
static_assert(sizeof(struct ronic_rx_ring_stats) == 10 * sizeof(u64_stats_t));
static_assert(sizeof(struct ronic_xdp_ring_stats) == 2 * sizeof(u64_stats_t));

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
};

/* Per stack tx queue, then per rx queue, then per XDP ring. */
static const char * const ronic_txq_stat_names[] = {
	"packets", "bytes", "restarts", "busy", "map_errors", "csum_offload",
	"tso", "linearized", "dropped",
};

static const char * const ronic_rxq_stat_names[] = {
	"packets", "bytes", "alloc_failed", "csum_err", "csum_ok", "dropped",
	"xdp_pass", "xdp_drop", "xdp_tx", "xdp_redirect", "xdp_aborted",
	"xdp_tx_errors",
};

static const char * const ronic_xdpq_stat_names[] = {
	"packets", "bytes", "xdp_xmit", "xdp_tx_errors",
};

static int ronic_stats_count(struct ronic_adapter *adapter)
{
	return ARRAY_SIZE(ronic_hw_stat_desc) + ARRAY_SIZE(ronic_drv_stat_names) +
	       adapter->num_queues * (ARRAY_SIZE(ronic_txq_stat_names) +
				      ARRAY_SIZE(ronic_rxq_stat_names)) +
	       adapter->num_xdp_rings * ARRAY_SIZE(ronic_xdpq_stat_names);
}

static int ronic_get_sset_count(struct net_device *netdev, int sset)
{
	switch (sset) {
	case ETH_SS_STATS:
		return ronic_stats_count(netdev_priv(netdev));
	case ETH_SS_PRIV_FLAGS:
		return ARRAY_SIZE(ronic_priv_flag_names);
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
		break;
	case ETH_SS_PRIV_FLAGS:
		for (i = 0; i < ARRAY_SIZE(ronic_priv_flag_names); i++)
			ethtool_puts(&data, ronic_priv_flag_names[i]);
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
	struct ronic_ring *ring;
	unsigned int i;

	spin_lock_bh(&adapter->stats_lock);
	for (i = 0; i < ARRAY_SIZE(ronic_hw_stat_desc); i++)
		*data++ = *(u64 *)((u8 *)&adapter->hw_stats +
				   ronic_hw_stat_desc[i].offset);
	spin_unlock_bh(&adapter->stats_lock);
	*data++ = adapter->tx_timeouts;
	*data++ = adapter->resets;

	for (i = 0; i < adapter->num_queues; i++) {
		ring = adapter->tx_ring[i];
		ronic_stats_read(&ring->syncp, &ring->stats.packets, 2, data);
		data += 2;
		ronic_stats_read(&ring->syncp, &ring->tx_stats.restarts, 1, data);
		data += 1;
		ronic_stats_read(&ring->xmit_syncp, &ring->xmit_stats.busy,
				 RONIC_NR_STATS(ring->xmit_stats), data);
		data += RONIC_NR_STATS(ring->xmit_stats);
	}
	for (i = 0; i < adapter->num_queues; i++) {
		ring = adapter->rx_ring[i];
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

const struct ethtool_ops ronic_ethtool_ops = {
	.get_drvinfo		= ronic_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= ronic_get_link_ksettings,
	.get_ringparam		= ronic_get_ringparam,
	.get_channels		= ronic_get_channels,
	.get_sset_count		= ronic_get_sset_count,
	.get_ethtool_stats	= ronic_get_ethtool_stats,
	.get_strings		= ronic_get_strings,
	.get_priv_flags		= ronic_get_priv_flags,
	.set_priv_flags		= ronic_set_priv_flags,
};
