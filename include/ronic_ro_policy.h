/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The relaxed-ordering policy: a pure function from what the platform
 * allows and what the user asked for to the attributes and register bits
 * the driver applies, and to the attributes rx pages get from page_pool
 * whatever was asked. No device access here, so it is unit-tested as is.
 */
#ifndef _RONIC_RO_POLICY_H_
#define _RONIC_RO_POLICY_H_

#include <linux/dma-mapping.h>
#include <linux/types.h>

/* The user's flags, one per DMA direction as the device sees it. */
#define RONIC_RO_READ		BIT(0)	/* device reads: tx data, descriptor fetch */
#define RONIC_RO_WRITE		BIT(1)	/* device writes: rx data, write-back */
#define RONIC_RO_ALL		(RONIC_RO_READ | RONIC_RO_WRITE)

enum ronic_ro_arch {
	RONIC_RO_ARCH_X86,
	RONIC_RO_ARCH_ARM64,
	RONIC_RO_ARCH_SPARC64,
	RONIC_RO_ARCH_OTHER,
	RONIC_RO_ARCH_NR,
};

struct ronic_ro_arch_info {
	const char *name;
	bool default_on;		/* flags on unless the user says off */
	/*
	 * Some IOMMU of the architecture acts on DMA_ATTR_WEAK_ORDERING
	 * (sparc64: sun4v's, not sun4u's); elsewhere it is passed and ignored.
	 */
	bool host_attr_honoured;
};

extern const struct ronic_ro_arch_info ronic_ro_arch_table[RONIC_RO_ARCH_NR];

/* The ronic.relaxed_ordering module parameter. */
enum ronic_ro_mode {
	RONIC_RO_MODE_AUTO,
	RONIC_RO_MODE_ON,
	RONIC_RO_MODE_OFF,
};

struct ronic_ro_platform {
	enum ronic_ro_arch arch;
	bool root_forbids;	/* root port has PCI_DEV_FLAGS_NO_RELAXED_ORDERING */
	bool is_vf;
	bool dev_enabled;	/* the function's PCIe Relaxed Ordering Enable bit */
};

enum ronic_ro_verdict {
	RONIC_RO_OK,		/* applied; the device may issue RO TLPs */
	RONIC_RO_OFF,		/* nothing requested */
	RONIC_RO_DORMANT,	/* programmed, but the device's enable bit is off */
	RONIC_RO_FORBIDDEN_ROOT,
	RONIC_RO_FORBIDDEN_VF,
};

/*
 * What page_pool_dma_map() (net/core/page_pool.c, 6.12) passes for every
 * page of a pool created with PP_FLAG_DMA_MAP, as ronic's rx pools are.
 * It is fixed in the page_pool core: no page_pool_params field and no
 * driver flag changes it.
 */
#define RONIC_RO_RX_POOL_ATTRS	(DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING)

struct ronic_ro_decision {
	enum ronic_ro_verdict verdict;
	u32 flags;		/* the flags in force after the decision */
	/* host attributes of the tx mappings the driver makes itself */
	unsigned long tx_attrs;
	/*
	 * Host attributes of an AF_XDP zero-copy pool's memory, which the
	 * device both writes (rx) and reads (tx) under one mapping: weakly
	 * ordered only with both flags in force. Taken when a pool binds.
	 */
	unsigned long xsk_attrs;
	/*
	 * Host attributes of every rx page, so also of XDP_TX frames sent
	 * from one: the pool's, whatever the flags and the verdict.
	 */
	unsigned long rx_page_attrs;
	/*
	 * Rx pages are weakly ordered on the host although pci_ro_write is
	 * not in force: the flag reaches the device's enables, not the pool.
	 */
	bool rx_weak_unrequested;
	u32 dca_txctrl;		/* RO enables for every DCA_TXCTRL */
	u32 dca_rxctrl;		/* RO enables for every DCA_RXCTRL */
};

enum ronic_ro_arch ronic_ro_this_arch(void);
u32 ronic_ro_default_flags(const struct ronic_ro_platform *plat,
			   enum ronic_ro_mode mode);
int ronic_ro_decide(const struct ronic_ro_platform *plat, u32 requested,
		    struct ronic_ro_decision *out);

#endif /* _RONIC_RO_POLICY_H_ */
