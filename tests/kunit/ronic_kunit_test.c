// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of ronic's pure logic, in a real kernel: the relaxed-ordering
 * policy (src/ronic_ro_policy.c) for every architecture row and input, and
 * the XDP ring selector and its lock key (include/ronic_xdp.h,
 * src/ronic_xdp_select.c). tests/unit/ runs the same sources in userspace
 * against a shim; this module runs them against the kernel's own headers
 * (DMA_ATTR_WEAK_ORDERING, BIT(), static keys, NR_CPUS).
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/dma-mapping.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/module.h>

#include "ronic_regs.h"
#include "ronic_ro_policy.h"
#include "ronic_xdp.h"

/*
 * The documented table (Documentation/ronic.rst, "Defaults per
 * architecture"); sparc64's attribute is honoured by sun4v's IOMMU.
 */
static const struct {
	enum ronic_ro_arch arch;
	bool default_on;
	bool host_attr_honoured;
} ronic_doc_table[] = {
	{ RONIC_RO_ARCH_X86, false, false },
	{ RONIC_RO_ARCH_ARM64, true, false },
	{ RONIC_RO_ARCH_SPARC64, true, true },
	{ RONIC_RO_ARCH_OTHER, false, false },
};

static const u32 ronic_tx_read = RONIC_DCA_TX_DESC_RRO_EN | RONIC_DCA_TX_DATA_RRO_EN;
/* What page_pool_dma_map() passes in this kernel (net/core/page_pool.c). */
static const unsigned long ronic_pool_attrs = DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING;
static const u32 ronic_rx_write = RONIC_DCA_RX_DATA_WRO_EN | RONIC_DCA_RX_HDR_WRO_EN;

static struct ronic_ro_platform ronic_plat(enum ronic_ro_arch arch)
{
	return (struct ronic_ro_platform){ .arch = arch, .dev_enabled = true };
}

/* Off is what the flags control; rx pages keep the pool's attributes. */
static void ronic_expect_all_off(struct kunit *test, const struct ronic_ro_decision *d)
{
	KUNIT_EXPECT_EQ(test, d->flags, 0);
	KUNIT_EXPECT_EQ(test, d->tx_attrs, 0);
	KUNIT_EXPECT_EQ(test, d->dca_txctrl, 0);
	KUNIT_EXPECT_EQ(test, d->dca_rxctrl, 0);
	KUNIT_EXPECT_EQ(test, d->rx_page_attrs, ronic_pool_attrs);
	KUNIT_EXPECT_TRUE(test, d->rx_weak_unrequested);
}

/* Every row: the default under each mode parameter, and the host attribute. */
static void ronic_ro_arch_rows(struct kunit *test)
{
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ARRAY_SIZE(ronic_doc_table), RONIC_RO_ARCH_NR);
	for (i = 0; i < ARRAY_SIZE(ronic_doc_table); i++) {
		struct ronic_ro_platform p = ronic_plat(ronic_doc_table[i].arch);
		const struct ronic_ro_arch_info *row = &ronic_ro_arch_table[p.arch];
		u32 want = ronic_doc_table[i].default_on ? RONIC_RO_ALL : 0;

		KUNIT_EXPECT_NOT_ERR_OR_NULL(test, row->name);
		KUNIT_EXPECT_EQ_MSG(test, row->default_on, ronic_doc_table[i].default_on,
				    "row %s", row->name);
		KUNIT_EXPECT_EQ_MSG(test, row->host_attr_honoured,
				    ronic_doc_table[i].host_attr_honoured, "row %s", row->name);
		KUNIT_EXPECT_EQ_MSG(test, ronic_ro_default_flags(&p, RONIC_RO_MODE_AUTO),
				    want, "auto on %s", row->name);
		KUNIT_EXPECT_EQ_MSG(test, ronic_ro_default_flags(&p, RONIC_RO_MODE_ON),
				    RONIC_RO_ALL, "on on %s", row->name);
		KUNIT_EXPECT_EQ_MSG(test, ronic_ro_default_flags(&p, RONIC_RO_MODE_OFF),
				    0, "off on %s", row->name);
	}
}

