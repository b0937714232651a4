// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: the only file that calls the DMA API. Call sites say what they
 * map; the helper picks direction and attributes and records them with
 * the mapping so the unmap matches, whatever changed in between.
 */
#include <net/xdp_sock_drv.h>

#include "ronic_compat.h"
#include "ronic_dma.h"

/**
 * ronic_dma_init - set up the helper for a device
 * @dma: the helper state
 * @dev: the device that does the DMA
 */
void ronic_dma_init(struct ronic_dma *dma, struct device *dev)
{
	dma->dev = dev;
	dma->tx_attrs = 0;
	/*
	 * The driver cuts every segment into descriptors of at most 32 KB
	 * itself, so a frame's segment may be of any length (a linearized
	 * frame's linear part, or fragments the IOMMU merged).
	 */
	dma_set_max_seg_size(dev, UINT_MAX);
}

/**
 * ronic_dma_map_tx_data - map linear data the device will read
 * @dma: the helper
 * @data: kernel virtual address
 * @len: bytes
 * @map: records the mapping
 *
 * Return: 0 or -ENOMEM.
 */
int ronic_dma_map_tx_data(struct ronic_dma *dma, void *data, u32 len,
			  struct ronic_dma_map *map)
{
	unsigned long attrs = READ_ONCE(dma->tx_attrs);
	dma_addr_t addr;

	addr = dma_map_single_attrs(dma->dev, data, len, DMA_TO_DEVICE, attrs);
	if (unlikely(dma_mapping_error(dma->dev, addr)))
		return -ENOMEM;
	map->addr = addr;
	map->len = len;
	map->attrs = attrs;
	map->kind = RONIC_DMA_SINGLE;
	return 0;
}

/**
 * ronic_dma_map_tx_skb - map a frame's parts the device will read, in one call
 * @dma: the helper
 * @skb: the frame
 * @with_head: map the linear part too (false when it was copied instead)
 * @sgl: room for 1 + MAX_SKB_FRAGS entries, kept until the unmap
 * @map: records the mapping
 *
 * One list for the whole frame instead of a map per part: with an IOMMU
 * that is one IOVA allocation and, in strict mode, one IOTLB flush at the
 * unmap instead of one per part. The IOMMU may merge entries into fewer
 * segments; each segment still covers whole entries, in order.
 *
 * Return: the number of DMA segments in @sgl, or -ENOMEM.
 */
int ronic_dma_map_tx_skb(struct ronic_dma *dma, struct sk_buff *skb,
			 bool with_head, struct scatterlist *sgl,
			 struct ronic_dma_map *map)
{
	unsigned int f, nr_frags = skb_shinfo(skb)->nr_frags;
	unsigned long attrs = READ_ONCE(dma->tx_attrs);
	struct scatterlist *sg = sgl;
	int nents, nsegs;

	nents = nr_frags + with_head;
	sg_init_table(sgl, nents);
	if (with_head) {
		sg_set_buf(sg, skb->data, skb_headlen(skb));
		sg = sg_next(sg);
	}
	for (f = 0; f < nr_frags; f++, sg = sg_next(sg)) {
		const skb_frag_t *frag = &skb_shinfo(skb)->frags[f];

		sg_set_page(sg, skb_frag_page(frag), skb_frag_size(frag),
			    skb_frag_off(frag));
	}

	nsegs = dma_map_sg_attrs(dma->dev, sgl, nents, DMA_TO_DEVICE, attrs);
	if (unlikely(!nsegs))
		return -ENOMEM;
	map->sgl = sgl;
	map->len = nents;
	map->attrs = attrs;
	map->kind = RONIC_DMA_SG;
	return nsegs;
}

/**
 * ronic_dma_unmap_tx - undo a tx mapping with the attributes it was made with
 * @dma: the helper
 * @map: the mapping; cleared, so a second call does nothing
 */
void ronic_dma_unmap_tx(struct ronic_dma *dma, struct ronic_dma_map *map)
{
	switch (map->kind) {
	case RONIC_DMA_SINGLE:
		dma_unmap_single_attrs(dma->dev, map->addr, map->len,
				       DMA_TO_DEVICE, map->attrs);
		break;
	case RONIC_DMA_SG:
		dma_unmap_sg_attrs(dma->dev, map->sgl, map->len, DMA_TO_DEVICE,
				   map->attrs);
		break;
	default:
		break;
	}
	map->kind = RONIC_DMA_NONE;
	map->len = 0;
}

/**
 * ronic_dma_alloc_ring - coherent memory for descriptors or bounce buffers
 * @dma: the helper
 * @size: bytes
 * @dma_addr: the device address, filled in
 *
 * Return: the zeroed CPU address, or NULL.
 */
void *ronic_dma_alloc_ring(struct ronic_dma *dma, size_t size,
			   dma_addr_t *dma_addr)
{
	return dma_alloc_coherent(dma->dev, size, dma_addr, GFP_KERNEL);
}

/**
 * ronic_dma_free_ring - free what ronic_dma_alloc_ring() returned
 * @dma: the helper
 * @size: bytes, as allocated
 * @cpu: CPU address
 * @dma_addr: device address
 */
void ronic_dma_free_ring(struct ronic_dma *dma, size_t size, void *cpu,
			 dma_addr_t dma_addr)
{
	dma_free_coherent(dma->dev, size, cpu, dma_addr);
}

/**
 * ronic_dma_rx_pool_params - the DMA side of an rx page_pool
 * @dma: the helper
 * @pp: parameters to complete; the caller sets size, offset and max_len
 *
 * The pool maps each page once and syncs what the caller's offset and
 * max_len cover when a page goes back to the device. Its core maps with
 * RONIC_RO_RX_POOL_ATTRS, DMA_ATTR_WEAK_ORDERING included, and offers no
 * parameter to leave it out: the host side of rx (and of XDP_TX from these
 * pages) is weakly ordered whatever pci_ro_write says, and the policy's
 * decision reports it as such rather than as following the flag.
 */
