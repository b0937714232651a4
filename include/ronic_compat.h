/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel features ronic uses that not every supported kernel has. Which
 * ones this kernel has comes from its headers (ronic_compat_gen.h, written
 * by scripts/gen-compat.sh at build time); this file gives the fallback of
 * each missing one, so the driver's code stays free of version tests.
 */
#ifndef RONIC_COMPAT_H
#define RONIC_COMPAT_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/pci.h>
#include <net/devlink.h>
#include <net/netdev_queues.h>
#include <net/xdp.h>

#include "ronic_compat_gen.h"

#ifdef RONIC_HAVE_PAGE_POOL_HELPERS_H
#include <net/page_pool/helpers.h>
#else
#include <net/page_pool.h>
#endif

#ifndef RONIC_HAVE_NETIF_NAPI_SET_IRQ
/* No netlink napi-get irq attribute to fill before 6.8. */
static inline void netif_napi_set_irq(struct napi_struct *napi, int irq)
{
}
#endif

#ifndef RONIC_HAVE_NETIF_NAPI_ADD_CONFIG
/*
 * Before 6.13 a NAPI instance's ID lives as long as the instance (hashed
 * at netif_napi_add), and there are no per-instance settings to keep.
 */
static inline void netif_napi_add_config(struct net_device *dev,
					 struct napi_struct *napi,
					 int (*poll)(struct napi_struct *, int),
					 int index)
{
	netif_napi_add(dev, napi, poll);
}
#endif

#ifndef RONIC_HAVE_NL_SET_ERR_MSG_FMT
/*
 * Before 6.2 an extack holds a pointer to a message, not a buffer: each
 * call site formats into a buffer of its own. Every caller holds the RTNL
 * lock, so two writers never meet; the netlink reply reads the buffer
 * after the lock is dropped, so at worst a later refusal from the same
 * site changes the numbers of an earlier one's message.
 */
#define NL_SET_ERR_MSG_FMT_MOD(extack, fmt, args...)			\
	do {								\
		static char __ronic_msg[80];				\
		struct netlink_ext_ack *__ronic_extack = (extack);	\
									\
		if (__ronic_extack) {					\
			snprintf(__ronic_msg, sizeof(__ronic_msg),	\
				 KBUILD_MODNAME ": " fmt, ##args);	\
			__ronic_extack->_msg = __ronic_msg;		\
		}							\
	} while (0)
#endif

#ifndef RONIC_HAVE_SET_NETDEV_DEVLINK_PORT
/*
 * Before 6.2 the link is the devlink port's: its type and netdev, set
 * once the port is registered (a netdev names its port only through
 * ndo_get_devlink_port, which ronic does not implement).
 */
#define SET_NETDEV_DEVLINK_PORT(dev, port) \
	devlink_port_type_eth_set(port, dev)
#endif

/*
 * The driver's name in devlink dev info: put by the devlink core since
 * 6.2, by the driver before.
 */
static inline int ronic_devlink_info_driver_name(struct devlink_info_req *req)
{
#ifdef RONIC_HAVE_DEVLINK_INFO_DRIVER_NAME_PUT
	return devlink_info_driver_name_put(req, KBUILD_MODNAME);
#else
	return 0;
#endif
}

#ifndef RONIC_HAVE_ETHTOOL_PUTS
/*
 * Before 6.8, by hand: @str into the next ETH_GSTRING_LEN bytes of
 * @data, NUL padded.
 */
static inline void ethtool_puts(u8 **data, const char *str)
{
	strscpy_pad((char *)*data, str, ETH_GSTRING_LEN);
	*data += ETH_GSTRING_LEN;
}
#endif

#ifndef RONIC_HAVE_PCI_IRQ_INTX
#define PCI_IRQ_INTX	PCI_IRQ_LEGACY	/* the name before 6.8 */
#endif

#ifndef RONIC_HAVE_NETIF_TXQ_COMPLETED_WAKE
/*
 * Before 6.4: tell BQL that @pkts frames of @bytes left @txq, then wake
 * @txq if it is stopped, frames completed, @get_desc (evaluated after the
 * barrier) reached @start_thrs and @down_cond is false. The full barrier
 * orders the caller's new consumer index before the stopped test, against
 * an xmit that stops the queue and then reads the index again; BQL's
 * completion has it only when built in, so it is added otherwise. As the
 * kernel's: 0 when woken, 1 when no wake was needed, -1 when nothing
 * completed or @start_thrs was not reached.
 */
static inline void ronic_txq_completed_mb(struct netdev_queue *txq,
					  unsigned int pkts, unsigned int bytes)
{
	netdev_tx_completed_queue(txq, pkts, bytes);
	if (!IS_ENABLED(CONFIG_BQL) && bytes)
		smp_mb();	/* as BQL's: consumer index, then stopped test */
}

#define __netif_txq_completed_wake(txq, pkts, bytes, get_desc,		\
				   start_thrs, down_cond)		\
	({								\
		struct netdev_queue *_ronic_txq = (txq);		\
		unsigned int _ronic_pkts = (pkts);			\
		int _ronic_res = -1;					\
									\
		ronic_txq_completed_mb(_ronic_txq, _ronic_pkts, bytes);	\
		if (_ronic_pkts && likely((get_desc) >= (start_thrs))) { \
			_ronic_res = 1;					\
			if (unlikely(netif_tx_queue_stopped(_ronic_txq)) && \
			    !(down_cond)) {				\
				netif_tx_wake_queue(_ronic_txq);	\
				_ronic_res = 0;				\
			}						\
		}							\
		_ronic_res;						\
	})
