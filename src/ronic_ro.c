// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: relaxed ordering for a port. Reads what the PCI core knows of the
 * platform, asks the policy, and applies its decision: tx host attributes
 * to the DMA helper, RO enables to every queue.
 */
#include <linux/moduleparam.h>
#include <linux/pci.h>

#include "ronic.h"
#include "ronic_hw.h"
#include "ronic_ro.h"

static enum ronic_ro_mode ronic_ro_mode = RONIC_RO_MODE_AUTO;
static const char * const ronic_ro_mode_names[] = {
	[RONIC_RO_MODE_AUTO] = "auto",
	[RONIC_RO_MODE_ON] = "on",
	[RONIC_RO_MODE_OFF] = "off",
};

static int ronic_ro_mode_set(const char *val, const struct kernel_param *kp)
{
	int mode = sysfs_match_string(ronic_ro_mode_names, val);

	if (mode < 0) {
		pr_err("%s: relaxed_ordering=%s: not auto, on or off\n",
		       RONIC_DRV_NAME, val);
		return -EINVAL;
	}
	ronic_ro_mode = mode;
	return 0;
}

static int ronic_ro_mode_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", ronic_ro_mode_names[ronic_ro_mode]);
}

static const struct kernel_param_ops ronic_ro_mode_ops = {
	.set = ronic_ro_mode_set,
	.get = ronic_ro_mode_get,
};
module_param_cb(relaxed_ordering, &ronic_ro_mode_ops, NULL, 0444);
MODULE_PARM_DESC(relaxed_ordering,
		 "Initial pci_ro_read/pci_ro_write for every port: auto (the architecture's default: on for sparc64 and arm64, off elsewhere), on, off");

static void ronic_ro_platform(struct ronic_adapter *adapter,
			      struct ronic_ro_platform *plat)
{
	struct pci_dev *pdev = adapter->pdev;
	struct pci_dev *root = pcie_find_root_port(pdev);

	plat->arch = ronic_ro_this_arch();
	plat->root_forbids = root &&
			     (root->dev_flags & PCI_DEV_FLAGS_NO_RELAXED_ORDERING);
	plat->is_vf = pdev->is_virtfn;
	plat->dev_enabled = pcie_relaxed_ordering_enabled(pdev);
}

static void ronic_ro_report(struct ronic_adapter *adapter, u32 requested,
			    const struct ronic_ro_decision *d)
{
	struct pci_dev *root = pcie_find_root_port(adapter->pdev);
	struct device *dev = &adapter->pdev->dev;

	switch (d->verdict) {
	case RONIC_RO_FORBIDDEN_ROOT:
		dev_err(dev, "relaxed ordering refused: root port %s cannot take relaxed-ordering TLPs (PCI quirk)\n",
			root ? pci_name(root) : "?");
		break;
	case RONIC_RO_FORBIDDEN_VF:
		dev_err(dev, "relaxed ordering refused: a virtual function follows its PF\n");
		break;
	case RONIC_RO_DORMANT:
		if (adapter->ro.dormant_reported)
			break;
		adapter->ro.dormant_reported = true;
		dev_info(dev, "relaxed ordering programmed, but the PCIe Relaxed Ordering Enable bit of %s is off: the device will not issue relaxed-ordering transactions until it is set\n",
			 pci_name(adapter->pdev));
		break;
	default:
		break;
	}
}

static void ronic_ro_commit(struct ronic_adapter *adapter,
			    const struct ronic_ro_platform *plat, u32 requested,
			    const struct ronic_ro_decision *d)
{
	adapter->ro.plat = *plat;
	adapter->ro.requested = requested;
	adapter->ro.decision = *d;
	adapter->ro.flags = d->flags;
	/*
	 * New mappings take the new attributes; old ones keep their own.
	 * Rx pages keep the pool's (d->rx_page_attrs): nothing to apply.
	 */
	WRITE_ONCE(adapter->dma.tx_attrs, d->tx_attrs);
}

/**
 * ronic_ro_program_queues - write the RO enables of every active queue
 * @adapter: the device
 *
 * The enables are sampled per request, so they change under traffic
 * without a pause: a request is issued either relaxed or strongly ordered,
 * and either is correct for the queue's data.
 */
void ronic_ro_program_queues(struct ronic_adapter *adapter)
{
	const struct ronic_ro_decision *d = &adapter->ro.decision;
	u16 q;

	for (q = 0; q < adapter->num_queues; q++) {
		ronic_hw_set_tx_ro(adapter, adapter->tx_ring[q]->reg_idx,
				   d->dca_txctrl);
		ronic_hw_set_rx_ro(adapter, adapter->rx_ring[q]->reg_idx,
				   d->dca_rxctrl);
	}
	for (q = 0; q < adapter->num_xdp_rings; q++)
		ronic_hw_set_tx_ro(adapter, adapter->xdp_ring[q]->reg_idx,
				   d->dca_txctrl);
}

/**
 * ronic_ro_init - the port's starting flags, from the module parameter
 * @adapter: the device, before its rings are configured
 */
void ronic_ro_init(struct ronic_adapter *adapter)
{
	struct ronic_ro_platform plat;
	struct ronic_ro_decision d;
	u32 flags;

	ronic_ro_platform(adapter, &plat);
	flags = ronic_ro_default_flags(&plat, ronic_ro_mode);
	if (ronic_ro_decide(&plat, flags, &d))
		ronic_ro_decide(&plat, 0, &d);
	ronic_ro_commit(adapter, &plat, flags, &d);
	ronic_ro_report(adapter, flags, &d);
}

/**
 * ronic_ro_set_flags - switch pci_ro_read / pci_ro_write, live
 * @adapter: the device, under rtnl
 * @flags: RONIC_RO_* wanted
 *
 * Return: 0, or -EOPNOTSUPP (logged) where the platform forbids it; the
 * flags in force are unchanged on error.
 */
int ronic_ro_set_flags(struct ronic_adapter *adapter, u32 flags)
{
	struct ronic_ro_platform plat;
	struct ronic_ro_decision d;
	int err;

	ronic_ro_platform(adapter, &plat);
	err = ronic_ro_decide(&plat, flags, &d);
	ronic_ro_report(adapter, flags, &d);
	if (err)
		return err;

	ronic_ro_commit(adapter, &plat, flags, &d);
	if (ronic_port_open(adapter))
		ronic_ro_program_queues(adapter);
	return 0;
}
