/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ethtool -t: the register, EEPROM, interrupt, loopback and link tests.
 */
#ifndef _RONIC_SELFTEST_H_
#define _RONIC_SELFTEST_H_

#include <linux/types.h>

struct ethtool_test;
struct net_device;

/*
 * The result of a test that did not run: the offline tests in an online
 * run (not a failure then), or a test that could not get what it needed
 * (memory, its interrupt handlers) in an offline run (a failure then).
 * No failure code of any test is this value.
 */
#define RONIC_SELFTEST_NOT_RUN	99

int ronic_selftest_count(void);
void ronic_selftest_strings(u8 **data);
void ronic_selftest(struct net_device *netdev, struct ethtool_test *test,
		    u64 *data);

#endif /* _RONIC_SELFTEST_H_ */
