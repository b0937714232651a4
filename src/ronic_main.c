// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: Intel 82576 Ethernet driver with selectable relaxed-ordering DMA.
 * PCI probe and remove, the netdev operations, bring-up and tear-down,
 * the link watchdog and the reset worker.
 */
#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_debugfs.h"
#include "ronic_devlink.h"
#include "ronic_hw.h"
#include "ronic_irq.h"
#include "ronic_stats.h"
#include "ronic_xdp.h"
#include "ronic_xsk.h"

static bool force_legacy_irq;
module_param(force_legacy_irq, bool, 0444);
MODULE_PARM_DESC(force_legacy_irq,
		 "Use one MSI/INTx vector and one queue pair instead of MSI-X (default: N)");

static const struct pci_device_id ronic_pci_tbl[] = {
	{ PCI_VDEVICE(INTEL, 0x10C9) },	/* 82576 copper */
	{ PCI_VDEVICE(INTEL, 0x10E8) },	/* 82576 quad copper */
	{ PCI_VDEVICE(INTEL, 0x1526) },	/* 82576 quad copper ET2 */
	{ PCI_VDEVICE(INTEL, 0x150A) },	/* 82576 NS copper */
	{ }
};
MODULE_DEVICE_TABLE(pci, ronic_pci_tbl);

static u32 ronic_max_frame(const struct net_device *netdev)
{
	return netdev->mtu + ETH_HLEN + ETH_FCS_LEN + VLAN_HLEN;
}

static void ronic_configure(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;
	struct ronic_ring *ring;
	u16 q;

	ronic_hw_set_rar(adapter, 0, netdev->dev_addr);
	ronic_hw_sync_rx_mode(adapter, netdev);
	ronic_hw_write_vfta(adapter);
	ronic_hw_set_rx_features(adapter, netdev->features);
	ronic_hw_setup_rss(adapter);

	if (adapter->irq_mode == RONIC_IRQ_MSIX)
		ronic_hw_setup_msix(adapter);
	else
		ronic_hw_setup_legacy_irq(adapter);

	for (q = 0; q < adapter->num_queues; q++) {
		/* A reset ends a hang forced through debugfs. */
		WRITE_ONCE(adapter->tx_ring[q]->tail_frozen, false);
		ronic_hw_configure_tx_ring(adapter, adapter->tx_ring[q]);
	}
	for (q = 0; q < adapter->num_xdp_rings; q++)
		ronic_hw_configure_tx_ring(adapter, adapter->xdp_ring[q]);
	ronic_hw_enable_tx(adapter);

	for (q = 0; q < adapter->num_queues; q++) {
		ring = adapter->rx_ring[q];
		WRITE_ONCE(ring->xdp_prog, adapter->xdp_prog);
		ronic_hw_configure_rx_ring(adapter, ring);
		ronic_rx_fill(ring);
	}
	ronic_hw_enable_rx(adapter, ronic_max_frame(netdev));
}

/**
 * ronic_set_default_reta - spread the indirection table over the queues
 * @adapter: the device, with num_queues set
 */
void ronic_set_default_reta(struct ronic_adapter *adapter)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(adapter->rss_reta); i++)
		adapter->rss_reta[i] = ethtool_rxfh_indir_default(i, adapter->num_queues);
}

static void ronic_up(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;
	struct ronic_q_vector *qv;
	u16 v;

	ronic_configure(adapter);

	clear_bit(RONIC_STATE_DOWN, &adapter->state);
	for (v = 0; v < adapter->num_queues; v++) {
		qv = adapter->q_vector[v];
		napi_enable(&qv->napi);
		ronic_queue_set_napi(netdev, v, &qv->napi);
	}
	ronic_hw_irq_enable(adapter);
	adapter->link_up = false;
	netif_tx_start_all_queues(netdev);
	mod_delayed_work(system_wq, &adapter->watchdog, 0);
}

