/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel features ronic uses that not every supported kernel has. Which
 * ones this kernel has comes from its headers (ronic_compat_gen.h, written
 * by scripts/gen-compat.sh at build time); this file gives the fallback of
 * each missing one, so the driver's code stays free of version tests.
 */
#ifndef RONIC_COMPAT_H
#define RONIC_COMPAT_H

#include <linux/netdevice.h>

#include "ronic_compat_gen.h"

#ifndef RONIC_HAVE_NETIF_NAPI_SET_IRQ
/* No netlink napi-get irq attribute to fill before 6.8. */
static inline void netif_napi_set_irq(struct napi_struct *napi, int irq)
{
}
#endif

#endif /* RONIC_COMPAT_H */
