/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ronic's one door to the DMA API. Every map, unmap, sync and coherent
 * allocation in the driver goes through these helpers, so the attributes
 * a mapping carries (DMA_ATTR_WEAK_ORDERING above all) are decided in one
 * place and a mapping is always undone with the attributes it was made with.
 */
#ifndef _RONIC_DMA_H_
#define _RONIC_DMA_H_

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>

#include "ronic_compat.h"	/* the page_pool header(s) of this kernel */

struct xsk_buff_pool;
struct xdp_buff;

/*
 * Host-side attributes of the streaming mappings the driver makes itself.
 * There is no rx counterpart: rx pages are mapped by page_pool with the
 * core's fixed RONIC_RO_RX_POOL_ATTRS (ronic_ro_policy.h), which no driver
 * setting changes.
 */
struct ronic_dma {
	struct device *dev;
	/* applied to new DMA_TO_DEVICE payload mappings (device reads) */
	unsigned long tx_attrs;
};

enum ronic_dma_kind {
	RONIC_DMA_NONE = 0,
	RONIC_DMA_SINGLE,	/* mapped from a kernel virtual address */
	RONIC_DMA_SG,		/* a frame's parts, mapped as one list */
};

/* One streaming mapping, with what is needed to undo it exactly. */
struct ronic_dma_map {
	union {
		dma_addr_t addr;		/* SINGLE */
		struct scatterlist *sgl;	/* SG: the list as mapped */
	};
	u32 len;			/* bytes; for SG, the list's entries */
	u16 attrs;
	u8 kind;
};

void ronic_dma_init(struct ronic_dma *dma, struct device *dev);

int ronic_dma_map_tx_data(struct ronic_dma *dma, void *data, u32 len,
			  struct ronic_dma_map *map);
int ronic_dma_map_tx_skb(struct ronic_dma *dma, struct sk_buff *skb,
			 bool with_head, struct scatterlist *sgl,
			 struct ronic_dma_map *map);
void ronic_dma_unmap_tx(struct ronic_dma *dma, struct ronic_dma_map *map);

void *ronic_dma_alloc_ring(struct ronic_dma *dma, size_t size,
			   dma_addr_t *dma_addr);
void ronic_dma_free_ring(struct ronic_dma *dma, size_t size, void *cpu,
			 dma_addr_t dma_addr);

void ronic_dma_rx_pool_params(struct ronic_dma *dma,
			      struct page_pool_params *pp);
dma_addr_t ronic_dma_rx_page_addr(struct page *page);
void ronic_dma_rx_sync_for_cpu(struct page_pool *pool, struct page *page,
			       u32 offset, u32 len);
void ronic_dma_rx_reuse(struct page_pool *pool, struct page *page,
			u32 offset, u32 len);
void ronic_dma_rx_sync_for_device(struct ronic_dma *dma, dma_addr_t addr,
				  u32 len);

int ronic_dma_xsk_map(struct ronic_dma *dma, struct xsk_buff_pool *pool,
		      unsigned long attrs);
void ronic_dma_xsk_unmap(struct xsk_buff_pool *pool, unsigned long attrs);
dma_addr_t ronic_dma_xsk_rx_addr(struct xdp_buff *xdp);
void ronic_dma_xsk_sync_for_cpu(struct xdp_buff *xdp, struct xsk_buff_pool *pool);
dma_addr_t ronic_dma_xsk_tx_addr(struct xsk_buff_pool *pool, u64 addr, u32 len);

#endif /* _RONIC_DMA_H_ */
