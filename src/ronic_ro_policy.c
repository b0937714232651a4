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
 * Host side: device-read mappings carry DMA_ATTR_WEAK_ORDERING with
 * pci_ro_read. Rx buffers come from page_pool, which maps every page with
 * that attribute already, so pci_ro_write has nothing to add there.
 */
#include <linux/dma-mapping.h>
#include <linux/errno.h>

#include "ronic_regs.h"
#include "ronic_ro_policy.h"

const struct ronic_ro_arch_info ronic_ro_arch_table[RONIC_RO_ARCH_NR] = {
	/* The root complex orders everything; the attribute is ignored. */
	[RONIC_RO_ARCH_X86] = { "x86", false, false },
	/* Measured gains across NUMA nodes (mlx5: 10 to 40 GB/s). */
	[RONIC_RO_ARCH_ARM64] = { "arm64", true, false },
	/* The IOMMU stops serialising mappings that carry the attribute. */
	[RONIC_RO_ARCH_SPARC64] = { "sparc64", true, true },
	[RONIC_RO_ARCH_OTHER] = { "other", false, false },
};

#if IS_ENABLED(CONFIG_X86)
#define RONIC_RO_THIS_ARCH	RONIC_RO_ARCH_X86
#elif IS_ENABLED(CONFIG_ARM64)
#define RONIC_RO_THIS_ARCH	RONIC_RO_ARCH_ARM64
#elif IS_ENABLED(CONFIG_SPARC64)
#define RONIC_RO_THIS_ARCH	RONIC_RO_ARCH_SPARC64
#else
#define RONIC_RO_THIS_ARCH	RONIC_RO_ARCH_OTHER
#endif

#ifdef MODULE
/*
 * The row this build uses, read from the table itself into .modinfo, so
 * a cross-built module shows its architecture's default without running
 * it (tests/t-cross.sh): "modinfo -F ro_default_on ronic.ko" is y or n,
 * and so is ro_host_attr_honoured. GCC folds reads of a const object in
 * an initializer; the key has no NUL of its own, the value ends the entry.
 */
#define RONIC_RO_ROW	(ronic_ro_arch_table[RONIC_RO_THIS_ARCH])

static const struct {
	char key[sizeof("ro_default_on=") - 1];
	char val[2];
} ronic_ro_default_info __used __section(".modinfo") __aligned(1) = {
	"ro_default_on=", { RONIC_RO_ROW.default_on ? 'y' : 'n' },
};

static const struct {
	char key[sizeof("ro_host_attr_honoured=") - 1];
	char val[2];
} ronic_ro_host_attr_info __used __section(".modinfo") __aligned(1) = {
	"ro_host_attr_honoured=", { RONIC_RO_ROW.host_attr_honoured ? 'y' : 'n' },
};
#endif

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

/**
 * ronic_ro_decide - attributes and register bits for the requested flags
 * @plat: what the platform allows
 * @requested: RONIC_RO_* flags the user asked for
 * @out: the decision; on refusal, everything off
 *
 * Return: 0, or -EOPNOTSUPP if a flag was asked for that the platform
 * forbids (the verdict says why), or -EINVAL for unknown flags.
 */
int ronic_ro_decide(const struct ronic_ro_platform *plat, u32 requested,
		    struct ronic_ro_decision *out)
{
	*out = (struct ronic_ro_decision){ .verdict = RONIC_RO_OFF };

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
	out->verdict = plat->dev_enabled ? RONIC_RO_OK : RONIC_RO_DORMANT;
	return 0;
}
