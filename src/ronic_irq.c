// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: interrupt vectors and the queue vectors behind them. MSI-X gives
 * one vector for link and other causes plus one per queue pair; MSI and
 * INTx fall back to a single vector serving one queue pair.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

#include "ronic.h"
#include "ronic_compat.h"
#include "ronic_hw.h"
#include "ronic_irq.h"

static irqreturn_t ronic_msix_other(int irq, void *data)
{
	struct ronic_adapter *adapter = data;
	u32 icr = ronic_hw_read_clear_causes(adapter);

	/* The self-test raises this vector and watches the count. */
	atomic_inc(&adapter->other_irqs);
	if ((icr & RONIC_ICR_LSC) && !test_bit(RONIC_STATE_DOWN, &adapter->state))
		mod_delayed_work(system_wq, &adapter->watchdog, 0);
	return IRQ_HANDLED;
}

static irqreturn_t ronic_msix_queue(int irq, void *data)
{
	struct ronic_q_vector *qv = data;

	/* Masked until the poll is done (EIAM auto-masking is not relied on). */
	ronic_hw_mask_vector(qv->adapter, qv->eims);
	napi_schedule_irqoff(&qv->napi);
	return IRQ_HANDLED;
}

/* The single MSI or INTx vector: link causes and queue pair 0. */
static irqreturn_t ronic_intr(int irq, void *data)
{
	struct ronic_adapter *adapter = data;
	u32 icr = ronic_hw_read_clear_causes(adapter);

	if (!icr)
		return IRQ_NONE;	/* a shared INTx line, not ours */

	atomic_inc(&adapter->other_irqs);
	ronic_hw_irq_disable(adapter);
	if ((icr & RONIC_ICR_LSC) && !test_bit(RONIC_STATE_DOWN, &adapter->state))
		mod_delayed_work(system_wq, &adapter->watchdog, 0);
	napi_schedule_irqoff(&adapter->q_vector[0]->napi);
	return IRQ_HANDLED;
}

static int ronic_alloc_vectors(struct ronic_adapter *adapter, bool allow_msix)
{
	struct pci_dev *pdev = adapter->pdev;
	int want = min_t(int, num_online_cpus(), RONIC_MAX_QUEUES);
	int got;

	if (allow_msix) {
		got = pci_alloc_irq_vectors(pdev, 2, want + 1, PCI_IRQ_MSIX);
		if (got > 0) {
			adapter->irq_mode = RONIC_IRQ_MSIX;
			adapter->num_vectors = got;
			adapter->max_queues = got - 1;
			return 0;
		}
		dev_info(&pdev->dev, "MSI-X unavailable (%d), falling back to one vector\n",
			 got);
	}

	got = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI | PCI_IRQ_INTX);
	if (got < 0)
		return got;
	adapter->irq_mode = pdev->msi_enabled ? RONIC_IRQ_MSI : RONIC_IRQ_INTX;
	adapter->num_vectors = 1;
	adapter->max_queues = 1;
	return 0;
}

static void ronic_free_q_vector(struct ronic_adapter *adapter, u16 v)
{
	struct ronic_q_vector *qv = adapter->q_vector[v];

	if (!qv)
		return;
	netif_napi_del(&qv->napi);
	kfree(qv);
	adapter->q_vector[v] = NULL;
}

static int ronic_alloc_q_vector(struct ronic_adapter *adapter, u16 v)
{
	struct ronic_q_vector *qv = kzalloc(sizeof(*qv), GFP_KERNEL);

	if (!qv)
		return -ENOMEM;
	qv->adapter = adapter;
	qv->v_idx = v;
	qv->msix_vector = adapter->irq_mode == RONIC_IRQ_MSIX ? v + 1 : 0;
	qv->eims = BIT(qv->msix_vector);
	qv->itr_val = adapter->itr_usecs << 2;
	/*
	 * Config slot v: the instance keeps its NAPI ID and napi-set settings
	 * across down/up and the queue-pair switches, which disable and
	 * enable it.
	 */
	netif_napi_add_config(adapter->netdev, &qv->napi, ronic_napi_poll, v);
	/* The vector's IRQ number holds until pci_free_irq_vectors(). */
	netif_napi_set_irq(&qv->napi,
			   pci_irq_vector(adapter->pdev, qv->msix_vector));
	adapter->q_vector[v] = qv;
	return 0;
}

/**
 * ronic_irq_init - interrupt vectors, and a queue vector per possible queue pair
 * @adapter: the device
 * @allow_msix: false to force the single-vector fallback
 *
 * Return: 0 or a negative errno, with nothing left allocated.
 */
int ronic_irq_init(struct ronic_adapter *adapter, bool allow_msix)
{
	u16 v;
	int err;

	err = ronic_alloc_vectors(adapter, allow_msix);
	if (err)
		return err;

	adapter->num_queues = adapter->max_queues;
	adapter->num_q_vectors = adapter->max_queues;
	adapter->eims_other = adapter->irq_mode == RONIC_IRQ_MSIX ?
			      BIT(RONIC_OTHER_VECTOR) : 0;
	for (v = 0; v < adapter->num_q_vectors; v++) {
		err = ronic_alloc_q_vector(adapter, v);
		if (err)
			goto err_free;
	}
	return 0;

err_free:
	while (v--)
		ronic_free_q_vector(adapter, v);
	pci_free_irq_vectors(adapter->pdev);
	return err;
}

/**
 * ronic_irq_deinit - undo ronic_irq_init()
 * @adapter: the device, its interrupts released
 */
