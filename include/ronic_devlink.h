/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devlink: one instance per port, parent the PCI device, with one physical
 * port linked to the netdev: "devlink dev info", and the "tx" health
 * reporter (tx timeouts: diagnose, dump, recover).
 */
#ifndef _RONIC_DEVLINK_H_
#define _RONIC_DEVLINK_H_

#include <linux/kconfig.h>
#include <linux/types.h>

struct ronic_adapter;

#if IS_ENABLED(CONFIG_NET_DEVLINK)
int ronic_devlink_alloc(struct ronic_adapter *adapter);
void ronic_devlink_register(struct ronic_adapter *adapter);
void ronic_devlink_unregister(struct ronic_adapter *adapter);
void ronic_devlink_free(struct ronic_adapter *adapter);
bool ronic_devlink_report_tx_hang(struct ronic_adapter *adapter);
#else
static inline int ronic_devlink_alloc(struct ronic_adapter *adapter)
{
	return 0;
}

static inline void ronic_devlink_register(struct ronic_adapter *adapter) { }
static inline void ronic_devlink_unregister(struct ronic_adapter *adapter) { }
static inline void ronic_devlink_free(struct ronic_adapter *adapter) { }
static inline bool ronic_devlink_report_tx_hang(struct ronic_adapter *adapter)
{
	return false;
}
#endif

#endif /* _RONIC_DEVLINK_H_ */
