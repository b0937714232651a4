// SPDX-License-Identifier: GPL-2.0
/* The driver's relaxed-ordering policy, compiled as is into ronic_kunit. */
#include "../../src/ronic_ro_policy.c"