static void ronic_napi_off(struct ronic_adapter *adapter)
{
	u16 v;

	for (v = 0; v < adapter->num_queues; v++) {
		ronic_queue_set_napi(adapter->netdev, v, NULL);
		napi_disable(&adapter->q_vector[v]->napi);
	}
}

/* The buffers the rings still hold go back: the device is stopped. */
static void ronic_clean_rings(struct ronic_adapter *adapter)
{
	u16 q;

	for (q = 0; q < adapter->num_queues; q++) {
		ronic_ring_clean_tx(adapter->tx_ring[q]);
		ronic_ring_clean_rx(adapter->rx_ring[q]);
	}
	for (q = 0; q < adapter->num_xdp_rings; q++)
		ronic_xdp_ring_clean_all(adapter->xdp_ring[q]);
}

static void ronic_down(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;
	int reset_err, stuck = 0;
	u16 q;

	set_bit(RONIC_STATE_DOWN, &adapter->state);
	/* ndo_xdp_xmit callers that missed the bit are done after this. */
	synchronize_net();
	/*
	 * A watchdog run that saw the port up could otherwise turn the
	 * carrier back on after it went off; later runs see the bit.
	 */
	cancel_delayed_work_sync(&adapter->watchdog);
	/*
	 * Carrier off before the queues stop: the stack's tx watchdog checks
	 * the carrier under the queue locks that netif_tx_disable() takes, so
	 * no ndo_tx_timeout runs once it returns (the rings go after this).
	 */
	netif_carrier_off(netdev);
	netif_tx_disable(netdev);
	adapter->link_up = false;

	/*
	 * A device cut off by a PCI error reads all ones: nothing to stop,
	 * and every wait for it would time out. Its rings are only freed.
	 */
	if (pci_channel_offline(adapter->pdev)) {
		ronic_irq_sync(adapter);
		ronic_napi_off(adapter);
		ronic_clean_rings(adapter);
		return;
	}
	ronic_hw_disable_rxtx(adapter);
	for (q = 0; q < adapter->num_queues; q++) {
		stuck |= ronic_hw_disable_rx_ring(adapter, adapter->rx_ring[q]);
		stuck |= ronic_hw_disable_tx_ring(adapter, adapter->tx_ring[q]);
	}
	for (q = 0; q < adapter->num_xdp_rings; q++)
		stuck |= ronic_hw_disable_tx_ring(adapter, adapter->xdp_ring[q]);
	if (stuck)
		adapter->queue_stop_timeouts++;
	ronic_hw_irq_disable(adapter);
	ronic_irq_sync(adapter);
	ronic_napi_off(adapter);

	/* The MAC counters clear on reset: fold them in first. */
	spin_lock_bh(&adapter->stats_lock);
	ronic_hw_update_stats(adapter, &adapter->hw_stats);
	spin_unlock_bh(&adapter->stats_lock);

	/*
	 * The reset stops the DMA master before the buffers go back: a
	 * wedged queue that never disabled (the tx-timeout path, counted in
	 * queue_stop_timeouts) must not write into pages the pool has
	 * already handed to someone else.
	 */
	reset_err = ronic_hw_reset(adapter);
	ronic_clean_rings(adapter);
	if (!reset_err)
		ronic_hw_init(adapter);
}

/* Bring up a device whose rings are installed, its interrupts requested. */
static int ronic_start(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;
	int err;

	err = netif_set_real_num_tx_queues(netdev, adapter->num_queues);
	if (err)
		return err;
	err = netif_set_real_num_rx_queues(netdev, adapter->num_queues);
	if (err)
		return err;
	ronic_irq_set_xps(adapter);
	ronic_up(adapter);
	return 0;
}

