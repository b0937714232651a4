// SPDX-License-Identifier: GPL-2.0
/*
 * ronic: ring memory. Descriptor areas, software buffer arrays and the rx
 * page_pool, allocated before a ring is used and freed after it is idle.
 */
#include <linux/slab.h>
#include <net/page_pool/helpers.h>

#include "ronic.h"

/**
 * ronic_ring_alloc_tx - descriptor memory and slot array of a tx ring
 * @ring: the ring, with count, dma and netdev set
 *
 * Return: 0 or -ENOMEM, with nothing left allocated.
 */
int ronic_ring_alloc_tx(struct ronic_ring *ring)
{
	ring->tx_buf = kvcalloc(ring->count, sizeof(*ring->tx_buf), GFP_KERNEL);
	if (!ring->tx_buf)
		return -ENOMEM;

	ring->desc_bytes = ALIGN(ring->count * sizeof(struct ronic_tx_desc), SZ_4K);
	ring->desc = ronic_dma_alloc_ring(ring->dma, ring->desc_bytes,
					  &ring->desc_dma);
	if (!ring->desc) {
		kvfree(ring->tx_buf);
		ring->tx_buf = NULL;
		return -ENOMEM;
	}
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
	return 0;
}

/**
 * ronic_ring_clean_tx - release every frame still on a stopped tx ring
 * @ring: the ring; the device no longer reads from it
 */
void ronic_ring_clean_tx(struct ronic_ring *ring)
{
	struct ronic_tx_buffer *buf;
	u16 i;

	if (!ring->tx_buf)
		return;
	for (i = 0; i < ring->count; i++) {
		buf = &ring->tx_buf[i];
		/* A stale pointer would let the next clean count this slot again. */
		buf->eop_desc = NULL;
		ronic_dma_unmap_tx(ring->dma, &buf->map);
		if (buf->skb) {
			dev_kfree_skb_any(buf->skb);
			buf->skb = NULL;
		}
	}
	memset(ring->desc, 0, ring->desc_bytes);
	netdev_tx_reset_queue(netdev_get_tx_queue(ring->netdev, ring->queue_index));
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
}

/**
 * ronic_ring_free_tx - free what ronic_ring_alloc_tx() allocated
 * @ring: the ring, cleaned
 */
void ronic_ring_free_tx(struct ronic_ring *ring)
{
	if (ring->desc)
		ronic_dma_free_ring(ring->dma, ring->desc_bytes, ring->desc,
				    ring->desc_dma);
	ring->desc = NULL;
	kvfree(ring->tx_buf);
	ring->tx_buf = NULL;
}

static int ronic_ring_create_pool(struct ronic_ring *ring)
{
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = ring->count,
		.nid = NUMA_NO_NODE,
		.napi = &ring->q_vector->napi,
		.netdev = ring->netdev,
		.queue_idx = ring->queue_index,
		.offset = RONIC_RX_HEADROOM,
		.max_len = RONIC_RX_BUF_LEN,
	};

	ronic_dma_rx_pool_params(ring->dma, &pp);
	ring->pp = page_pool_create(&pp);
	if (IS_ERR(ring->pp)) {
		int err = PTR_ERR(ring->pp);

		ring->pp = NULL;
		return err;
	}
	return 0;
}

/**
 * ronic_ring_alloc_rx - descriptors, slot array, page_pool and rxq info
 * @ring: the ring, with count, dma, netdev and q_vector set
 *
 * Return: 0 or a negative errno, with nothing left allocated.
 */
int ronic_ring_alloc_rx(struct ronic_ring *ring)
{
	int err = -ENOMEM;

	ring->rx_buf = kvcalloc(ring->count, sizeof(*ring->rx_buf), GFP_KERNEL);
	if (!ring->rx_buf)
		return -ENOMEM;

	ring->desc_bytes = ALIGN(ring->count * sizeof(union ronic_rx_desc), SZ_4K);
	ring->desc = ronic_dma_alloc_ring(ring->dma, ring->desc_bytes,
					  &ring->desc_dma);
	if (!ring->desc)
		goto err_buf;

	err = ronic_ring_create_pool(ring);
	if (err)
		goto err_desc;

	err = xdp_rxq_info_reg(&ring->xdp_rxq, ring->netdev, ring->queue_index,
			       ring->q_vector->napi.napi_id);
	if (err)
		goto err_pool;
	err = xdp_rxq_info_reg_mem_model(&ring->xdp_rxq, MEM_TYPE_PAGE_POOL,
					 ring->pp);
	if (err)
		goto err_rxq;

	ring->next_to_use = 0;
	ring->next_to_clean = 0;
	ring->rx_skb = NULL;
	return 0;

err_rxq:
	xdp_rxq_info_unreg(&ring->xdp_rxq);
err_pool:
	page_pool_destroy(ring->pp);
	ring->pp = NULL;
err_desc:
	ronic_dma_free_ring(ring->dma, ring->desc_bytes, ring->desc,
			    ring->desc_dma);
	ring->desc = NULL;
err_buf:
	kvfree(ring->rx_buf);
	ring->rx_buf = NULL;
	return err;
}

/**
 * ronic_ring_clean_rx - return every buffer of a stopped rx ring to its pool
 * @ring: the ring; the device no longer writes into it
 */
void ronic_ring_clean_rx(struct ronic_ring *ring)
{
	u16 i;

	if (!ring->rx_buf)
		return;
	if (ring->rx_skb) {
		dev_kfree_skb_any(ring->rx_skb);
		ring->rx_skb = NULL;
	}
	for (i = 0; i < ring->count; i++) {
		if (!ring->rx_buf[i].page)
			continue;
		page_pool_put_full_page(ring->pp, ring->rx_buf[i].page, false);
		ring->rx_buf[i].page = NULL;
	}
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
}

/**
 * ronic_ring_free_rx - free what ronic_ring_alloc_rx() allocated
 * @ring: the ring, cleaned
 */
void ronic_ring_free_rx(struct ronic_ring *ring)
{
	if (xdp_rxq_info_is_reg(&ring->xdp_rxq))
		xdp_rxq_info_unreg(&ring->xdp_rxq);
	if (ring->pp)
		page_pool_destroy(ring->pp);
	ring->pp = NULL;
	if (ring->desc)
		ronic_dma_free_ring(ring->dma, ring->desc_bytes, ring->desc,
				    ring->desc_dma);
	ring->desc = NULL;
	kvfree(ring->rx_buf);
	ring->rx_buf = NULL;
}
