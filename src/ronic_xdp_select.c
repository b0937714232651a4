// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: how many XDP tx rings a port gets, and the static key that turns
 * on per-ring locking while any port has more CPUs than XDP rings.
 *
 * The key is global; each adapter holds at most one reference, taken and
 * dropped only through ronic_xdp_lock_key_update() with the adapter's own
 * flag, so attach and detach on several ports in any order stay balanced.
 */
#include <linux/jump_label.h>
#include <linux/minmax.h>

#include "ronic_xdp.h"

#define RONIC_XDP_HW_QUEUES	16

DEFINE_STATIC_KEY_FALSE(ronic_xdp_lock_key);

/**
 * ronic_xdp_ring_count - XDP tx rings for a port
 * @cpus: nr_cpu_ids (possible CPUs, not online ones: CPUs come and go)
 * @stack_queues: hardware tx queues the stack uses
 *
 * Return: one ring per CPU, as many as the hardware queues left allow.
 */
u16 ronic_xdp_ring_count(unsigned int cpus, u16 stack_queues)
{
	if (stack_queues >= RONIC_XDP_HW_QUEUES)
		return 0;
	return min_t(unsigned int, cpus, RONIC_XDP_HW_QUEUES - stack_queues);
}

/**
 * ronic_xdp_rings_shared - whether some CPUs must share an XDP ring
 * @cpus: nr_cpu_ids
 * @rings: XDP rings of the port
 *
 * Return: true if rings need their lock.
 */
bool ronic_xdp_rings_shared(unsigned int cpus, u16 rings)
{
	return cpus > rings;
}

/**
 * ronic_xdp_lock_key_update - hold or release one port's key reference
 * @held: the port's flag: whether it holds a reference
 * @need: whether the port now shares rings
 */
void ronic_xdp_lock_key_update(bool *held, bool need)
{
	if (need && !*held) {
		static_branch_inc(&ronic_xdp_lock_key);
		*held = true;
	} else if (!need && *held) {
		static_branch_dec(&ronic_xdp_lock_key);
		*held = false;
	}
}