int ronic_open(struct net_device *netdev)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_ring_set set;
	int err;

	netif_carrier_off(netdev);
	err = ronic_rings_create(adapter, adapter->num_queues,
				 adapter->tx_ring_count, adapter->rx_ring_count,
				 &set);
	if (err)
		return err;
	ronic_rings_install(adapter, &set);

	err = ronic_irq_request(adapter);
	if (err)
		goto err_rings;
	err = ronic_start(adapter);
	if (err)
		goto err_irq;
	return 0;

err_irq:
	ronic_irq_free(adapter);
err_rings:
	ronic_rings_uninstall(adapter, &set);
	ronic_rings_destroy(&set);
	return err;
}

int ronic_stop(struct net_device *netdev)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_ring_set set;

	/* Stopped already by a recovery that has not brought it back. */
	if (test_and_clear_bit(RONIC_STATE_DETACHED, &adapter->state))
		return 0;

	ronic_down(adapter);
	ronic_irq_free(adapter);
	ronic_rings_uninstall(adapter, &set);
	ronic_rings_destroy(&set);
	return 0;
}

static void ronic_fold_ring_stats(const struct ronic_ring *ring, u64 *packets,
				  u64 *bytes)
{
	unsigned int start;
	u64 p, b;

	do {
		start = u64_stats_fetch_begin(&ring->syncp);
		p = u64_stats_read(&ring->stats.packets);
		b = u64_stats_read(&ring->stats.bytes);
	} while (u64_stats_fetch_retry(&ring->syncp, start));
	*packets += p;
	*bytes += b;
}

static void ronic_get_stats64(struct net_device *netdev,
			      struct rtnl_link_stats64 *stats)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	const struct ronic_hw_stats *hw = &adapter->hw_stats;
	struct ronic_ring *ring;
	unsigned int start;
	u16 q;

	/*
	 * stats_lock keeps the rings from being folded into the base and
	 * released meanwhile: each read sees rings and base of one moment.
	 */
	spin_lock_bh(&adapter->stats_lock);
	for (q = 0; q < adapter->num_queues && adapter->rx_ring[q]; q++) {
		ring = adapter->rx_ring[q];
		ronic_fold_ring_stats(ring, &stats->rx_packets, &stats->rx_bytes);
		do {
			start = u64_stats_fetch_begin(&ring->syncp);
			stats->rx_dropped += u64_stats_read(&ring->rx_stats.dropped);
		} while (u64_stats_fetch_retry(&ring->syncp, start));

		ring = adapter->tx_ring[q];
		ronic_fold_ring_stats(ring, &stats->tx_packets, &stats->tx_bytes);
		do {
			start = u64_stats_fetch_begin(&ring->xmit_syncp);
			stats->tx_dropped += u64_stats_read(&ring->xmit_stats.dropped);
		} while (u64_stats_fetch_retry(&ring->xmit_syncp, start));
	}
	/* Frames the XDP rings sent (XDP_TX, redirects in) are sent frames. */
	for (q = 0; q < adapter->num_xdp_rings; q++)
		ronic_fold_ring_stats(adapter->xdp_ring[q], &stats->tx_packets,
				      &stats->tx_bytes);

	stats->rx_packets += adapter->base.rx_packets;
	stats->rx_bytes += adapter->base.rx_bytes;
	stats->rx_dropped += adapter->base.rx_dropped;
	stats->tx_packets += adapter->base.tx_packets;
	stats->tx_bytes += adapter->base.tx_bytes;
	stats->tx_dropped += adapter->base.tx_dropped;
	stats->multicast = hw->mprc;
	stats->collisions = hw->colc;
	stats->rx_crc_errors = hw->crcerrs;
	stats->rx_frame_errors = hw->algnerrc;
	stats->rx_length_errors = hw->rlec + hw->ruc + hw->roc;
	stats->rx_missed_errors = hw->mpc;
	stats->rx_errors = hw->rxerrc + hw->crcerrs + hw->algnerrc + hw->rlec +
			   hw->ruc + hw->roc;
	spin_unlock_bh(&adapter->stats_lock);
}