/* The row this kernel's build picks. */
static void ronic_ro_this_arch_row(struct kunit *test)
{
	enum ronic_ro_arch want = RONIC_RO_ARCH_OTHER;

	if (IS_ENABLED(CONFIG_X86))
		want = RONIC_RO_ARCH_X86;
	else if (IS_ENABLED(CONFIG_ARM64))
		want = RONIC_RO_ARCH_ARM64;
	else if (IS_ENABLED(CONFIG_SPARC64))
		want = RONIC_RO_ARCH_SPARC64;
	KUNIT_EXPECT_EQ(test, ronic_ro_this_arch(), want);
}

static void ronic_ro_arch_out_of_range(struct kunit *test)
{
	struct ronic_ro_platform p = ronic_plat(RONIC_RO_ARCH_NR);

	KUNIT_EXPECT_EQ(test, ronic_ro_default_flags(&p, RONIC_RO_MODE_ON), 0);
}

/* Each requested flag set: the host attribute and the register bits. */
static void ronic_ro_requested_flags(struct kunit *test)
{
	struct ronic_ro_platform p = ronic_plat(RONIC_RO_ARCH_X86);
	struct ronic_ro_decision d;

	KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, 0, &d), 0);
	KUNIT_EXPECT_EQ(test, d.verdict, RONIC_RO_OFF);
	ronic_expect_all_off(test, &d);

	KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, RONIC_RO_READ, &d), 0);
	KUNIT_EXPECT_EQ(test, d.verdict, RONIC_RO_OK);
	KUNIT_EXPECT_EQ(test, d.flags, RONIC_RO_READ);
	KUNIT_EXPECT_EQ(test, d.tx_attrs, DMA_ATTR_WEAK_ORDERING);
	KUNIT_EXPECT_EQ(test, d.dca_txctrl, ronic_tx_read);
	KUNIT_EXPECT_EQ(test, d.dca_rxctrl, RONIC_DCA_RX_DESC_RRO_EN);

	KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, RONIC_RO_WRITE, &d), 0);
	KUNIT_EXPECT_EQ(test, d.flags, RONIC_RO_WRITE);
	KUNIT_EXPECT_EQ(test, d.tx_attrs, 0);
	KUNIT_EXPECT_EQ(test, d.dca_txctrl, RONIC_DCA_TX_WB_RO_EN);
	KUNIT_EXPECT_EQ(test, d.dca_rxctrl, ronic_rx_write);

	KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, RONIC_RO_ALL, &d), 0);
	KUNIT_EXPECT_EQ(test, d.dca_txctrl, RONIC_DCA_TX_RO_MASK);
	KUNIT_EXPECT_EQ(test, d.dca_rxctrl, RONIC_DCA_RX_DESC_RRO_EN | ronic_rx_write);
	/* Rx descriptor write-back announces the frame: never relaxed. */
	KUNIT_EXPECT_EQ(test, d.dca_rxctrl & RONIC_DCA_RX_DESC_WRO_EN, 0);
}

/*
 * Rx pages: page_pool's attributes whatever the flags, and the decision
 * says when that leaves the host side weak without pci_ro_write.
 */
static void ronic_ro_rx_pages(struct kunit *test)
{
	struct ronic_ro_platform p = ronic_plat(RONIC_RO_ARCH_SPARC64);
	struct ronic_ro_decision d;
	u32 req;

	KUNIT_EXPECT_EQ(test, RONIC_RO_RX_POOL_ATTRS, ronic_pool_attrs);
	for (req = 0; req <= RONIC_RO_ALL; req++) {
		KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, req, &d), 0);
		KUNIT_EXPECT_EQ_MSG(test, d.rx_page_attrs, ronic_pool_attrs,
				    "requested %#x", req);
		KUNIT_EXPECT_EQ_MSG(test, d.rx_weak_unrequested,
				    !(req & RONIC_RO_WRITE), "requested %#x", req);
	}
}