void ronic_irq_deinit(struct ronic_adapter *adapter)
{
	u16 v;

	for (v = 0; v < adapter->num_q_vectors; v++)
		ronic_free_q_vector(adapter, v);
	adapter->num_q_vectors = 0;
	pci_free_irq_vectors(adapter->pdev);
}

/*
 * The default CPU of queue vector @v's interrupt and of its tx queue's XPS:
 * the vectors spread over the CPUs nearest the device first.
 */
static const struct cpumask *ronic_vector_cpus(struct ronic_adapter *adapter,
					       u16 v)
{
	return cpumask_of(cpumask_local_spread(v, dev_to_node(&adapter->pdev->dev)));
}

/**
 * ronic_irq_set_xps - default XPS: each tx queue from its vector's CPU
 * @adapter: the device, its real tx queue count set
 *
 * Completions then run on the CPU that queued the frames. Only queues that
 * have no map yet get the default: those new since the last start (the
 * core drops the maps of queues a smaller count removed), so what a user
 * wrote to xps_cpus survives down/up, -G and resets.
 */
void ronic_irq_set_xps(struct ronic_adapter *adapter)
{
	u16 q = min(adapter->xps_default_queues, adapter->num_queues);
	int err;

	if (adapter->irq_mode != RONIC_IRQ_MSIX)
		return;
	for (; q < adapter->num_queues; q++) {
		err = netif_set_xps_queue(adapter->netdev,
					  ronic_vector_cpus(adapter, q), q);
		if (err)
			netdev_warn(adapter->netdev, "XPS for tx queue %u not set (%d)\n",
				    q, err);
	}
	adapter->xps_default_queues = adapter->num_queues;
}

/*
 * The default affinity is set at the first request only: the vectors live
 * from probe to remove, and the core keeps what a user wrote to
 * smp_affinity across free_irq()/request_irq(); later opens refresh the
 * hint alone.
 */
static void ronic_irq_set_affinity(struct ronic_adapter *adapter, int irq,
				   u16 v)
{
	const struct cpumask *mask = ronic_vector_cpus(adapter, v);

	if (adapter->irq_affinity_defaulted)
		irq_update_affinity_hint(irq, mask);
	else
		irq_set_affinity_and_hint(irq, mask);
}

/**
 * ronic_irq_request - install the handlers, with affinity hints
 * @adapter: the device
 *
 * Return: 0 or a negative errno, with no handler left installed.
 */
int ronic_irq_request(struct ronic_adapter *adapter)
{
	struct net_device *netdev = adapter->netdev;
	struct pci_dev *pdev = adapter->pdev;
	struct ronic_q_vector *qv;
	int err, irq;
	u16 v;

	if (adapter->irq_mode != RONIC_IRQ_MSIX) {
		snprintf(adapter->other_name, sizeof(adapter->other_name), "%s",
			 netdev->name);
		return request_irq(pci_irq_vector(pdev, 0), ronic_intr,
				   adapter->irq_mode == RONIC_IRQ_INTX ? IRQF_SHARED : 0,
				   adapter->other_name, adapter);
	}

	snprintf(adapter->other_name, sizeof(adapter->other_name), "%s-other",
		 netdev->name);
	err = request_irq(pci_irq_vector(pdev, RONIC_OTHER_VECTOR),
			  ronic_msix_other, 0, adapter->other_name, adapter);
	if (err)
		return err;

	for (v = 0; v < adapter->num_q_vectors; v++) {
		qv = adapter->q_vector[v];
		snprintf(qv->name, sizeof(qv->name), "%s-TxRx-%u", netdev->name, v);
		irq = pci_irq_vector(pdev, qv->msix_vector);
		err = request_irq(irq, ronic_msix_queue, 0, qv->name, qv);
		if (err)
			goto err_free;
		ronic_irq_set_affinity(adapter, irq, v);
	}
	adapter->irq_affinity_defaulted = true;
	return 0;

err_free:
	while (v--) {
		qv = adapter->q_vector[v];
		irq = pci_irq_vector(pdev, qv->msix_vector);
		irq_update_affinity_hint(irq, NULL);
		free_irq(irq, qv);
	}
	free_irq(pci_irq_vector(pdev, RONIC_OTHER_VECTOR), adapter);
	return err;
}

/**
 * ronic_irq_free - remove the handlers ronic_irq_request() installed
 * @adapter: the device, its interrupts masked
 */
void ronic_irq_free(struct ronic_adapter *adapter)
{
	struct pci_dev *pdev = adapter->pdev;
	struct ronic_q_vector *qv;
	int irq;
	u16 v;

	if (adapter->irq_mode != RONIC_IRQ_MSIX) {
		free_irq(pci_irq_vector(pdev, 0), adapter);
		return;
	}
	for (v = 0; v < adapter->num_q_vectors; v++) {
		qv = adapter->q_vector[v];
		irq = pci_irq_vector(pdev, qv->msix_vector);
		irq_update_affinity_hint(irq, NULL);
		free_irq(irq, qv);
	}
	free_irq(pci_irq_vector(pdev, RONIC_OTHER_VECTOR), adapter);
}

/**
 * ronic_irq_sync - wait for running handlers to finish
 * @adapter: the device, its interrupts masked
 */
void ronic_irq_sync(struct ronic_adapter *adapter)
{
	u16 v;

	for (v = 0; v < adapter->num_vectors; v++)
		synchronize_irq(pci_irq_vector(adapter->pdev, v));
}
