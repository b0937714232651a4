// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: the relaxed-ordering policy and its per-architecture table.
 *
 * Device side: pci_ro_read sets the read-request enables (tx data fetch,
 * tx and rx descriptor fetch); pci_ro_write sets tx descriptor write-back
 * and rx data and header writes. Rx descriptor write-back is never
 * relaxed: it announces the frame, and a relaxed write may pass the data
 * writes before it, letting the CPU read a frame that has not landed.
 *
 * Host side: the tx mappings the driver makes itself (stack frames,
 * ndo_xdp_xmit) carry DMA_ATTR_WEAK_ORDERING with pci_ro_read. Rx pages
 * are mapped by page_pool, whose core always asks for the attribute
 * (RONIC_RO_RX_POOL_ATTRS), so no flag clears it there: pci_ro_write
 * reaches only the device's write enables. The decision says so
 * (rx_page_attrs, rx_weak_unrequested) for debugfs, so no reader is led
 * to think the host side of rx follows the flag.
 */
#include <linux/dma-mapping.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/stringify.h>

#include "ronic_regs.h"
#include "ronic_ro_policy.h"

/*
 * Each row's facts are written once, as y or n: whether the flags start
 * on, and whether some IOMMU of the architecture acts on
 * DMA_ATTR_WEAK_ORDERING. The table below is built from them, and so is
 * this build's .modinfo, which takes only string literals.
 */
/* The root complex orders everything; the attribute is ignored. */
#define RONIC_RO_X86_DEFAULT_ON		n
#define RONIC_RO_X86_HOST_ATTR		n
/*
 * Measured gains across NUMA nodes (mlx5: 10 to 40 GB/s); the arm64 DMA
 * ops and IOMMU drivers pass the attribute through unread.
 */
#define RONIC_RO_ARM64_DEFAULT_ON	y
#define RONIC_RO_ARM64_HOST_ATTR	n
/*
 * sun4v's IOMMU maps pages that carry the attribute with the hypervisor's
 * HV_PCI_MAP_ATTR_RELAXED_ORDER (arch/sparc/kernel/pci_sun4v.c), and the
 * root complex stops serialising them; sun4u's IOMMU
 * (arch/sparc/kernel/iommu.c) never reads it. One sparc64 build runs on
 * both, so the row says what the better of the two does.
 */
#define RONIC_RO_SPARC64_DEFAULT_ON	y
#define RONIC_RO_SPARC64_HOST_ATTR	y
#define RONIC_RO_OTHER_DEFAULT_ON	n
#define RONIC_RO_OTHER_HOST_ATTR	n

