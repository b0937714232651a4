// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the relaxed-ordering policy (src/ronic_ro_policy.c),
 * built in userspace against the driver's own source.
 */
// sources: src/ronic_ro_policy.c
#include <stdio.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/errno.h>
#include <linux/module.h>

#include "ronic_regs.h"
#include "ronic_ro_policy.h"

#define SUITE "ro_policy"
#include "check.h"

/* What the policy file put in .modinfo (the shim's MODULE_INFO). */
extern const char RONIC_UNIT_MODINFO(ro_default_on)[];
extern const char RONIC_UNIT_MODINFO(ro_host_attr_honoured)[];

static const struct ronic_ro_platform x86_ok = {
	.arch = RONIC_RO_ARCH_X86, .dev_enabled = true,
};

static void test_defaults(void)
{
	struct ronic_ro_platform p = x86_ok;

	CHECK("x86 auto defaults off",
	      ronic_ro_default_flags(&p, RONIC_RO_MODE_AUTO) == 0);
	CHECK("x86 on forces both",
	      ronic_ro_default_flags(&p, RONIC_RO_MODE_ON) == RONIC_RO_ALL);
	p.arch = RONIC_RO_ARCH_SPARC64;
	CHECK("sparc64 auto defaults on",
	      ronic_ro_default_flags(&p, RONIC_RO_MODE_AUTO) == RONIC_RO_ALL);
	CHECK("sparc64 off wins", ronic_ro_default_flags(&p, RONIC_RO_MODE_OFF) == 0);
	CHECK("sparc64 (sun4v's IOMMU) honours the host attribute",
	      ronic_ro_arch_table[RONIC_RO_ARCH_SPARC64].host_attr_honoured);
	CHECK("x86 ignores the host attribute",
	      !ronic_ro_arch_table[RONIC_RO_ARCH_X86].host_attr_honoured);
	CHECK("arm64 ignores the host attribute",
	      !ronic_ro_arch_table[RONIC_RO_ARCH_ARM64].host_attr_honoured);
	p.arch = RONIC_RO_ARCH_ARM64;
	CHECK("arm64 auto defaults on",
	      ronic_ro_default_flags(&p, RONIC_RO_MODE_AUTO) == RONIC_RO_ALL);
	p.root_forbids = true;
	CHECK("arm64 behind a quirked root port defaults off",
	      ronic_ro_default_flags(&p, RONIC_RO_MODE_AUTO) == 0);
	CHECK("module parameter on cannot override a quirked root port",
	      ronic_ro_default_flags(&p, RONIC_RO_MODE_ON) == 0);
	p.root_forbids = false;
	p.is_vf = true;
	CHECK("a VF defaults off", ronic_ro_default_flags(&p, RONIC_RO_MODE_ON) == 0);
	p = x86_ok;
	p.arch = RONIC_RO_ARCH_OTHER;
	CHECK("other architectures default off",
	      ronic_ro_default_flags(&p, RONIC_RO_MODE_AUTO) == 0);
}

static void test_bits(void)
{
	struct ronic_ro_decision d;
	int err;

	err = ronic_ro_decide(&x86_ok, 0, &d);
	CHECK("nothing requested: all off",
	      !err && d.verdict == RONIC_RO_OFF && !d.tx_attrs &&
	      !d.dca_txctrl && !d.dca_rxctrl && !d.flags);

	err = ronic_ro_decide(&x86_ok, RONIC_RO_READ, &d);
	CHECK("read: host attribute on tx mappings",
	      !err && d.tx_attrs == DMA_ATTR_WEAK_ORDERING);
	CHECK("read: tx descriptor and data fetch relaxed",
	      d.dca_txctrl == (RONIC_DCA_TX_DESC_RRO_EN | RONIC_DCA_TX_DATA_RRO_EN));
	CHECK("read: rx descriptor fetch relaxed",
	      d.dca_rxctrl == RONIC_DCA_RX_DESC_RRO_EN);
	CHECK("read: verdict ok", d.verdict == RONIC_RO_OK && d.flags == RONIC_RO_READ);
	CHECK("read alone: AF_XDP pool memory not weakly ordered", d.xsk_attrs == 0);

	err = ronic_ro_decide(&x86_ok, RONIC_RO_WRITE, &d);
	CHECK("write: no host attribute on tx mappings", !err && d.tx_attrs == 0);
	CHECK("write: tx write-back relaxed", d.dca_txctrl == RONIC_DCA_TX_WB_RO_EN);
	CHECK("write: rx data and header writes relaxed",
	      d.dca_rxctrl == (RONIC_DCA_RX_DATA_WRO_EN | RONIC_DCA_RX_HDR_WRO_EN));
	CHECK("write alone: AF_XDP pool memory not weakly ordered", d.xsk_attrs == 0);

	err = ronic_ro_decide(&x86_ok, RONIC_RO_ALL, &d);
	CHECK("both: rx descriptor write-back never relaxed",
	      !err && !(d.dca_rxctrl & RONIC_DCA_RX_DESC_WRO_EN));
	CHECK("both: all tx enables", d.dca_txctrl == RONIC_DCA_TX_RO_MASK);
	CHECK("both: AF_XDP pool memory weakly ordered",
	      d.xsk_attrs == DMA_ATTR_WEAK_ORDERING);
	CHECK("unknown flag refused", ronic_ro_decide(&x86_ok, BIT(5), &d) == -EINVAL);
}

