// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: netdev queue statistics (netdev_stat_ops).
 *
 * Each queue reports its ring's counters; the base reports what rings
 * already released counted (adapter->base, folded at reconfigure), so
 * the queues plus the base sum to what ndo_get_stats64 reports for
 * packets and bytes. XDP tx rings are no netdev queue: what they sent
 * (XDP_TX, frames redirected in) counts in the base, as it counts in
 * stats64's tx_packets. Beyond packets and bytes: rx
 * alloc_fail, csum_bad, csum_unnecessary, tx hw_gso_packets (TSO frames)
 * and wake (queue restarts) per queue; rx hw_drops (the MAC's missed
 * packet count, no buffer) for the device only.
 */
#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>
#include <net/netdev_queues.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_stats.h"

static void ronic_ring_read(const struct ronic_ring *ring, u64 *packets,
			    u64 *bytes)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&ring->syncp);
		*packets = u64_stats_read(&ring->stats.packets);
		*bytes = u64_stats_read(&ring->stats.bytes);
	} while (u64_stats_fetch_retry(&ring->syncp, start));
}

static u64 ronic_read(const struct u64_stats_sync *syncp, const u64_stats_t *c)
{
	unsigned int start;
	u64 v;

	do {
		start = u64_stats_fetch_begin(syncp);
		v = u64_stats_read(c);
	} while (u64_stats_fetch_retry(syncp, start));
	return v;
}

/**
 * ronic_ring_add_xdp_verdicts - add an rx ring's XDP verdict counts
 * @rx: the rx ring
 * @t: the totals to add to
 */
void ronic_ring_add_xdp_verdicts(const struct ronic_ring *rx,
				 struct ronic_xdp_totals *t)
{
	const struct ronic_rx_ring_stats *s = &rx->rx_stats;

	t->pass += ronic_read(&rx->syncp, &s->xdp_pass);
	t->drop += ronic_read(&rx->syncp, &s->xdp_drop);
	t->tx += ronic_read(&rx->syncp, &s->xdp_tx);
	t->redirect += ronic_read(&rx->syncp, &s->xdp_redirect);
	t->aborted += ronic_read(&rx->syncp, &s->xdp_aborted);
	t->tx_errors += ronic_read(&rx->syncp, &s->xdp_tx_errors);
}

/**
 * ronic_ring_add_xdp_sent - add an XDP tx ring's counts
 * @xdp: the XDP ring
 * @t: the totals to add to
 */
void ronic_ring_add_xdp_sent(const struct ronic_ring *xdp,
			     struct ronic_xdp_totals *t)
{
	u64 packets, bytes;

	ronic_ring_read(xdp, &packets, &bytes);
	t->sent += packets;
	t->sent_bytes += bytes;
	t->xmit += ronic_read(&xdp->xmit_syncp, &xdp->xdp_stats.xdp_xmit);
	t->xmit_errors += ronic_read(&xdp->xmit_syncp,
				     &xdp->xdp_stats.xdp_tx_errors);
}

/**
 * ronic_xdp_totals_get - the port's XDP counters since probe
 * @adapter: the device
 * @t: filled in: released rings' counts plus the live rings'
 */
void ronic_xdp_totals_get(struct ronic_adapter *adapter,
			  struct ronic_xdp_totals *t)
{
	u16 q;

	spin_lock_bh(&adapter->stats_lock);
	*t = adapter->base.xdp;
	for (q = 0; q < adapter->num_queues && adapter->rx_ring[q]; q++)
		ronic_ring_add_xdp_verdicts(adapter->rx_ring[q], t);
	for (q = 0; q < adapter->num_xdp_rings; q++)
		ronic_ring_add_xdp_sent(adapter->xdp_ring[q], t);
	spin_unlock_bh(&adapter->stats_lock);
}

/* The queue statistics of netdev netlink: none before 6.9. */
#ifdef RONIC_HAVE_NETDEV_STAT_OPS
static void ronic_rx_extra(const struct ronic_ring *ring,
			   struct netdev_queue_stats_rx *rx)
{
	rx->alloc_fail += ronic_read(&ring->syncp, &ring->rx_stats.alloc_failed);
	rx->csum_bad += ronic_read(&ring->syncp, &ring->rx_stats.csum_err);
	rx->csum_unnecessary += ronic_read(&ring->syncp, &ring->rx_stats.csum_ok);
}

