#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-recover's faults in the debug kernel (KASAN, lockdep, DMA-API debug,
# kmemleak): PCIe errors, a function reset, the device's sleep, malformed
# frames from the wire and hot-unplug, under sha256-checked transfers, then
# rx buffers the page pool cannot give (fail_function: sparse failures, a
# ring resize under them, a ring run dry and its recovery)
# (tests/run-debug.sh with RONIC_DEBUG_ONLY=recover; its own boot, so it
# runs in the other lane beside t-debug).
#
# run.sh: needs the debug kernel
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export RONIC_DEBUG_ONLY=recover RONIC_DEBUG_PLANTED=0
exec "$top/tests/run-debug.sh" ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"}