static void ronic_ro_unknown_flags(struct kunit *test)
{
	struct ronic_ro_platform p = ronic_plat(RONIC_RO_ARCH_SPARC64);
	struct ronic_ro_decision d;
	unsigned int bit;

	for (bit = 2; bit < 32; bit++) {
		KUNIT_EXPECT_EQ_MSG(test, ronic_ro_decide(&p, BIT(bit) | RONIC_RO_READ, &d),
				    -EINVAL, "bit %u", bit);
		ronic_expect_all_off(test, &d);
	}
}

static void ronic_ro_root_forbids(struct kunit *test)
{
	struct ronic_ro_platform p = ronic_plat(RONIC_RO_ARCH_ARM64);
	struct ronic_ro_decision d;
	u32 req;

	p.root_forbids = true;
	for (req = RONIC_RO_READ; req <= RONIC_RO_ALL; req++) {
		KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, req, &d), -EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, d.verdict, RONIC_RO_FORBIDDEN_ROOT);
		ronic_expect_all_off(test, &d);
	}
	KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, 0, &d), 0);
	KUNIT_EXPECT_EQ(test, d.verdict, RONIC_RO_OFF);
	KUNIT_EXPECT_EQ(test, ronic_ro_default_flags(&p, RONIC_RO_MODE_AUTO), 0);
	KUNIT_EXPECT_EQ(test, ronic_ro_default_flags(&p, RONIC_RO_MODE_ON), 0);
}

static void ronic_ro_vf(struct kunit *test)
{
	struct ronic_ro_platform p = ronic_plat(RONIC_RO_ARCH_SPARC64);
	struct ronic_ro_decision d;
	u32 req;

	p.is_vf = true;
	for (req = RONIC_RO_READ; req <= RONIC_RO_ALL; req++) {
		KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, req, &d), -EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, d.verdict, RONIC_RO_FORBIDDEN_VF);
		ronic_expect_all_off(test, &d);
	}
	KUNIT_EXPECT_EQ(test, ronic_ro_default_flags(&p, RONIC_RO_MODE_ON), 0);
	/* A VF behind a quirked root port: the VF is the reason given. */
	p.root_forbids = true;
	KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, RONIC_RO_ALL, &d), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, d.verdict, RONIC_RO_FORBIDDEN_VF);
}

static void ronic_ro_device_enable_off(struct kunit *test)
{
	struct ronic_ro_platform p = ronic_plat(RONIC_RO_ARCH_X86);
	struct ronic_ro_decision d;

	p.dev_enabled = false;
	KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, RONIC_RO_ALL, &d), 0);
	KUNIT_EXPECT_EQ(test, d.verdict, RONIC_RO_DORMANT);
	KUNIT_EXPECT_EQ(test, d.flags, RONIC_RO_ALL);
	KUNIT_EXPECT_EQ(test, d.tx_attrs, DMA_ATTR_WEAK_ORDERING);
	KUNIT_EXPECT_EQ(test, d.dca_txctrl, RONIC_DCA_TX_RO_MASK);
	KUNIT_EXPECT_EQ(test, d.dca_rxctrl, RONIC_DCA_RX_DESC_RRO_EN | ronic_rx_write);
	KUNIT_EXPECT_EQ(test, ronic_ro_decide(&p, 0, &d), 0);
	KUNIT_EXPECT_EQ(test, d.verdict, RONIC_RO_OFF);
}

