/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netdev queue statistics (qstats), consistent with ndo_get_stats64.
 */
#ifndef _RONIC_STATS_H_
#define _RONIC_STATS_H_

#include <net/netdev_queues.h>

extern const struct netdev_stat_ops ronic_stat_ops;

#endif /* _RONIC_STATS_H_ */