static int ronic_set_mac_address(struct net_device *netdev, void *p)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct sockaddr *addr = p;

	if (!is_valid_ether_addr(addr->sa_data))
		return -EADDRNOTAVAIL;
	eth_hw_addr_set(netdev, addr->sa_data);
	ronic_hw_set_rar(adapter, 0, netdev->dev_addr);
	return 0;
}

static void ronic_set_rx_mode(struct net_device *netdev)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	ronic_hw_set_rx_mode(adapter, netdev);
}

/**
 * ronic_reconfigure - apply new ring sizes or a new queue count
 * @adapter: the device, under rtnl
 * @tx_count: tx descriptors per ring
 * @rx_count: rx descriptors per ring
 * @queues: active queue pairs
 *
 * A running device gets its new rings built in full before the old ones
 * are taken down, so a failed allocation leaves it working as it was.
 *
 * Return: 0 or a negative errno.
 */
int ronic_reconfigure(struct ronic_adapter *adapter, u16 tx_count,
		      u16 rx_count, u16 queues)
{
	struct ronic_ring_set new_set, old_set;
	int err;

	if (!ronic_port_open(adapter)) {
		adapter->tx_ring_count = tx_count;
		adapter->rx_ring_count = rx_count;
		adapter->num_queues = queues;
		return 0;
	}

	err = ronic_rings_create(adapter, queues, tx_count, rx_count, &new_set);
	if (err)
		return err;

	/* The old pools go while their NAPI contexts are still disabled. */
	ronic_down(adapter);
	ronic_rings_uninstall(adapter, &old_set);
	ronic_rings_destroy(&old_set);
	ronic_rings_install(adapter, &new_set);
	err = ronic_start(adapter);
	if (err) {
		/* Only the stack's queue count can fail: run with what it has. */
		netdev_warn(adapter->netdev, "stack queues not resized (%d)\n", err);
		ronic_up(adapter);
	}
	return err;
}

/**
 * ronic_run_quiesced - run a test that owns the device, then bring it back
 * @adapter: the device, under rtnl
 * @fn: the test; it may program any register and use its own DMA memory
 * @arg: for @fn
 *
 * A running port is taken down first (no interrupts enabled, NAPI off,
 * DMA stopped, its rings kept) and brought up again afterwards; the device
 * is reset and initialised after @fn either way, so nothing @fn left in
 * the registers survives it. The interrupt handlers stay installed while
 * the port is up; a port that is down has none.
 *
 * Return: what @fn returned.
 */
int ronic_run_quiesced(struct ronic_adapter *adapter,
		       int (*fn)(struct ronic_adapter *adapter, void *arg),
		       void *arg)
{
	bool running = ronic_port_open(adapter);
	int err;

	if (running)
		ronic_down(adapter);
	err = fn(adapter, arg);
	if (!ronic_hw_reset(adapter))
		ronic_hw_init(adapter);
	if (running)
		ronic_up(adapter);
	return err;
}

static int ronic_change_mtu(struct net_device *netdev, int new_mtu)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	int err;

	err = ronic_xdp_check_mtu(adapter, new_mtu);
	if (err)
		return err;

	if (!ronic_port_open(adapter)) {
		WRITE_ONCE(netdev->mtu, new_mtu);
		return 0;
	}
	ronic_down(adapter);
	WRITE_ONCE(netdev->mtu, new_mtu);
	ronic_up(adapter);
	return 0;
}

/*
 * CTRL.VME is one switch for rx tag stripping and tx tag insertion on the
 * 82576: the two offloads are on or off together, following rx.
 */
static netdev_features_t ronic_fix_features(struct net_device *netdev,
					    netdev_features_t features)
{
	if (features & NETIF_F_HW_VLAN_CTAG_RX)
		features |= NETIF_F_HW_VLAN_CTAG_TX;
	else
		features &= ~NETIF_F_HW_VLAN_CTAG_TX;
	return features;
}

