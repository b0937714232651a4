// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: take one PCI device through what system sleep does to it,
 * and back, without suspending the machine. The test bed's guest cannot
 * suspend itself (its root file system, virtio-9p, has no freeze and
 * restore), so this is how the VM tests reach a driver's sleep path under
 * traffic: the driver's suspend callback; the config space saved and the
 * device put in the low-power state the PCI core picks, with PME armed
 * when the device may wake the system (pci_prepare_to_sleep, as the PCI
 * core's suspend_noirq step); a pause; then D0, the config space restored
 * and the driver's resume callback. The 82576's wake-up registers (WUC,
 * WUFC) are logged between the driver's suspend and the power-down, where
 * they hold what ethtool -s wol chose, and after the driver's resume.
 *
 * It all happens at load time; the module then does nothing until it is
 * unloaded. A callback's error fails the load.
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/pci.h>

/* The driver's register map (tests/lib.sh copies it in beside us). */
#include "ronic_regs.h"

static char *dev;
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "PCI address of the device, e.g. 0000:01:00.0");

static unsigned int asleep_ms = 1000;
module_param(asleep_ms, uint, 0444);
MODULE_PARM_DESC(asleep_ms, "time in the low-power state, in ms (1000)");

static void sleep_log_wake_regs(struct pci_dev *pdev, const char *when)
{
	void __iomem *hw = pci_iomap(pdev, 0, RONIC_WUFC + 4);

	if (!hw) {
		pci_warn(pdev, "ronic_sleep: BAR 0 not mapped\n");
		return;
	}
	pci_info(pdev, "ronic_sleep: after %s: WUC 0x%08x WUFC 0x%08x\n",
		 when, ioread32(hw + RONIC_WUC), ioread32(hw + RONIC_WUFC));
	pci_iounmap(pdev, hw);
}

static int sleep_cycle(struct pci_dev *pdev)
{
	const struct dev_pm_ops *pm;
	int err;

	if (!pdev->dev.driver || !pdev->dev.driver->pm ||
	    !pdev->dev.driver->pm->suspend || !pdev->dev.driver->pm->resume) {
		pci_err(pdev, "ronic_sleep: no driver with suspend and resume\n");
		return -ENODEV;
	}
	pm = pdev->dev.driver->pm;
	err = pm->suspend(&pdev->dev);
	if (err) {
		pci_err(pdev, "ronic_sleep: suspend failed: %d\n", err);
		return err;
	}
	sleep_log_wake_regs(pdev, "suspend");
	pci_save_state(pdev);
	err = pci_prepare_to_sleep(pdev);
	pci_info(pdev, "ronic_sleep: asleep in D%d (%d), wake-up %s, for %u ms\n",
		 pdev->current_state, err,
		 device_may_wakeup(&pdev->dev) ? "armed" : "off", asleep_ms);
	msleep(asleep_ms);
	pci_back_from_sleep(pdev);
	pci_restore_state(pdev);
	err = pm->resume(&pdev->dev);
	sleep_log_wake_regs(pdev, "resume");
	pci_info(pdev, "ronic_sleep: back in D%d, resume %d\n",
		 pdev->current_state, err);
	return err;
}

static int __init ronic_sleep_init(void)
{
	unsigned int domain, bus, slot, fn;
	struct pci_dev *pdev;
	int err;

	if (!dev || sscanf(dev, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return -EINVAL;
	pdev = pci_get_domain_bus_and_slot(domain, bus, PCI_DEVFN(slot, fn));
	if (!pdev)
		return -ENODEV;
	/* The driver core's lock, as around its own callbacks. */
	device_lock(&pdev->dev);
	err = sleep_cycle(pdev);
	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
	return err;
}

static void __exit ronic_sleep_exit(void)
{
}

module_init(ronic_sleep_init);
module_exit(ronic_sleep_exit);
MODULE_DESCRIPTION("ronic test helper: one device through suspend and resume");
MODULE_LICENSE("GPL");
