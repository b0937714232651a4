// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: devlink. "devlink dev info pci/<bdf>" reports the serial number
 * (the PCI Device Serial Number, or the permanent MAC address on a part
 * without one, such as QEMU's model), the driver's version and the EEPROM
 * image version. The netdev is linked to a physical devlink port.
 */
#include <linux/etherdevice.h>
#include <linux/pci.h>
#include <net/devlink.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_devlink.h"

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

	devlink_port_unregister(&priv->port);
	devlink_free(adapter->devlink);
	adapter->devlink = NULL;
}
