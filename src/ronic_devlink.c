// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: devlink. "devlink dev info pci/<bdf>" reports the serial number
 * (the PCI Device Serial Number, or the permanent MAC address on a part
 * without one, such as QEMU's model), the driver's version and the EEPROM
 * image version. The netdev is linked to a physical devlink port. The
 * "tx" health reporter takes tx timeouts: its dump is the stack queues'
 * state at the timeout, its diagnose their state now, and its recovery
 * the reset.
 */
#include <linux/etherdevice.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>
#include <net/devlink.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_devlink.h"
#include "ronic_hw.h"

struct ronic_devlink {
	struct ronic_adapter *adapter;
	struct devlink_port port;
};

/* "0123456789abcdef" from the DSN, else the MAC as 12 hex digits. */
static void ronic_devlink_serial(const struct ronic_adapter *adapter,
				 char *buf, size_t len)
{
	u64 dsn = pci_get_dsn(adapter->pdev);

	if (dsn)
		snprintf(buf, len, "%016llx", dsn);
	else
		snprintf(buf, len, "%pm", adapter->netdev->perm_addr);
}

static int ronic_devlink_info_get(struct devlink *devlink,
				  struct devlink_info_req *req,
				  struct netlink_ext_ack *extack)
{
	struct ronic_devlink *priv = devlink_priv(devlink);
	struct ronic_adapter *adapter = priv->adapter;
	char serial[20];
	int err;

	err = ronic_devlink_info_driver_name(req);
	if (err)
		return err;
	ronic_devlink_serial(adapter, serial, sizeof(serial));
	err = devlink_info_serial_number_put(req, serial);
	if (err)
		return err;
	err = devlink_info_version_running_put(req, "driver",
					       RONIC_DRV_VERSION);
	if (err)
		return err;
	/* No firmware runs on the 82576: its EEPROM image is the version. */
	if (adapter->nvm_version[0])
		err = devlink_info_version_running_put(req,
						       DEVLINK_INFO_VERSION_GENERIC_FW,
						       adapter->nvm_version);
	return err;
}

/* A tx timeout waits this long before devlink recovers another one. */
#define RONIC_TX_REPORTER_GRACE_MS	(10 * MSEC_PER_SEC)

/* One stack tx queue: the driver's indices, the device's, and the stack's. */
static void ronic_fmsg_tx_queue(struct devlink_fmsg *fmsg,
				struct ronic_adapter *adapter, u16 q)
{
	struct netdev_queue *txq = netdev_get_tx_queue(adapter->netdev, q);
	struct ronic_ring *ring = adapter->tx_ring[q];
	struct ronic_tx_queue_state hw;

	ronic_hw_get_tx_state(adapter, ring, &hw);
	devlink_fmsg_obj_nest_start(fmsg);
	devlink_fmsg_u32_pair_put(fmsg, "queue", q);
	devlink_fmsg_u32_pair_put(fmsg, "next_to_use", ring->next_to_use);
	devlink_fmsg_u32_pair_put(fmsg, "next_to_clean", ring->next_to_clean);
	devlink_fmsg_u32_pair_put(fmsg, "TDH", hw.head);
	devlink_fmsg_u32_pair_put(fmsg, "TDT", hw.tail);
	devlink_fmsg_u32_pair_put(fmsg, "TXDCTL", hw.txdctl);
	devlink_fmsg_bool_pair_put(fmsg, "stopped", netif_xmit_stopped(txq));
	/* U32_MAX: nothing completed since the ring was set up */
	devlink_fmsg_u32_pair_put(fmsg, "ms_since_completion",
				  ring->last_completion ?
				  jiffies_to_msecs(jiffies -
						   READ_ONCE(ring->last_completion)) :
				  U32_MAX);
	devlink_fmsg_obj_nest_end(fmsg);
}

/*
 * Every stack tx queue, @hung first named. Under rtnl, which keeps the
 * rings: devlink's lock comes first, as in devlink reload.
 */
static void ronic_fmsg_tx_queues(struct devlink_fmsg *fmsg,
				 struct ronic_adapter *adapter, int hung)
{
	u16 q;

	rtnl_lock();
	devlink_fmsg_u32_pair_put(fmsg, "hung_queue", hung < 0 ? U32_MAX : hung);
	devlink_fmsg_bool_pair_put(fmsg, "port_open", ronic_port_open(adapter));
	devlink_fmsg_arr_pair_nest_start(fmsg, "queues");
	for (q = 0; ronic_port_open(adapter) && q < adapter->num_queues; q++)
		ronic_fmsg_tx_queue(fmsg, adapter, q);
	devlink_fmsg_arr_pair_nest_end(fmsg);
	rtnl_unlock();
}

static int ronic_tx_reporter_diagnose(struct devlink_health_reporter *reporter,
				      struct devlink_fmsg *fmsg,
				      struct netlink_ext_ack *extack)
{
	ronic_fmsg_tx_queues(fmsg, devlink_health_reporter_priv(reporter), -1);
	return 0;
}

/* The dump taken when a timeout is reported (@ctx: its queue). */
static int ronic_tx_reporter_dump(struct devlink_health_reporter *reporter,
				  struct devlink_fmsg *fmsg, void *ctx,
				  struct netlink_ext_ack *extack)
{
	ronic_fmsg_tx_queues(fmsg, devlink_health_reporter_priv(reporter),
			     ctx ? *(u16 *)ctx : -1);
	return 0;
}

/* The reset, in the reset task: recovery may be asked for in any context. */
static int ronic_tx_reporter_recover(struct devlink_health_reporter *reporter,
				     void *ctx, struct netlink_ext_ack *extack)
{
	ronic_schedule_reset(devlink_health_reporter_priv(reporter));
	return 0;
}

static const struct devlink_health_reporter_ops ronic_tx_reporter_ops = {
	.name		= "tx",
	.recover	= ronic_tx_reporter_recover,
	.dump		= ronic_tx_reporter_dump,
	.diagnose	= ronic_tx_reporter_diagnose,
#ifdef RONIC_HAVE_DEVLINK_HEALTH_OPS_GRACE
	.default_graceful_period = RONIC_TX_REPORTER_GRACE_MS,
#endif
};

/**
 * ronic_devlink_report_tx_hang - tell the "tx" reporter of a tx timeout
 * @adapter: the device; adapter->tx_hang_queue names the queue
 *
 * devlink keeps the count and the dump, and calls the recovery (which
 * queues the reset) unless the user turned it off or the last one was
 * within the grace period.
 *
 * Return: false if there is no reporter: the caller resets by itself.
 */
bool ronic_devlink_report_tx_hang(struct ronic_adapter *adapter)
{
	u16 q = adapter->tx_hang_queue;
	char msg[32];

	if (!adapter->tx_reporter)
		return false;
	snprintf(msg, sizeof(msg), "tx queue %u timed out", q);
	devlink_health_report(adapter->tx_reporter, msg, &q);
	return true;
}

static const struct devlink_ops ronic_devlink_ops = {
	.info_get	= ronic_devlink_info_get,
};

/**
 * ronic_devlink_alloc - create the devlink instance and its port
 * @adapter: the device, its netdev allocated but not registered
 *
 * Links the netdev to the port: call before register_netdev().
 *
 * Return: 0 or a negative errno.
 */
int ronic_devlink_alloc(struct ronic_adapter *adapter)
{
	struct devlink_port_attrs attrs = {
		.flavour = DEVLINK_PORT_FLAVOUR_PHYSICAL,
		.phys.port_number = PCI_FUNC(adapter->pdev->devfn),
	};
	struct ronic_devlink *priv;
	struct devlink *devlink;
	int err;

	devlink = devlink_alloc(&ronic_devlink_ops, sizeof(*priv),
				&adapter->pdev->dev);
	if (!devlink)
		return -ENOMEM;
	priv = devlink_priv(devlink);
	priv->adapter = adapter;

	devlink_port_attrs_set(&priv->port, &attrs);
	err = devlink_port_register(devlink, &priv->port, attrs.phys.port_number);
	if (err) {
		devlink_free(devlink);
		return err;
	}
	SET_NETDEV_DEVLINK_PORT(adapter->netdev, &priv->port);
	adapter->devlink = devlink;
	/* Without it, a tx timeout resets the port as before. */
	adapter->tx_reporter = ronic_health_reporter_create(devlink,
							    &ronic_tx_reporter_ops,
							    RONIC_TX_REPORTER_GRACE_MS,
							    adapter);
	if (IS_ERR(adapter->tx_reporter)) {
		dev_warn(&adapter->pdev->dev, "no devlink tx health reporter (%pe)\n",
			 adapter->tx_reporter);
		adapter->tx_reporter = NULL;
	}
	return 0;
}

/**
 * ronic_devlink_register - make the instance visible to user space
 * @adapter: the device, fully probed
 */
void ronic_devlink_register(struct ronic_adapter *adapter)
{
	devlink_register(adapter->devlink);
}

/**
 * ronic_devlink_unregister - hide the instance, first thing in remove
 * @adapter: the device
 */
void ronic_devlink_unregister(struct ronic_adapter *adapter)
{
	devlink_unregister(adapter->devlink);
}

/**
 * ronic_devlink_free - drop the port and the instance
 * @adapter: the device, its netdev unregistered
 */
void ronic_devlink_free(struct ronic_adapter *adapter)
{
	struct ronic_devlink *priv = devlink_priv(adapter->devlink);

	if (adapter->tx_reporter)
		devlink_health_reporter_destroy(adapter->tx_reporter);
	adapter->tx_reporter = NULL;
	devlink_port_unregister(&priv->port);
	devlink_free(adapter->devlink);
	adapter->devlink = NULL;
}
