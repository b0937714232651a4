/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hardware API: everything that touches 82576 registers. Callers pass
 * plain values; nothing here allocates memory or knows about skbs.
 */
#ifndef _RONIC_HW_H_
#define _RONIC_HW_H_

#include "ronic.h"
#include "ronic_regs.h"

static inline u32 ronic_rd32(const struct ronic_adapter *adapter, u32 reg)
{
	return readl(adapter->hw_addr + reg);
}

static inline void ronic_wr32(const struct ronic_adapter *adapter, u32 reg,
			      u32 val)
{
	writel(val, adapter->hw_addr + reg);
}

/* Reading STATUS posts every write before it. */
static inline void ronic_flush(const struct ronic_adapter *adapter)
{
	ronic_rd32(adapter, RONIC_STATUS);
}

/* Unmask one queue vector's interrupt (EIAM auto-mask is not relied on). */
static inline void ronic_hw_unmask_vector(const struct ronic_adapter *adapter,
					  u32 eims)
{
	ronic_wr32(adapter, RONIC_EIMS, eims);
}

static inline void ronic_hw_mask_vector(const struct ronic_adapter *adapter,
					u32 eims)
{
	ronic_wr32(adapter, RONIC_EIMC, eims);
}

struct ronic_link {
	bool up;
	bool full_duplex;
	u16 speed;		/* Mbit/s */
};

struct ronic_tx_queue_state {
	u32 head;
	u32 tail;
	u32 txdctl;
};

void ronic_hw_get_tx_state(struct ronic_adapter *adapter,
			   struct ronic_ring *ring,
			   struct ronic_tx_queue_state *state);
int ronic_hw_reset(struct ronic_adapter *adapter);
void ronic_hw_init(struct ronic_adapter *adapter);
int ronic_hw_phy_loopback(struct ronic_adapter *adapter);
int ronic_hw_setup_link(struct ronic_adapter *adapter);
int ronic_hw_phy_write(struct ronic_adapter *adapter, u32 reg, u16 val);
void ronic_hw_setup_flow_control(struct ronic_adapter *adapter);
u32 ronic_hw_regs_len(void);
void ronic_hw_get_regs(struct ronic_adapter *adapter, u32 *buf);
void ronic_hw_release(struct ronic_adapter *adapter);
int ronic_hw_read_mac(struct ronic_adapter *adapter, u8 *mac);
int ronic_hw_nvm_version(struct ronic_adapter *adapter, char *buf, size_t len);
int ronic_hw_read_eeprom(struct ronic_adapter *adapter, u16 word, u16 *data);
u32 ronic_hw_nvm_words(struct ronic_adapter *adapter);
u32 ronic_hw_led_read(struct ronic_adapter *adapter);
void ronic_hw_led_write(struct ronic_adapter *adapter, u32 ledctl);
void ronic_hw_led_force(struct ronic_adapter *adapter, u32 saved, bool on);
void ronic_hw_set_rar(struct ronic_adapter *adapter, unsigned int index,
		      const u8 *mac);
void ronic_hw_clear_rar(struct ronic_adapter *adapter, unsigned int index);
void ronic_hw_get_link(struct ronic_adapter *adapter, struct ronic_link *link);

void ronic_hw_configure_tx_ring(struct ronic_adapter *adapter,
				struct ronic_ring *ring);
int ronic_hw_disable_tx_ring(struct ronic_adapter *adapter,
			     struct ronic_ring *ring);
void ronic_hw_configure_rx_ring(struct ronic_adapter *adapter,
				struct ronic_ring *ring);
int ronic_hw_disable_rx_ring(struct ronic_adapter *adapter,
			     struct ronic_ring *ring);
void ronic_hw_set_tx_ro(struct ronic_adapter *adapter, u8 q, u32 bits);
void ronic_hw_set_rx_ro(struct ronic_adapter *adapter, u8 q, u32 bits);
void ronic_hw_enable_tx(struct ronic_adapter *adapter);
void ronic_hw_enable_rx(struct ronic_adapter *adapter, u32 max_frame);
void ronic_hw_disable_rxtx(struct ronic_adapter *adapter);
void ronic_hw_set_wake(struct ronic_adapter *adapter, u32 wufc);
void ronic_hw_write_vfta(struct ronic_adapter *adapter);
void ronic_hw_set_vfta_bit(struct ronic_adapter *adapter, u16 vid, bool on);
void ronic_hw_set_rx_features(struct ronic_adapter *adapter,
			      netdev_features_t features);
void ronic_hw_setup_rss(struct ronic_adapter *adapter);
void ronic_hw_set_rx_mode(struct ronic_adapter *adapter,
			  struct net_device *netdev);
void ronic_hw_sync_rx_mode(struct ronic_adapter *adapter,
			   struct net_device *netdev);

void ronic_hw_setup_msix(struct ronic_adapter *adapter);
void ronic_hw_setup_legacy_irq(struct ronic_adapter *adapter);
void ronic_hw_irq_enable(struct ronic_adapter *adapter);
void ronic_hw_irq_disable(struct ronic_adapter *adapter);
void ronic_hw_write_itr(struct ronic_adapter *adapter,
			struct ronic_q_vector *q_vector);
void ronic_hw_kick_queues(struct ronic_adapter *adapter);
void ronic_hw_kick_vector(struct ronic_adapter *adapter,
			  struct ronic_q_vector *qv);
u32 ronic_hw_read_clear_causes(struct ronic_adapter *adapter);

void ronic_hw_update_stats(struct ronic_adapter *adapter,
			   struct ronic_hw_stats *stats);

#endif /* _RONIC_HW_H_ */