static int ronic_set_features(struct net_device *netdev,
			      netdev_features_t features)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	bool loopback = features & NETIF_F_LOOPBACK;
	int err;

	ronic_hw_set_rx_features(adapter, features);
	if (loopback != adapter->loopback) {
		adapter->loopback = loopback;
		err = ronic_hw_setup_link(adapter);
		if (err) {
			adapter->loopback = !loopback;
			return err;
		}
	}
	return 0;
}

static int ronic_vlan_rx_add_vid(struct net_device *netdev,
				 __be16 proto, u16 vid)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	set_bit(vid, adapter->active_vlans);
	ronic_hw_set_vfta_bit(adapter, vid, true);
	return 0;
}

static int ronic_vlan_rx_kill_vid(struct net_device *netdev,
				  __be16 proto, u16 vid)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);

	clear_bit(vid, adapter->active_vlans);
	/* VLAN 0 stays: priority-tagged frames are untagged ones (802.1Q). */
	if (vid)
		ronic_hw_set_vfta_bit(adapter, vid, false);
	return 0;
}

static netdev_features_t ronic_features_check(struct sk_buff *skb,
					      struct net_device *netdev,
					      netdev_features_t features)
{
	/* The context descriptor has 7 bits of MAC and 9 bits of IP header. */
	if (skb->encapsulation || skb_network_offset(skb) > 127 ||
	    (skb->ip_summed == CHECKSUM_PARTIAL &&
	     skb_checksum_start_offset(skb) - skb_network_offset(skb) > 511))
		features &= ~(NETIF_F_CSUM_MASK | NETIF_F_GSO_MASK);
	return vlan_features_check(skb, features);
}

static void ronic_tx_timeout(struct net_device *netdev, unsigned int txqueue)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_ring *ring = adapter->tx_ring[txqueue];
	struct ronic_tx_queue_state hw;

	/* ronic_down() turns the carrier off first; this is belt and braces. */
	if (test_bit(RONIC_STATE_DOWN, &adapter->state) || !ring)
		return;
	adapter->tx_timeouts++;
	ronic_hw_get_tx_state(adapter, ring, &hw);
	netdev_err(netdev, "tx queue %u timed out (next_to_use %u next_to_clean %u, TDH %u TDT %u TXDCTL %#x), resetting\n",
		   txqueue, ring->next_to_use, ring->next_to_clean, hw.head,
		   hw.tail, hw.txdctl);
	/* Reported to devlink from the reset task: a report may sleep. */
	adapter->tx_hang_queue = txqueue;
	set_bit(RONIC_STATE_TX_HANG, &adapter->state);
	ronic_schedule_reset(adapter);
}

static const struct net_device_ops ronic_netdev_ops = {
	.ndo_open		= ronic_open,
	.ndo_stop		= ronic_stop,
	.ndo_start_xmit		= ronic_xmit_frame,
	.ndo_get_stats64	= ronic_get_stats64,
	.ndo_set_mac_address	= ronic_set_mac_address,
	.ndo_set_rx_mode	= ronic_set_rx_mode,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_change_mtu		= ronic_change_mtu,
	.ndo_fix_features	= ronic_fix_features,
	.ndo_set_features	= ronic_set_features,
	.ndo_features_check	= ronic_features_check,
	.ndo_vlan_rx_add_vid	= ronic_vlan_rx_add_vid,
	.ndo_vlan_rx_kill_vid	= ronic_vlan_rx_kill_vid,
	.ndo_tx_timeout		= ronic_tx_timeout,
	.ndo_bpf		= ronic_xdp_bpf,
	.ndo_xdp_xmit		= ronic_xdp_xmit,
	.ndo_xsk_wakeup		= ronic_xsk_wakeup,
};

/**
 * ronic_schedule_reset - queue a full down/up of the device
 * @adapter: the device
 */
void ronic_schedule_reset(struct ronic_adapter *adapter)
{
	if (!test_bit(RONIC_STATE_REMOVING, &adapter->state))
		schedule_work(&adapter->reset_task);
}

