/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs: /sys/kernel/debug/ronic/<pci-bdf>/ per port, for what an admin
 * or a developer wants to see that no stable interface carries.
 */
#ifndef _RONIC_DEBUGFS_H_
#define _RONIC_DEBUGFS_H_

struct ronic_adapter;

#ifdef CONFIG_DEBUG_FS
void ronic_debugfs_add(struct ronic_adapter *adapter);
void ronic_debugfs_del(struct ronic_adapter *adapter);
#else
static inline void ronic_debugfs_add(struct ronic_adapter *adapter) { }
static inline void ronic_debugfs_del(struct ronic_adapter *adapter) { }
#endif

#endif /* _RONIC_DEBUGFS_H_ */
