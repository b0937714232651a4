// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: mark a PCIe root port as unable to take relaxed-ordering
 * TLPs, as drivers/pci/quirks.c does for the ports on its list, and clear
 * the mark again on unload. Lets the VM tests reach the refusal path of
 * ronic's pci_ro_* flags on QEMU, whose root ports have no quirk.
 */
#include <linux/module.h>
#include <linux/pci.h>

static char *root;
module_param(root, charp, 0444);
MODULE_PARM_DESC(root, "PCI address of the root port, e.g. 0000:00:02.0");

static struct pci_dev *marked;

static int __init ronic_ro_quirk_init(void)
{
	unsigned int domain, bus, slot, fn;

	if (!root || sscanf(root, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return -EINVAL;
	marked = pci_get_domain_bus_and_slot(domain, bus, PCI_DEVFN(slot, fn));
	if (!marked)
		return -ENODEV;
	marked->dev_flags |= PCI_DEV_FLAGS_NO_RELAXED_ORDERING;
	pr_info("ronic_ro_quirk: %s marked PCI_DEV_FLAGS_NO_RELAXED_ORDERING\n",
		pci_name(marked));
	return 0;
}

static void __exit ronic_ro_quirk_exit(void)
{
	marked->dev_flags &= ~PCI_DEV_FLAGS_NO_RELAXED_ORDERING;
	pci_dev_put(marked);
}

module_init(ronic_ro_quirk_init);
module_exit(ronic_ro_quirk_exit);
MODULE_DESCRIPTION("ronic test helper: quirk a root port against relaxed ordering");
MODULE_LICENSE("GPL");