static void ronic_reset_task(struct work_struct *work)
{
	struct ronic_adapter *adapter = container_of(work, struct ronic_adapter,
						     reset_task);

	/*
	 * A tx hang goes to devlink's "tx" reporter, whose recovery (now,
	 * later by hand, or not within its grace period) queues this task
	 * again for the reset itself.
	 */
	if (test_and_clear_bit(RONIC_STATE_TX_HANG, &adapter->state) &&
	    !test_bit(RONIC_STATE_REMOVING, &adapter->state) &&
	    ronic_devlink_report_tx_hang(adapter))
		return;
	rtnl_lock();
	if (ronic_port_open(adapter) &&
	    !test_bit(RONIC_STATE_REMOVING, &adapter->state)) {
		adapter->resets++;
		ronic_down(adapter);
		ronic_up(adapter);
	}
	rtnl_unlock();
}

static void ronic_update_link(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;
	struct ronic_link link;

	ronic_hw_get_link(adapter, &link);
	if (link.up == adapter->link_up)
		return;

	adapter->link_up = link.up;
	adapter->link_speed = link.speed;
	adapter->link_full_duplex = link.full_duplex;
	if (link.up) {
		netdev_info(netdev, "NIC Link is Up %u Mbps %s Duplex\n",
			    link.speed, link.full_duplex ? "Full" : "Half");
		netif_carrier_on(netdev);
	} else {
		netdev_info(netdev, "NIC Link is Down\n");
		netif_carrier_off(netdev);
	}
}

static void ronic_watchdog(struct work_struct *work)
{
	struct ronic_adapter *adapter = container_of(to_delayed_work(work),
						     struct ronic_adapter,
						     watchdog);

	if (test_bit(RONIC_STATE_DOWN, &adapter->state))
		return;

	ronic_update_link(adapter);

	spin_lock_bh(&adapter->stats_lock);
	ronic_hw_update_stats(adapter, &adapter->hw_stats);
	spin_unlock_bh(&adapter->stats_lock);

	/* A poll that ran out of rx buffers waits for an interrupt: kick it. */
	ronic_hw_kick_queues(adapter);

	schedule_delayed_work(&adapter->watchdog, RONIC_WATCHDOG_INTERVAL);
}

static void ronic_set_netdev_features(struct net_device *netdev)
{
	netdev_features_t features = NETIF_F_SG | NETIF_F_IP_CSUM |
				     NETIF_F_IPV6_CSUM | NETIF_F_SCTP_CRC |
				     NETIF_F_TSO | NETIF_F_TSO6 |
				     NETIF_F_RXCSUM | NETIF_F_RXHASH;

	netdev->vlan_features = features | NETIF_F_HIGHDMA;
	features |= NETIF_F_HW_VLAN_CTAG_RX | NETIF_F_HW_VLAN_CTAG_TX |
		    NETIF_F_HW_VLAN_CTAG_FILTER;
	netdev->hw_features = features | NETIF_F_LOOPBACK;
	netdev->features = features | NETIF_F_HIGHDMA;
	netdev->priv_flags |= IFF_UNICAST_FLT;
	netdev->min_mtu = RONIC_MIN_MTU;
	netdev->max_mtu = RONIC_MAX_MTU;
	netdev->watchdog_timeo = 5 * HZ;
}

/*
 * What XDP the port can do, known once its interrupt mode is chosen, and
 * the rx metadata its programs may read; a kernel without xdp_features
 * or metadata ops has nowhere to say it.
 */
