// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the XDP ring selector and the locking key
 * (include/ronic_xdp.h, src/ronic_xdp_select.c).
 */
// sources: src/ronic_xdp_select.c
#include <stdio.h>

#include "ronic_xdp.h"

#define SUITE "xdp_select"
#include "check.h"


/* NR_CPUS of a large distribution kernel. */
#define MAX_CPUS 8192

static void test_count(void)
{
	CHECK("2 CPUs, 2 stack queues: 2 XDP rings", ronic_xdp_ring_count(2, 2) == 2);
	CHECK("72 CPUs, 8 stack queues: 8 XDP rings", ronic_xdp_ring_count(72, 8) == 8);
	CHECK("72 CPUs, 1 stack queue: 15 XDP rings", ronic_xdp_ring_count(72, 1) == 15);
	CHECK("no hardware queue left: no XDP ring", ronic_xdp_ring_count(4, 16) == 0);
	CHECK("2 CPUs on 2 rings: not shared", !ronic_xdp_rings_shared(2, 2));
	CHECK("72 CPUs on 8 rings: shared", ronic_xdp_rings_shared(72, 8));
}

static void test_index(void)
{
	unsigned int cpus, rings, cpu, bad = 0, uneven = 0;
	unsigned int use[16];

	for (rings = 1; rings <= 16; rings++) {
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			if (ronic_xdp_ring_index(cpu, rings) >= rings)
				bad++;
	}
	CHECK("every CPU below NR_CPUS maps inside the ring array", bad == 0);

	for (cpu = 0; cpu < 8; cpu++)
		if (ronic_xdp_ring_index(cpu, 8) != cpu)
			bad++;
	CHECK("identity while CPUs fit the rings", bad == 0);
	CHECK("CPU 71 of 72 on 8 rings uses ring 7", ronic_xdp_ring_index(71, 8) == 7);
	CHECK("CPU 65 on 8 rings uses ring 1", ronic_xdp_ring_index(65, 8) == 1);

	/* Modulo spreads CPUs evenly: no ring carries two more than another. */
	for (cpus = 9; cpus <= 200; cpus++) {
		unsigned int lo = ~0u, hi = 0;

		for (rings = 0; rings < 8; rings++)
			use[rings] = 0;
		for (cpu = 0; cpu < cpus; cpu++)
			use[ronic_xdp_ring_index(cpu, 8)]++;
		for (rings = 0; rings < 8; rings++) {
			lo = use[rings] < lo ? use[rings] : lo;
			hi = use[rings] > hi ? use[rings] : hi;
		}
		if (hi - lo > 1)
			uneven++;
	}
	CHECK("CPUs spread evenly over shared rings", uneven == 0);
}

static void test_key_balance(void)
{
	bool a = false, b = false;

	ronic_xdp_lock_key_update(&a, true);
	CHECK("one sharing port turns locking on", ronic_xdp_locking());
	ronic_xdp_lock_key_update(&a, true);
	CHECK("a second update of the same port takes no second reference",
	      ronic_xdp_lock_key.enabled == 1);
	ronic_xdp_lock_key_update(&b, true);
	ronic_xdp_lock_key_update(&a, false);
	CHECK("A down, B up: still locking", ronic_xdp_locking());
	ronic_xdp_lock_key_update(&a, false);
	CHECK("A released twice: no underflow", ronic_xdp_lock_key.enabled == 1);
	ronic_xdp_lock_key_update(&b, false);
	CHECK("both down: locking off, key back at 0",
	      !ronic_xdp_locking() && ronic_xdp_lock_key.enabled == 0);

	/* Every interleaving of two ports attaching and detaching. */
	for (unsigned int order = 0; order < 64; order++) {
		bool p[2] = { false, false };

		for (unsigned int step = 0; step < 6; step++)
			ronic_xdp_lock_key_update(&p[(order >> step) & 1], step % 3 != 2);
		ronic_xdp_lock_key_update(&p[0], false);
		ronic_xdp_lock_key_update(&p[1], false);
		if (ronic_xdp_lock_key.enabled != 0)
			failed++;
	}
	CHECK("64 interleavings of two ports leave the key as before",
	      ronic_xdp_lock_key.enabled == 0);
}

int main(void)
{
	test_count();
	test_index();
	test_key_balance();
	return check_summary();
}