void ronic_dma_rx_pool_params(struct ronic_dma *dma,
			      struct page_pool_params *pp)
{
	pp->dev = dma->dev;
	/* XDP_TX sends rx pages back out without a new mapping. */
	pp->dma_dir = DMA_BIDIRECTIONAL;
	pp->flags |= PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
}

/**
 * ronic_dma_rx_page_addr - device address of a page from an rx pool
 * @page: the page
 *
 * Return: the address the pool mapped it at.
 */
dma_addr_t ronic_dma_rx_page_addr(struct page *page)
{
	return page_pool_get_dma_addr(page);
}

/**
 * ronic_dma_rx_sync_for_cpu - make received bytes visible to the CPU
 * @pool: the page's pool
 * @page: the page
 * @offset: where the frame starts in the page
 * @len: bytes the device wrote
 */
void ronic_dma_rx_sync_for_cpu(struct page_pool *pool, struct page *page,
			       u32 offset, u32 len)
{
#ifdef RONIC_HAVE_PAGE_POOL_DMA_SYNC_FOR_CPU
	page_pool_dma_sync_for_cpu(pool, page, offset, len);
#else
	/* The same by hand (before 6.10): as the pool mapped the page. */
	dma_sync_single_range_for_cpu(pool->p.dev, page_pool_get_dma_addr(page),
				      pool->p.offset + offset, len,
				      pool->p.dma_dir);
#endif
}

/**
 * ronic_dma_rx_reuse - hand a received buffer back to the device as it is
 * @pool: the page's pool
 * @page: the page
 * @offset: where the device writes in the page
 * @len: how much it may write
 *
 * For a frame the program dropped, whose buffer goes straight back on the
 * ring: what the program may have written there goes to memory first,
 * as the pool would do on a recycle.
 */
void ronic_dma_rx_reuse(struct page_pool *pool, struct page *page,
			u32 offset, u32 len)
{
	dma_sync_single_range_for_device(pool->p.dev, page_pool_get_dma_addr(page),
					 offset, len, pool->p.dma_dir);
}

/**
 * ronic_dma_rx_sync_for_device - hand an rx page's bytes to the device to read
 * @dma: the helper
 * @addr: device address within a pool page
 * @len: bytes
 *
 * For XDP_TX, which sends a received frame out of the page it came in,
 * under the pool's mapping and so its attributes, not dma->tx_attrs.
 */
void ronic_dma_rx_sync_for_device(struct ronic_dma *dma, dma_addr_t addr,
				  u32 len)
{
	dma_sync_single_for_device(dma->dev, addr, len, DMA_BIDIRECTIONAL);
}

/*
 * AF_XDP zero-copy. The socket's memory is mapped once, when its pool is
 * bound to a queue, for both directions: the device writes received
 * frames into it and reads the frames the application sends from it.
 */

/**
 * ronic_dma_xsk_map - map an AF_XDP pool's memory for the device
 * @dma: the helper
 * @pool: the pool being bound
 * @attrs: host attributes from the relaxed-ordering policy (xsk_attrs)
 *
 * The buffers are synced one by one as they change hands, so the mapping
 * itself skips the CPU sync. Undo with ronic_dma_xsk_unmap() and the same
 * @attrs.
 *
 * Return: 0 or a negative errno.
 */
int ronic_dma_xsk_map(struct ronic_dma *dma, struct xsk_buff_pool *pool,
		      unsigned long attrs)
{
	return xsk_pool_dma_map(pool, dma->dev, attrs | DMA_ATTR_SKIP_CPU_SYNC);
}

/**
 * ronic_dma_xsk_unmap - undo ronic_dma_xsk_map()
 * @pool: the pool being unbound, no buffer of it with the device
 * @attrs: what it was mapped with
 */
void ronic_dma_xsk_unmap(struct xsk_buff_pool *pool, unsigned long attrs)
{
	xsk_pool_dma_unmap(pool, attrs | DMA_ATTR_SKIP_CPU_SYNC);
}

/**
 * ronic_dma_xsk_rx_addr - where the device may write into a pool buffer
 * @xdp: the buffer
 *
 * Return: the device address of its data area, after the headroom.
 */
dma_addr_t ronic_dma_xsk_rx_addr(struct xdp_buff *xdp)
{
	return xsk_buff_xdp_get_dma(xdp);
}

/**
 * ronic_dma_xsk_sync_for_cpu - make a received frame visible to the CPU
 * @xdp: the pool buffer the device wrote
 * @pool: its pool
 */
void ronic_dma_xsk_sync_for_cpu(struct xdp_buff *xdp, struct xsk_buff_pool *pool)
{
#ifdef RONIC_HAVE_XSK_SYNC_FOR_CPU_NO_POOL
	xsk_buff_dma_sync_for_cpu(xdp);
#else
	xsk_buff_dma_sync_for_cpu(xdp, pool);
#endif
}

/**
 * ronic_dma_xsk_tx_addr - hand a frame of socket memory to the device
 * @pool: the socket's pool
 * @addr: the frame's address in the socket's memory (its tx descriptor)
 * @len: its bytes
 *
 * Return: the device address, the bytes synced for the device to read.
 */
dma_addr_t ronic_dma_xsk_tx_addr(struct xsk_buff_pool *pool, u64 addr, u32 len)
{
	dma_addr_t dma = xsk_buff_raw_get_dma(pool, addr);

	xsk_buff_raw_dma_sync_for_device(pool, dma, len);
	return dma;
}
