// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: debugfs. One directory per port under /sys/kernel/debug/ronic/,
 * named by PCI address; its ro_policy file prints the relaxed-ordering
 * policy's inputs and outputs as they were at the last decision, its
 * tx_hang_queue file forces a tx hang for testing the timeout recovery,
 * and its xdp_rings_cap file (a test aid for the benchmark) caps the XDP
 * tx rings at the next ring rebuild, so CPUs share rings and take their
 * locks on any machine.
 */
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>

#include "ronic.h"
#include "ronic_debugfs.h"
#include "ronic_regs.h"

/* The shared "ronic" directory lives while any port does. */
static DEFINE_MUTEX(ronic_debugfs_lock);
static struct dentry *ronic_debugfs_root;
static unsigned int ronic_debugfs_ports;

static const char *ronic_ro_verdict_text(enum ronic_ro_verdict v)
{
	switch (v) {
	case RONIC_RO_OK:
		return "ok: applied, the device may issue relaxed-ordering TLPs";
	case RONIC_RO_OFF:
		return "off: nothing requested";
	case RONIC_RO_DORMANT:
		return "dormant: programmed, but the PCIe Relaxed Ordering Enable bit is off";
	case RONIC_RO_FORBIDDEN_ROOT:
		return "refused: the root port cannot take relaxed-ordering TLPs";
	case RONIC_RO_FORBIDDEN_VF:
		return "refused: a virtual function follows its PF";
	}
	return "?";
}

static const char *ronic_on_off(bool on)
{
	return on ? "on" : "off";
}

static void ronic_debugfs_show_ro(struct seq_file *s,
				  const struct ronic_adapter *adapter)
{
	const struct ronic_ro_state *ro = &adapter->ro;
	const struct ronic_ro_decision *d = &ro->decision;
	const struct ronic_ro_platform *p = &ro->plat;
	bool tx_weak = d->tx_attrs & DMA_ATTR_WEAK_ORDERING;
	bool rx_weak = d->rx_page_attrs & DMA_ATTR_WEAK_ORDERING;
	u16 q;

	seq_puts(s, "inputs:\n");
	seq_printf(s, "  arch: %s\n", p->arch < RONIC_RO_ARCH_NR ?
		   ronic_ro_arch_table[p->arch].name : "?");
	seq_printf(s, "  requested pci_ro_read: %s\n",
		   ronic_on_off(ro->requested & RONIC_RO_READ));
	seq_printf(s, "  requested pci_ro_write: %s\n",
		   ronic_on_off(ro->requested & RONIC_RO_WRITE));
	seq_printf(s, "  root_port_forbids_ro: %s\n",
		   ronic_on_off(p->root_forbids));
	seq_printf(s, "  vf: %s\n", ronic_on_off(p->is_vf));
	seq_printf(s, "  device_ro_enable: %s\n", ronic_on_off(p->dev_enabled));
	seq_puts(s, "outputs:\n");
	seq_printf(s, "  pci_ro_read: %s\n", ronic_on_off(d->flags & RONIC_RO_READ));
	seq_printf(s, "  pci_ro_write: %s\n",
		   ronic_on_off(d->flags & RONIC_RO_WRITE));
	seq_printf(s, "  host to_device (tx payload): %s\n",
		   tx_weak ? "DMA_ATTR_WEAK_ORDERING" : "none");
	/* The pool's attributes, not the flags': XDP_TX reuses its mapping. */
	seq_printf(s, "  host rx pages (page_pool, also XDP_TX): %s\n",
		   rx_weak ? "DMA_ATTR_WEAK_ORDERING" : "none");
	if (d->rx_weak_unrequested)
		seq_puts(s, "  note: pci_ro_write off orders the device's writes, but page_pool still maps every rx page with DMA_ATTR_WEAK_ORDERING\n");
	for (q = 0; q < adapter->num_queues; q++)
		seq_printf(s, "  queue %u: DCA_TXCTRL ro 0x%08x DCA_RXCTRL ro 0x%08x\n",
			   q, d->dca_txctrl, d->dca_rxctrl);
	for (q = 0; q < adapter->num_xdp_rings; q++)
		seq_printf(s, "  xdp queue %u: DCA_TXCTRL ro 0x%08x\n",
			   q, d->dca_txctrl);
	seq_printf(s, "message: %s\n", ronic_ro_verdict_text(d->verdict));
}