#endif

/* Up to 6.6 a page_pool gives out page fragments only if made for it. */
#ifdef RONIC_HAVE_PP_FLAG_PAGE_FRAG
#define RONIC_PP_FLAG_FRAG	PP_FLAG_PAGE_FRAG
#else
#define RONIC_PP_FLAG_FRAG	0
#endif

/**
 * ronic_page_pool_params_user - tell a page_pool who uses it
 * @pp: the parameters of the pool to create
 * @napi: the only NAPI instance it allocates and recycles from
 * @netdev: the netdev it serves
 * @queue_idx: the rx queue it fills
 *
 * What the kernel takes of these: the NAPI since 6.4 (recycling to the
 * pool's cache from other contexts of that NAPI), the netdev since 6.8 and
 * the queue since 6.12 (netdev netlink page-pool-get). Older kernels take
 * none; the pool works the same, without them.
 */
static inline void ronic_page_pool_params_user(struct page_pool_params *pp,
					       struct napi_struct *napi,
					       struct net_device *netdev,
					       unsigned int queue_idx)
{
#ifdef RONIC_HAVE_PAGE_POOL_PARAMS_NAPI
	pp->napi = napi;
#endif
#ifdef RONIC_HAVE_PAGE_POOL_PARAMS_NETDEV
	pp->netdev = netdev;
#endif
#ifdef RONIC_HAVE_PAGE_POOL_PARAMS_QUEUE_IDX
	pp->queue_idx = queue_idx;
#endif
}

/**
 * ronic_queue_set_napi - name the NAPI instance of a queue pair
 * @netdev: the netdev
 * @queue: the rx and tx queue's index
 * @napi: the NAPI instance serving both, or NULL to unlink them
 *
 * For netdev netlink queue-get, since 6.8; older kernels have no such
 * link.
 */
static inline void ronic_queue_set_napi(struct net_device *netdev,
					unsigned int queue,
					struct napi_struct *napi)
{
#ifdef RONIC_HAVE_NETIF_QUEUE_SET_NAPI
	netif_queue_set_napi(netdev, queue, NETDEV_QUEUE_TYPE_RX, napi);
	netif_queue_set_napi(netdev, queue, NETDEV_QUEUE_TYPE_TX, napi);
#endif
}

#ifndef RONIC_HAVE_SKB_FRAG_FILL_PAGE_DESC
/* Before 6.5: the three setters the one call replaced. */
static inline void skb_frag_fill_page_desc(skb_frag_t *frag, struct page *page,
					   int off, int size)
{
	__skb_frag_set_page(frag, page);
	skb_frag_off_set(frag, off);
	skb_frag_size_set(frag, size);
}
#endif

#ifndef RONIC_HAVE_XDP_UPDATE_SKB_FRAGS_INFO
/* Before 6.14: the same update, told the pfmemalloc bit alone. */
#define xdp_update_skb_frags_info(skb, nr_frags, size, truesize, xdp_flags) \
	xdp_update_skb_shared_info(skb, nr_frags, size, truesize,	\
				   !!((xdp_flags) & XDP_FLAGS_FRAGS_PF_MEMALLOC))
#endif

/**
 * ronic_health_reporter_create - a devlink health reporter
 * @devlink: its instance
 * @ops: its ops; where the kernel reads the grace period from the ops
 *	(RONIC_HAVE_DEVLINK_HEALTH_OPS_GRACE), they carry @grace_ms too
 * @grace_ms: the least time between two recoveries
 * @priv: the reporter's private data
 *
 * Return: the reporter or an ERR_PTR.
 */
static inline struct devlink_health_reporter *
ronic_health_reporter_create(struct devlink *devlink,
			     const struct devlink_health_reporter_ops *ops,
			     u64 grace_ms, void *priv)
{
#ifdef RONIC_HAVE_DEVLINK_HEALTH_OPS_GRACE
	return devlink_health_reporter_create(devlink, ops, priv);
#else
	return devlink_health_reporter_create(devlink, ops, grace_ms, priv);
#endif
}

#endif /* RONIC_COMPAT_H */
