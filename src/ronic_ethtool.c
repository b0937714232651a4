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
	ethtool_link_ksettings_add_link_mode(cmd, supported, 10baseT_Half);
	ethtool_link_ksettings_add_link_mode(cmd, supported, 10baseT_Full);
	ethtool_link_ksettings_add_link_mode(cmd, supported, 100baseT_Half);
	ethtool_link_ksettings_add_link_mode(cmd, supported, 100baseT_Full);
	ethtool_link_ksettings_add_link_mode(cmd, supported, 1000baseT_Full);
	ethtool_link_ksettings_add_link_mode(cmd, supported, Autoneg);
	ethtool_link_ksettings_add_link_mode(cmd, supported, TP);
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

const struct ethtool_ops ronic_ethtool_ops = {
	.get_drvinfo		= ronic_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= ronic_get_link_ksettings,
	.get_ringparam		= ronic_get_ringparam,
	.get_channels		= ronic_get_channels,
};