static int ronic_debugfs_ro_policy_show(struct seq_file *s, void *unused)
{
	struct ronic_adapter *adapter = s->private;

	/* The flags and queue counts change under rtnl. */
	rtnl_lock();
	ronic_debugfs_show_ro(s, adapter);
	rtnl_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ronic_debugfs_ro_policy);

/* Which stack tx queues have their tail frozen: "none", or their indexes. */
static int ronic_debugfs_tx_hang_show(struct seq_file *s, void *unused)
{
	struct ronic_adapter *adapter = s->private;
	bool any = false;
	u16 q;

	rtnl_lock();
	if (ronic_port_open(adapter)) {
		for (q = 0; q < adapter->num_queues; q++) {
			if (!READ_ONCE(adapter->tx_ring[q]->tail_frozen))
				continue;
			seq_printf(s, "%s%u", any ? " " : "", q);
			any = true;
		}
	}
	rtnl_unlock();
	seq_puts(s, any ? "\n" : "none\n");
	return 0;
}

static int ronic_debugfs_tx_hang_open(struct inode *inode, struct file *file)
{
	return single_open(file, ronic_debugfs_tx_hang_show, inode->i_private);
}

/*
 * Writing a stack tx queue's index stops the tail writes of that queue: the
 * device sends nothing more from it, the queue fills and stops, and the
 * stack's watchdog calls ndo_tx_timeout, whose reset clears the freeze.
 */
static ssize_t ronic_debugfs_tx_hang_write(struct file *file,
					   const char __user *buf,
					   size_t count, loff_t *ppos)
{
	struct ronic_adapter *adapter =
		((struct seq_file *)file->private_data)->private;
	struct net_device *netdev = adapter->netdev;
	unsigned int q;
	int err;

	err = kstrtouint_from_user(buf, count, 0, &q);
	if (err)
		return err;

	/* The doorbell reads tail_frozen only once this key is on. */
	ronic_tx_hang_arm();
	rtnl_lock();
	if (!ronic_port_open(adapter)) {
		err = -ENETDOWN;
	} else if (q >= adapter->num_queues) {
		err = -EINVAL;
	} else {
		WRITE_ONCE(adapter->tx_ring[q]->tail_frozen, true);
		netdev_warn(netdev, "debugfs: tx queue %u tail writes stopped until the timeout reset\n",
			    q);
	}
	rtnl_unlock();
	return err ? err : count;
}

static const struct file_operations ronic_debugfs_tx_hang_fops = {
	.owner		= THIS_MODULE,
	.open		= ronic_debugfs_tx_hang_open,
	.read		= seq_read,
	.write		= ronic_debugfs_tx_hang_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/**
 * ronic_debugfs_add - create the port's debugfs directory and files
 * @adapter: the port, its relaxed-ordering state initialised
 *
 * Failure is not an error: debugfs is for debugging only.
 */
void ronic_debugfs_add(struct ronic_adapter *adapter)
{
	struct dentry *dir;

	mutex_lock(&ronic_debugfs_lock);
	if (!ronic_debugfs_ports)
		ronic_debugfs_root = debugfs_create_dir(RONIC_DRV_NAME, NULL);
	ronic_debugfs_ports++;
	dir = debugfs_create_dir(pci_name(adapter->pdev), ronic_debugfs_root);
	mutex_unlock(&ronic_debugfs_lock);

	debugfs_create_file("ro_policy", 0400, dir, adapter,
			    &ronic_debugfs_ro_policy_fops);
	debugfs_create_file("tx_hang_queue", 0600, dir, adapter,
			    &ronic_debugfs_tx_hang_fops);
	debugfs_create_u16("xdp_rings_cap", 0600, dir, &adapter->xdp_rings_cap);
	adapter->debugfs_dir = dir;
}

/**
 * ronic_debugfs_del - remove what ronic_debugfs_add() created
 * @adapter: the port; waits for readers of its files to finish
 */
void ronic_debugfs_del(struct ronic_adapter *adapter)
{
	debugfs_remove(adapter->debugfs_dir);
	adapter->debugfs_dir = NULL;

	mutex_lock(&ronic_debugfs_lock);
	if (!--ronic_debugfs_ports) {
		debugfs_remove(ronic_debugfs_root);
		ronic_debugfs_root = NULL;
	}
	mutex_unlock(&ronic_debugfs_lock);
}