static void ronic_tx_extra(const struct ronic_ring *ring,
			   struct netdev_queue_stats_tx *tx)
{
	tx->hw_gso_packets += ronic_read(&ring->xmit_syncp, &ring->xmit_stats.tso);
	tx->wake += ronic_read(&ring->syncp, &ring->tx_stats.restarts);
}

static void ronic_get_queue_stats_rx(struct net_device *netdev, int idx,
				     struct netdev_queue_stats_rx *rx)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_ring *ring;

	rx->packets = 0;
	rx->bytes = 0;
	rx->alloc_fail = 0;
	rx->csum_bad = 0;
	rx->csum_unnecessary = 0;
	/* stats_lock: the ring is neither folded nor freed meanwhile */
	spin_lock_bh(&adapter->stats_lock);
	ring = idx < adapter->num_queues ? adapter->rx_ring[idx] : NULL;
	if (ring) {
		ronic_ring_read(ring, &rx->packets, &rx->bytes);
		ronic_rx_extra(ring, rx);
	}
	spin_unlock_bh(&adapter->stats_lock);
}

static void ronic_get_queue_stats_tx(struct net_device *netdev, int idx,
				     struct netdev_queue_stats_tx *tx)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_ring *ring;

	tx->packets = 0;
	tx->bytes = 0;
	tx->hw_gso_packets = 0;
	tx->wake = 0;
	spin_lock_bh(&adapter->stats_lock);
	ring = idx < adapter->num_queues ? adapter->tx_ring[idx] : NULL;
	if (ring) {
		ronic_ring_read(ring, &tx->packets, &tx->bytes);
		ronic_tx_extra(ring, tx);
	}
	spin_unlock_bh(&adapter->stats_lock);
}

static void ronic_get_base_stats(struct net_device *netdev,
				 struct netdev_queue_stats_rx *rx,
				 struct netdev_queue_stats_tx *tx)
{
	struct ronic_adapter *adapter = netdev_priv(netdev);
	struct ronic_ring *ring;
	u64 packets, bytes;
	u16 q;

	spin_lock_bh(&adapter->stats_lock);
	rx->packets = adapter->base.rx_packets;
	rx->bytes = adapter->base.rx_bytes;
	tx->packets = adapter->base.tx_packets;
	tx->bytes = adapter->base.tx_bytes;
	rx->alloc_fail = adapter->base.rx_alloc_fail;
	rx->csum_bad = adapter->base.rx_csum_bad;
	rx->csum_unnecessary = adapter->base.rx_csum_unnecessary;
	rx->hw_drops = adapter->hw_stats.mpc;
	tx->hw_gso_packets = adapter->base.tx_hw_gso_packets;
	tx->wake = adapter->base.tx_wake;
	/*
	 * Rings beyond the netdev's real queue counts are not reported per
	 * queue by the core; count them here so the sum still matches.
	 */
	for (q = 0; q < adapter->num_queues; q++) {
		ring = adapter->rx_ring[q];
		if (ring && q >= netdev->real_num_rx_queues) {
			ronic_ring_read(ring, &packets, &bytes);
			rx->packets += packets;
			rx->bytes += bytes;
			ronic_rx_extra(ring, rx);
		}
		ring = adapter->tx_ring[q];
		if (ring && q >= netdev->real_num_tx_queues) {
			ronic_ring_read(ring, &packets, &bytes);
			tx->packets += packets;
			tx->bytes += bytes;
			ronic_tx_extra(ring, tx);
		}
	}
	for (q = 0; q < adapter->num_xdp_rings; q++) {
		ronic_ring_read(adapter->xdp_ring[q], &packets, &bytes);
		tx->packets += packets;
		tx->bytes += bytes;
	}
	spin_unlock_bh(&adapter->stats_lock);
}

const struct netdev_stat_ops ronic_stat_ops = {
	.get_queue_stats_rx	= ronic_get_queue_stats_rx,
	.get_queue_stats_tx	= ronic_get_queue_stats_tx,
	.get_base_stats		= ronic_get_base_stats,
};
#endif
