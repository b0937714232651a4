#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lifecycle table (tests/lifecycle.tsv): every ordering of up/down,
# XDP attach/replace/detach, -G, -L, MTU, the relaxed-ordering flags,
# rmmod/unbind/PCI remove and the device reset under the port (function
# reset, sleep through the test module tests/modules/ronic_sleep.c, a PCIe
# error), quiet and under traffic, in one boot (about
# 330 s of rows under TCG on 2 vCPUs); then 200 operations of the seeded
# control-plane fuzzer (tests/guest/fuzz.sh, seed 1).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
with_guest_test_modules lifecycle
with_xdp_objs
export RONIC_FUZZ_OPS=${RONIC_FUZZ_OPS:-200} RONIC_FUZZ_SEED=${RONIC_FUZZ_SEED:-1}
run_guest lifecycle --timeout 900
