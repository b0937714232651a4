/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Relaxed ordering for one port: platform facts, the user's flags and
 * their application to the DMA helper and the queue registers.
 */
#ifndef _RONIC_RO_H_
#define _RONIC_RO_H_

#include "ronic_ro_policy.h"

struct ronic_adapter;

struct ronic_ro_state {
	u32 flags;			/* RONIC_RO_* in force */
	/* the inputs of the decision in force, for debugfs */
	struct ronic_ro_platform plat;
	u32 requested;
	struct ronic_ro_decision decision;
	bool dormant_reported;
};

void ronic_ro_init(struct ronic_adapter *adapter);
int ronic_ro_set_flags(struct ronic_adapter *adapter, u32 flags);
void ronic_ro_program_queues(struct ronic_adapter *adapter);

#endif /* _RONIC_RO_H_ */
