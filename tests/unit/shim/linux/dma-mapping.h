/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_DMA_MAPPING_H
#define _SHIM_LINUX_DMA_MAPPING_H
/* Same values as include/linux/dma-mapping.h */
#define DMA_ATTR_WEAK_ORDERING (1UL << 1)
#define DMA_ATTR_SKIP_CPU_SYNC (1UL << 5)
#endif
