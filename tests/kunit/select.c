// SPDX-License-Identifier: GPL-2.0
/* The driver's XDP ring count and lock key, compiled as is into ronic_kunit. */
#include "../../src/ronic_xdp_select.c"