/* ronic_ro_decide() does not depend on the architecture, only on the rest. */
static void ronic_ro_every_combination(struct kunit *test)
{
	unsigned int arch, in;

	for (arch = 0; arch < RONIC_RO_ARCH_NR; arch++) {
		for (in = 0; in < 8 * 4; in++) {
			struct ronic_ro_platform p = {
				.arch = arch,
				.root_forbids = in & 1,
				.is_vf = in & 2,
				.dev_enabled = in & 4,
			};
			u32 req = in >> 3;
			struct ronic_ro_decision d;
			int err = ronic_ro_decide(&p, req, &d);
			enum ronic_ro_verdict want;

			if (!req)
				want = RONIC_RO_OFF;
			else if (p.is_vf)
				want = RONIC_RO_FORBIDDEN_VF;
			else if (p.root_forbids)
				want = RONIC_RO_FORBIDDEN_ROOT;
			else
				want = p.dev_enabled ? RONIC_RO_OK : RONIC_RO_DORMANT;
			KUNIT_EXPECT_EQ_MSG(test, d.verdict, want, "arch %u in %#x", arch, in);
			KUNIT_EXPECT_EQ_MSG(test, err,
					    req && (p.is_vf || p.root_forbids) ? -EOPNOTSUPP : 0,
					    "arch %u in %#x", arch, in);
			KUNIT_EXPECT_EQ_MSG(test, d.flags, err ? 0 : req,
					    "arch %u in %#x", arch, in);
			KUNIT_EXPECT_EQ_MSG(test, !!d.tx_attrs, !err && (req & RONIC_RO_READ),
					    "arch %u in %#x", arch, in);
			KUNIT_EXPECT_EQ_MSG(test, d.rx_page_attrs, ronic_pool_attrs,
					    "arch %u in %#x", arch, in);
			KUNIT_EXPECT_EQ_MSG(test, d.rx_weak_unrequested,
					    !(d.flags & RONIC_RO_WRITE),
					    "arch %u in %#x", arch, in);
		}
	}
}

static struct kunit_case ronic_ro_policy_cases[] = {
	KUNIT_CASE(ronic_ro_arch_rows),
	KUNIT_CASE(ronic_ro_this_arch_row),
	KUNIT_CASE(ronic_ro_arch_out_of_range),
	KUNIT_CASE(ronic_ro_requested_flags),
	KUNIT_CASE(ronic_ro_rx_pages),
	KUNIT_CASE(ronic_ro_unknown_flags),
	KUNIT_CASE(ronic_ro_root_forbids),
	KUNIT_CASE(ronic_ro_vf),
	KUNIT_CASE(ronic_ro_device_enable_off),
	KUNIT_CASE(ronic_ro_every_combination),
	{}
};

static struct kunit_suite ronic_ro_policy_suite = {
	.name = "ronic_ro_policy",
	.test_cases = ronic_ro_policy_cases,
};

/* ---------------------------------------------------------- XDP selector */

static void ronic_xdp_identity(struct kunit *test)
{
	unsigned int rings, cpu;

	for (rings = 1; rings <= 16; rings++)
		for (cpu = 0; cpu < rings; cpu++)
			KUNIT_EXPECT_EQ_MSG(test, ronic_xdp_ring_index(cpu, rings), cpu,
					    "cpu %u, %u rings", cpu, rings);
}

static void ronic_xdp_modulo(struct kunit *test)
{
	unsigned int rings, cpu;

	for (rings = 1; rings <= 16; rings++)
		for (cpu = rings; cpu < 4 * 16; cpu++)
			KUNIT_EXPECT_EQ_MSG(test, ronic_xdp_ring_index(cpu, rings),
					    cpu % rings, "cpu %u, %u rings", cpu, rings);
}

/* No CPU this kernel can have indexes past the ring array. */
static void ronic_xdp_in_bounds(struct kunit *test)
{
	unsigned int rings, cpu, bad = 0;

	for (rings = 1; rings <= 16; rings++)
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			if (ronic_xdp_ring_index(cpu, rings) >= rings)
				bad++;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "NR_CPUS %d", NR_CPUS);
	for (rings = 1; rings <= 16; rings++)
		KUNIT_EXPECT_LT(test, ronic_xdp_ring_index(nr_cpu_ids - 1, rings), rings);
}

