// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: when the device goes away and comes back. PCI error recovery
 * (AER), a function reset from outside (sysfs reset, a hypervisor) and
 * system sleep share one pair of steps: detach (the stack stops using
 * the port, the rings and interrupts go) and attach (the device is
 * reset and set up again, the rings come back with the configuration the
 * adapter keeps). Wake-on-LAN is armed on the way down to sleep or off.
 */
#include <linux/pci.h>
#include <linux/rtnetlink.h>

#include "ronic.h"
#include "ronic_hw.h"

/**
 * ronic_detach - the stack stops using the port; its rings and IRQs go
 * @adapter: the device
 *
 * An open port stays open for the stack (RONIC_STATE_DETACHED: ronic_stop()
 * knows there is nothing left to stop). Once only: a recovery that fails
 * calls error_detected again. Also the first step of ronic_shutdown().
 */
void ronic_detach(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;

	rtnl_lock();
	if (netif_device_present(netdev)) {
		netif_device_detach(netdev);
		if (netif_running(netdev)) {
			ronic_stop(netdev);
			set_bit(RONIC_STATE_DETACHED, &adapter->state);
		}
	}
	rtnl_unlock();
}

/*
 * The device, reachable again, is reset and set up; an open port gets
 * its rings back and the stack uses it again.
 */
static int ronic_attach(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;
	int err;

	err = ronic_hw_reset(adapter);
	if (err)
		return err;
	ronic_hw_init(adapter);
	rtnl_lock();
	if (test_and_clear_bit(RONIC_STATE_DETACHED, &adapter->state) &&
	    netif_running(netdev)) {
		err = ronic_open(netdev);
		if (err) {
			/* Still nothing for ronic_stop() to stop. */
			set_bit(RONIC_STATE_DETACHED, &adapter->state);
			netdev_err(netdev, "could not reopen: %d\n", err);
			rtnl_unlock();
			return err;
		}
	}
	netif_device_attach(netdev);
	rtnl_unlock();
	return 0;
}

/**
 * ronic_arm_wake - program the wake-up filters ethtool chose, or none
 * @adapter: the device, detached
 */
void ronic_arm_wake(struct ronic_adapter *adapter)
{
	u32 wufc = 0;

	if (adapter->wol & WAKE_MAGIC)
		wufc |= RONIC_WUFC_MAG;
	if (adapter->wol & WAKE_UCAST)
		wufc |= RONIC_WUFC_EX;
	if (adapter->wol & WAKE_MCAST)
		wufc |= RONIC_WUFC_MC;
	if (adapter->wol & WAKE_BCAST)
		wufc |= RONIC_WUFC_BC;
	ronic_hw_set_wake(adapter, wufc);
}

static pci_ers_result_t ronic_io_error_detected(struct pci_dev *pdev,
						pci_channel_state_t state)
{
	struct ronic_adapter *adapter = netdev_priv(pci_get_drvdata(pdev));

	dev_info(&pdev->dev, "PCI error detected (channel state %d)\n", state);
	ronic_detach(adapter);
	if (state == pci_channel_io_perm_failure)
		return PCI_ERS_RESULT_DISCONNECT;
	/* A device a failed recovery left disabled is not disabled twice. */
	if (pci_is_enabled(pdev))
		pci_disable_device(pdev);
	return PCI_ERS_RESULT_NEED_RESET;
}

static pci_ers_result_t ronic_io_slot_reset(struct pci_dev *pdev)
{
	if (pci_enable_device_mem(pdev)) {
		dev_err(&pdev->dev, "cannot re-enable the device after a reset\n");
		return PCI_ERS_RESULT_DISCONNECT;
	}
	pci_set_master(pdev);
	pci_restore_state(pdev);
	/* Saved again: restoring consumed the saved state. */
	pci_save_state(pdev);
	return PCI_ERS_RESULT_RECOVERED;
}

static void ronic_io_resume(struct pci_dev *pdev)
{
	struct ronic_adapter *adapter = netdev_priv(pci_get_drvdata(pdev));

	if (ronic_attach(adapter))
		dev_err(&pdev->dev, "the port did not come back after the PCI error\n");
	else
		dev_info(&pdev->dev, "recovered from the PCI error\n");
}

/* A function reset (sysfs reset, FLR): the PCI core restores the state. */
static void ronic_reset_prepare(struct pci_dev *pdev)
{
	ronic_detach(netdev_priv(pci_get_drvdata(pdev)));
}

static void ronic_reset_done(struct pci_dev *pdev)
{
	if (ronic_attach(netdev_priv(pci_get_drvdata(pdev))))
		dev_err(&pdev->dev, "the port did not come back after the reset\n");
}

const struct pci_error_handlers ronic_err_handlers = {
	.error_detected	= ronic_io_error_detected,
	.slot_reset	= ronic_io_slot_reset,
	.resume		= ronic_io_resume,
	.reset_prepare	= ronic_reset_prepare,
	.reset_done	= ronic_reset_done,
};

/*
 * System sleep (suspend, hibernation's freeze and poweroff): the PCI
 * core saves and restores the config space and picks the power state;
 * wake-up filters are armed only where the PCI core will let the device
 * wake the system (device_may_wakeup, from ethtool -s wol).
 */
static int ronic_suspend(struct device *dev)
{
	struct ronic_adapter *adapter = netdev_priv(dev_get_drvdata(dev));

	ronic_detach(adapter);
	if (device_may_wakeup(dev))
		ronic_arm_wake(adapter);
	return 0;
}

static int ronic_resume(struct device *dev)
{
	struct ronic_adapter *adapter = netdev_priv(dev_get_drvdata(dev));

	pci_set_master(to_pci_dev(dev));
	/* Awake: the filters that could have woken the system are off. */
	ronic_hw_set_wake(adapter, 0);
	return ronic_attach(adapter);
}

const struct dev_pm_ops ronic_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(ronic_suspend, ronic_resume)
};
