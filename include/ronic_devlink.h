/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devlink: one instance per port, parent the PCI device, with one physical
 * port linked to the netdev. Read-only: "devlink dev info" only.
 */
#ifndef _RONIC_DEVLINK_H_
#define _RONIC_DEVLINK_H_

#include <linux/kconfig.h>

struct ronic_adapter;

#if IS_ENABLED(CONFIG_NET_DEVLINK)
int ronic_devlink_alloc(struct ronic_adapter *adapter);
void ronic_devlink_register(struct ronic_adapter *adapter);
void ronic_devlink_unregister(struct ronic_adapter *adapter);
void ronic_devlink_free(struct ronic_adapter *adapter);
#else
static inline int ronic_devlink_alloc(struct ronic_adapter *adapter)
{
	return 0;
}

static inline void ronic_devlink_register(struct ronic_adapter *adapter) { }
static inline void ronic_devlink_unregister(struct ronic_adapter *adapter) { }
static inline void ronic_devlink_free(struct ronic_adapter *adapter) { }
#endif

#endif /* _RONIC_DEVLINK_H_ */
