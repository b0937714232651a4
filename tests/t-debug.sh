#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug-kernel run in make test: tests/run-debug.sh (KASAN, UBSAN,
# lockdep, DMA-API debug, kmemleak, fault injection) without the IOMMU;
# make test-debug IOMMU=1 adds the strict emulated IOMMU. The debug kernel
# is cached (scripts/debug-kernel.sh); only a machine without it builds it,
# 20 to 26 minutes on two cores beside the other tests. The kernel tree's
# driver selftests are t-hwselftests' (RONIC_DEBUG_SELFTESTS=0 here).
#
# run.sh: needs the debug kernel
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export RONIC_DEBUG_SELFTESTS=0
exec "$top/tests/run-debug.sh" ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"}
