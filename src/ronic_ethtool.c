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

static int ronic_get_sset_count(struct net_device *netdev, int sset)
{
	switch (sset) {
	case ETH_SS_PRIV_FLAGS:
		return ARRAY_SIZE(ronic_priv_flag_names);
	default:
		return -EOPNOTSUPP;
	}
}

static void ronic_get_strings(struct net_device *netdev, u32 sset, u8 *data)
{
	unsigned int i;

	switch (sset) {
	case ETH_SS_PRIV_FLAGS:
		for (i = 0; i < ARRAY_SIZE(ronic_priv_flag_names); i++)
			ethtool_puts(&data, ronic_priv_flag_names[i]);
		break;
	default:
		break;
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
	.get_strings		= ronic_get_strings,
	.get_priv_flags		= ronic_get_priv_flags,
	.set_priv_flags		= ronic_set_priv_flags,
};