static void test_platform(void)
{
	struct ronic_ro_platform p = x86_ok;
	struct ronic_ro_decision d;
	int err;

	p.root_forbids = true;
	err = ronic_ro_decide(&p, RONIC_RO_WRITE, &d);
	CHECK("quirked root port refuses",
	      err == -EOPNOTSUPP && d.verdict == RONIC_RO_FORBIDDEN_ROOT);
	CHECK("refusal leaves everything off",
	      !d.flags && !d.tx_attrs && !d.xsk_attrs && !d.dca_txctrl &&
	      !d.dca_rxctrl);
	CHECK("quirked root port still allows off", ronic_ro_decide(&p, 0, &d) == 0);

	p = x86_ok;
	p.is_vf = true;
	err = ronic_ro_decide(&p, RONIC_RO_READ, &d);
	CHECK("VF refuses", err == -EOPNOTSUPP && d.verdict == RONIC_RO_FORBIDDEN_VF);

	p = x86_ok;
	p.dev_enabled = false;
	err = ronic_ro_decide(&p, RONIC_RO_ALL, &d);
	CHECK("enable bit off: accepted but dormant",
	      !err && d.verdict == RONIC_RO_DORMANT && d.flags == RONIC_RO_ALL);
	CHECK("dormant still programs the device bits",
	      d.dca_txctrl == RONIC_DCA_TX_RO_MASK);
}

/*
 * page_pool maps rx pages with its own attributes: every decision must say
 * so, for every flag set and platform, refusals included, and must flag
 * the case where the host side is weak although pci_ro_write is not on.
 */
static void test_rx_pages(void)
{
	const unsigned long pool = DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING;
	unsigned int in, wrong_attrs = 0, wrong_note = 0;
	struct ronic_ro_decision d;

	ronic_ro_decide(&x86_ok, 0, &d);
	CHECK("rx pages: weak ordering with nothing requested",
	      d.rx_page_attrs == pool && d.rx_weak_unrequested);
	ronic_ro_decide(&x86_ok, RONIC_RO_READ, &d);
	CHECK("rx pages: weak ordering with pci_ro_read only",
	      d.rx_page_attrs == pool && d.rx_weak_unrequested);
	ronic_ro_decide(&x86_ok, RONIC_RO_WRITE, &d);
	CHECK("rx pages: weak ordering with pci_ro_write, as requested",
	      d.rx_page_attrs == pool && !d.rx_weak_unrequested);

	for (in = 0; in < RONIC_RO_ARCH_NR * 8 * 4; in++) {
		struct ronic_ro_platform p = {
			.arch = in / 32,
			.root_forbids = in & 1,
			.is_vf = in & 2,
			.dev_enabled = in & 4,
		};

		ronic_ro_decide(&p, (in >> 3) & RONIC_RO_ALL, &d);
		if (d.rx_page_attrs != pool)
			wrong_attrs++;
		if (d.rx_weak_unrequested != !(d.flags & RONIC_RO_WRITE))
			wrong_note++;
	}
	CHECK("rx pages: the pool's attributes in every decision, refusals too",
	      !wrong_attrs);
	CHECK("rx pages: weak without pci_ro_write flagged exactly when the flag is not in force",
	      !wrong_note);
	CHECK("rx pages: unknown flags still report the pool's attributes",
	      ronic_ro_decide(&x86_ok, BIT(7), &d) == -EINVAL &&
	      d.rx_page_attrs == pool);
}

/* .modinfo carries this build's row, from the same macros as the table. */
static void test_modinfo(void)
{
	const struct ronic_ro_arch_info *row =
		&ronic_ro_arch_table[ronic_ro_this_arch()];

	CHECK("modinfo ro_default_on is this build's row",
	      !strcmp(RONIC_UNIT_MODINFO(ro_default_on),
		      row->default_on ? "y" : "n"));
	CHECK("modinfo ro_host_attr_honoured is this build's row",
	      !strcmp(RONIC_UNIT_MODINFO(ro_host_attr_honoured),
		      row->host_attr_honoured ? "y" : "n"));
}

int main(void)
{
	test_defaults();
	test_bits();
	test_platform();
	test_rx_pages();
	test_modinfo();
	return check_summary();
}
