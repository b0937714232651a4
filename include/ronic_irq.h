/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupt vectors and queue vectors.
 */
#ifndef _RONIC_IRQ_H_
#define _RONIC_IRQ_H_

struct ronic_adapter;

int ronic_irq_init(struct ronic_adapter *adapter, bool allow_msix);
void ronic_irq_deinit(struct ronic_adapter *adapter);
int ronic_irq_request(struct ronic_adapter *adapter);
void ronic_irq_free(struct ronic_adapter *adapter);
void ronic_irq_sync(struct ronic_adapter *adapter);
void ronic_irq_set_xps(struct ronic_adapter *adapter);

#endif /* _RONIC_IRQ_H_ */