static void ronic_set_xdp_features(struct ronic_adapter *adapter)
{
#ifdef RONIC_HAVE_XDP_FEATURES
	adapter->netdev->xdp_features = ronic_xdp_supported(adapter) ?
					NETDEV_XDP_ACT_BASIC |
					NETDEV_XDP_ACT_REDIRECT |
					NETDEV_XDP_ACT_NDO_XMIT |
					NETDEV_XDP_ACT_RX_SG |
					NETDEV_XDP_ACT_NDO_XMIT_SG |
					NETDEV_XDP_ACT_XSK_ZEROCOPY : 0;
#endif
#ifdef RONIC_HAVE_XDP_METADATA_OPS
	adapter->netdev->xdp_metadata_ops = &ronic_xdp_metadata_ops;
#endif
}

static int ronic_init_mac(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;
	u8 mac[ETH_ALEN];

	if (ronic_hw_read_mac(adapter, mac)) {
		eth_hw_addr_random(netdev);
		netdev_warn(netdev, "invalid MAC address in EEPROM, using random %pM\n",
			    netdev->dev_addr);
	} else {
		eth_hw_addr_set(netdev, mac);
	}
	ether_addr_copy(netdev->perm_addr, netdev->dev_addr);
	return 0;
}

static int ronic_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct ronic_adapter *adapter;
	struct net_device *netdev;
	int err;

	err = pci_enable_device_mem(pdev);
	if (err)
		return err;
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err) {
		dev_err(&pdev->dev, "no usable DMA configuration\n");
		goto err_disable;
	}
	err = pci_request_mem_regions(pdev, RONIC_DRV_NAME);
	if (err)
		goto err_disable;
	pci_set_master(pdev);

	netdev = alloc_etherdev_mq(sizeof(*adapter), RONIC_MAX_QUEUES);
	if (!netdev) {
		err = -ENOMEM;
		goto err_regions;
	}
	SET_NETDEV_DEV(netdev, &pdev->dev);
	pci_set_drvdata(pdev, netdev);

	adapter = netdev_priv(netdev);
	adapter->netdev = netdev;
	adapter->pdev = pdev;
	adapter->tx_ring_count = RONIC_DEFAULT_RING;
	adapter->tx_copybreak = RONIC_TX_COPYBREAK_DEFAULT;
	adapter->rx_ring_count = RONIC_DEFAULT_RING;
	adapter->itr_usecs = RONIC_DEFAULT_ITR_USECS;
	/* As igb's default: the interval follows the traffic. */
	adapter->itr_adaptive = true;
	set_bit(RONIC_STATE_DOWN, &adapter->state);
	spin_lock_init(&adapter->stats_lock);
	spin_lock_init(&adapter->rctl_lock);
	INIT_DELAYED_WORK(&adapter->watchdog, ronic_watchdog);
	INIT_WORK(&adapter->reset_task, ronic_reset_task);
	adapter->autoneg = true;
	adapter->advertising = BIT(ETHTOOL_LINK_MODE_10baseT_Half_BIT) |
			       BIT(ETHTOOL_LINK_MODE_10baseT_Full_BIT) |
			       BIT(ETHTOOL_LINK_MODE_100baseT_Half_BIT) |
			       BIT(ETHTOOL_LINK_MODE_100baseT_Full_BIT) |
			       BIT(ETHTOOL_LINK_MODE_1000baseT_Full_BIT);
	adapter->rx_pause = true;
	adapter->tx_pause = true;
	netdev_rss_key_fill(adapter->rss_key, sizeof(adapter->rss_key));
	ronic_dma_init(&adapter->dma, &pdev->dev);
	ronic_ro_init(adapter);

	adapter->hw_addr = pci_iomap(pdev, 0, 0);
	if (!adapter->hw_addr) {
		err = -EIO;
		goto err_netdev;
	}

	err = ronic_hw_reset(adapter);
	if (err)
		goto err_iounmap;
	ronic_hw_init(adapter);
	ronic_init_mac(adapter);
	ronic_hw_nvm_version(adapter, adapter->nvm_version,
			     sizeof(adapter->nvm_version));

	netdev->netdev_ops = &ronic_netdev_ops;
	netdev->ethtool_ops = &ronic_ethtool_ops;