#define RONIC_RO_YN_y		true
#define RONIC_RO_YN_n		false
#define __RONIC_RO_YN(v)	RONIC_RO_YN_##v
#define RONIC_RO_YN(v)		__RONIC_RO_YN(v)
#define RONIC_RO_ENTRY(arch, label) {					\
	.name = (label),						\
	.default_on = RONIC_RO_YN(RONIC_RO_##arch##_DEFAULT_ON),	\
	.host_attr_honoured = RONIC_RO_YN(RONIC_RO_##arch##_HOST_ATTR),	\
}

const struct ronic_ro_arch_info ronic_ro_arch_table[RONIC_RO_ARCH_NR] = {
	[RONIC_RO_ARCH_X86] = RONIC_RO_ENTRY(X86, "x86"),
	[RONIC_RO_ARCH_ARM64] = RONIC_RO_ENTRY(ARM64, "arm64"),
	[RONIC_RO_ARCH_SPARC64] = RONIC_RO_ENTRY(SPARC64, "sparc64"),
	[RONIC_RO_ARCH_OTHER] = RONIC_RO_ENTRY(OTHER, "other"),
};

/* This build's entry and its row's facts, picked together. */
#if IS_ENABLED(CONFIG_X86)
#define RONIC_RO_THIS_ARCH	RONIC_RO_ARCH_X86
#define RONIC_RO_THIS(fact)	RONIC_RO_X86_##fact
#elif IS_ENABLED(CONFIG_ARM64)
#define RONIC_RO_THIS_ARCH	RONIC_RO_ARCH_ARM64
#define RONIC_RO_THIS(fact)	RONIC_RO_ARM64_##fact
#elif IS_ENABLED(CONFIG_SPARC64)
#define RONIC_RO_THIS_ARCH	RONIC_RO_ARCH_SPARC64
#define RONIC_RO_THIS(fact)	RONIC_RO_SPARC64_##fact
#else
#define RONIC_RO_THIS_ARCH	RONIC_RO_ARCH_OTHER
#define RONIC_RO_THIS(fact)	RONIC_RO_OTHER_##fact
#endif

/*
 * The row in .modinfo, so a cross-built module shows its architecture's
 * default without running it (tests/t-cross.sh): "modinfo -F
 * ro_default_on ronic.ko" is y or n, and so is ro_host_attr_honoured.
 */
MODULE_INFO(ro_default_on, __stringify(RONIC_RO_THIS(DEFAULT_ON)));
MODULE_INFO(ro_host_attr_honoured, __stringify(RONIC_RO_THIS(HOST_ATTR)));

/**
 * ronic_ro_this_arch - the architecture this driver was built for
 *
 * Return: its entry in ronic_ro_arch_table.
 */
enum ronic_ro_arch ronic_ro_this_arch(void)
{
	return RONIC_RO_THIS_ARCH;
}

static bool ronic_ro_platform_forbids(const struct ronic_ro_platform *plat)
{
	return plat->root_forbids || plat->is_vf;
}

/**
 * ronic_ro_default_flags - the flags a port starts with
 * @plat: what the platform allows
 * @mode: the relaxed_ordering module parameter
 *
 * Return: RONIC_RO_* flags.
 */
u32 ronic_ro_default_flags(const struct ronic_ro_platform *plat,
			   enum ronic_ro_mode mode)
{
	if (ronic_ro_platform_forbids(plat) || plat->arch >= RONIC_RO_ARCH_NR)
		return 0;
	switch (mode) {
	case RONIC_RO_MODE_ON:
		return RONIC_RO_ALL;
	case RONIC_RO_MODE_OFF:
		return 0;
	default:
		return ronic_ro_arch_table[plat->arch].default_on ? RONIC_RO_ALL : 0;
	}
}

static int ronic_ro_decide_flags(const struct ronic_ro_platform *plat,
				 u32 requested, struct ronic_ro_decision *out)
{
	if (requested & ~RONIC_RO_ALL)
		return -EINVAL;
	if (!requested)
		return 0;
	if (plat->is_vf) {
		out->verdict = RONIC_RO_FORBIDDEN_VF;
		return -EOPNOTSUPP;
	}
	if (plat->root_forbids) {
		out->verdict = RONIC_RO_FORBIDDEN_ROOT;
		return -EOPNOTSUPP;
	}

	out->flags = requested;
	if (requested & RONIC_RO_READ) {
		out->tx_attrs |= DMA_ATTR_WEAK_ORDERING;
		out->dca_txctrl |= RONIC_DCA_TX_DESC_RRO_EN | RONIC_DCA_TX_DATA_RRO_EN;
		out->dca_rxctrl |= RONIC_DCA_RX_DESC_RRO_EN;
	}
	if (requested & RONIC_RO_WRITE) {
		out->dca_txctrl |= RONIC_DCA_TX_WB_RO_EN;
		out->dca_rxctrl |= RONIC_DCA_RX_DATA_WRO_EN | RONIC_DCA_RX_HDR_WRO_EN;
	}
	if ((requested & RONIC_RO_ALL) == RONIC_RO_ALL)
		out->xsk_attrs |= DMA_ATTR_WEAK_ORDERING;
	out->verdict = plat->dev_enabled ? RONIC_RO_OK : RONIC_RO_DORMANT;
	return 0;
}

/**
 * ronic_ro_decide - attributes and register bits for the requested flags
 * @plat: what the platform allows
 * @requested: RONIC_RO_* flags the user asked for
 * @out: the decision; on refusal, everything the flags control off
 *
 * The rx page attributes are in every decision, refusals included: they
 * are page_pool's and hold whatever the flags say.
 *
 * Return: 0, or -EOPNOTSUPP if a flag was asked for that the platform
 * forbids (the verdict says why), or -EINVAL for unknown flags.
 */
int ronic_ro_decide(const struct ronic_ro_platform *plat, u32 requested,
		    struct ronic_ro_decision *out)
{
	int err;

	*out = (struct ronic_ro_decision){ .verdict = RONIC_RO_OFF };
	err = ronic_ro_decide_flags(plat, requested, out);
	out->rx_page_attrs = RONIC_RO_RX_POOL_ATTRS;
	out->rx_weak_unrequested =
		(out->rx_page_attrs & DMA_ATTR_WEAK_ORDERING) &&
		!(out->flags & RONIC_RO_WRITE);
	return err;
}