static void ronic_xdp_count_and_sharing(struct kunit *test)
{
	unsigned int cpus;
	u16 stack, rings;

	for (cpus = 1; cpus <= NR_CPUS; cpus++) {
		for (stack = 1; stack <= 16; stack++) {
			rings = ronic_xdp_ring_count(cpus, stack);
			KUNIT_EXPECT_LE(test, rings + stack, 16);
			KUNIT_EXPECT_LE(test, rings, cpus);
			if (rings)
				KUNIT_EXPECT_EQ(test, ronic_xdp_rings_shared(cpus, rings),
						cpus > rings);
		}
	}
	KUNIT_EXPECT_EQ(test, ronic_xdp_ring_count(72, 8), 8);
	KUNIT_EXPECT_EQ(test, ronic_xdp_ring_count(2, 2), 2);
	KUNIT_EXPECT_EQ(test, ronic_xdp_ring_count(4, 16), 0);
}

static int ronic_xdp_key_count(void)
{
	return static_key_count(&ronic_xdp_lock_key.key);
}

/* Two ports attaching and detaching in every order leave the key at zero. */
static void ronic_xdp_key_balance(struct kunit *test)
{
	bool a = false, b = false;
	unsigned int order, step;

	KUNIT_ASSERT_EQ(test, ronic_xdp_key_count(), 0);
	ronic_xdp_lock_key_update(&a, true);
	KUNIT_EXPECT_TRUE(test, ronic_xdp_locking());
	ronic_xdp_lock_key_update(&a, true);
	KUNIT_EXPECT_EQ(test, ronic_xdp_key_count(), 1);
	ronic_xdp_lock_key_update(&b, true);
	KUNIT_EXPECT_EQ(test, ronic_xdp_key_count(), 2);
	ronic_xdp_lock_key_update(&a, false);
	ronic_xdp_lock_key_update(&a, false);
	KUNIT_EXPECT_EQ(test, ronic_xdp_key_count(), 1);
	KUNIT_EXPECT_TRUE(test, ronic_xdp_locking());
	ronic_xdp_lock_key_update(&b, false);
	KUNIT_EXPECT_EQ(test, ronic_xdp_key_count(), 0);
	KUNIT_EXPECT_FALSE(test, ronic_xdp_locking());

	for (order = 0; order < 64; order++) {
		bool p[2] = { false, false };

		for (step = 0; step < 6; step++)
			ronic_xdp_lock_key_update(&p[(order >> step) & 1], step % 3 != 2);
		KUNIT_EXPECT_EQ_MSG(test, ronic_xdp_key_count(), p[0] + p[1],
				    "order %#x", order);
		ronic_xdp_lock_key_update(&p[0], false);
		ronic_xdp_lock_key_update(&p[1], false);
		KUNIT_EXPECT_EQ_MSG(test, ronic_xdp_key_count(), 0, "order %#x", order);
	}
	KUNIT_EXPECT_FALSE(test, ronic_xdp_locking());
}

static struct kunit_case ronic_xdp_select_cases[] = {
	KUNIT_CASE(ronic_xdp_identity),
	KUNIT_CASE(ronic_xdp_modulo),
	KUNIT_CASE(ronic_xdp_in_bounds),
	KUNIT_CASE(ronic_xdp_count_and_sharing),
	KUNIT_CASE(ronic_xdp_key_balance),
	{}
};

static struct kunit_suite ronic_xdp_select_suite = {
	.name = "ronic_xdp_select",
	.test_cases = ronic_xdp_select_cases,
};

kunit_test_suites(&ronic_ro_policy_suite, &ronic_xdp_select_suite);

MODULE_DESCRIPTION("KUnit tests of ronic's relaxed-ordering policy and XDP ring selector");
MODULE_LICENSE("GPL");