#ifdef RONIC_HAVE_NETDEV_STAT_OPS
	netdev->stat_ops = &ronic_stat_ops;
#endif
	ronic_set_netdev_features(netdev);

	err = ronic_irq_init(adapter, !force_legacy_irq);
	if (err)
		goto err_release;
	ronic_set_default_reta(adapter);
	ronic_set_xdp_features(adapter);

	err = ronic_devlink_alloc(adapter);
	if (err)
		goto err_irq;
	netif_carrier_off(netdev);
	err = register_netdev(netdev);
	if (err)
		goto err_devlink;

	netdev_info(netdev, "Intel 82576 at %s, %pM, %u queue pairs, %s\n",
		    pci_name(pdev), netdev->dev_addr, adapter->num_queues,
		    adapter->irq_mode == RONIC_IRQ_MSIX ? "MSI-X" :
		    adapter->irq_mode == RONIC_IRQ_MSI ? "MSI" : "INTx");
	ronic_debugfs_add(adapter);
	ronic_devlink_register(adapter);
	/* What an error recovery's slot reset restores. */
	pci_save_state(pdev);
	return 0;

err_devlink:
	ronic_devlink_free(adapter);
err_irq:
	ronic_irq_deinit(adapter);
err_release:
	ronic_hw_release(adapter);
err_iounmap:
	pci_iounmap(pdev, adapter->hw_addr);
err_netdev:
	free_netdev(netdev);
err_regions:
	pci_release_mem_regions(pdev);
err_disable:
	pci_disable_device(pdev);
	return err;
}

static void ronic_remove(struct pci_dev *pdev)
{
	struct net_device *netdev = pci_get_drvdata(pdev);
	struct ronic_adapter *adapter = netdev_priv(netdev);

	/*
	 * No reset from here on, and none running: a tx timeout's report
	 * to devlink needs the instance registered.
	 */
	set_bit(RONIC_STATE_REMOVING, &adapter->state);
	cancel_work_sync(&adapter->reset_task);
	ronic_devlink_unregister(adapter);
	ronic_debugfs_del(adapter);
	unregister_netdev(netdev);
	/*
	 * Only now: a tx timeout may have queued a reset between the bit and
	 * the close inside unregister; nothing can queue one after it.
	 */
	cancel_work_sync(&adapter->reset_task);
	ronic_devlink_free(adapter);
	cancel_delayed_work_sync(&adapter->watchdog);

	if (adapter->xdp_prog)
		bpf_prog_put(adapter->xdp_prog);
	ronic_irq_deinit(adapter);
	/* A device already gone (surprise removal) reads all ones: leave it. */
	if (!pci_channel_offline(pdev))
		ronic_hw_reset(adapter);
	ronic_hw_release(adapter);
	pci_iounmap(pdev, adapter->hw_addr);
	free_netdev(netdev);
	pci_release_mem_regions(pdev);
	pci_disable_device(pdev);
}

static void ronic_shutdown(struct pci_dev *pdev)
{
	struct net_device *netdev = pci_get_drvdata(pdev);

	ronic_detach(netdev_priv(netdev));
	ronic_arm_wake(netdev_priv(netdev));
	pci_disable_device(pdev);
}

static struct pci_driver ronic_driver = {
	.name		= RONIC_DRV_NAME,
	.id_table	= ronic_pci_tbl,
	.probe		= ronic_probe,
	.remove		= ronic_remove,
	.shutdown	= ronic_shutdown,
	.err_handler	= &ronic_err_handlers,
	.driver.pm	= pm_sleep_ptr(&ronic_pm_ops),
};
module_pci_driver(ronic_driver);

MODULE_AUTHOR("The ronic developers");
MODULE_DESCRIPTION("Intel 82576 Ethernet driver with selectable relaxed-ordering DMA");
MODULE_LICENSE("GPL");
MODULE_VERSION(RONIC_DRV_VERSION);
