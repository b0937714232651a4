/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netdev queue statistics (qstats), consistent with ndo_get_stats64.
 */
#ifndef _RONIC_STATS_H_
#define _RONIC_STATS_H_

#include <net/netdev_queues.h>

struct ronic_adapter;
struct ronic_ring;
struct ronic_xdp_totals;

extern const struct netdev_stat_ops ronic_stat_ops;

void ronic_ring_add_xdp_verdicts(const struct ronic_ring *rx,
				 struct ronic_xdp_totals *t);
void ronic_ring_add_xdp_sent(const struct ronic_ring *xdp,
			     struct ronic_xdp_totals *t);
void ronic_xdp_totals_get(struct ronic_adapter *adapter,
			  struct ronic_xdp_totals *t);

#endif /* _RONIC_STATS_H_ */
