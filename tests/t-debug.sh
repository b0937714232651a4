#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug-kernel run in make test: tests/run-debug.sh (KASAN, UBSAN,
# lockdep, DMA-API debug, kmemleak, fault injection) without the IOMMU;
# make test-debug IOMMU=1 adds the strict emulated IOMMU. The debug kernel
# is cached (scripts/debug-kernel.sh); only a machine without it builds it,
# about 7 minutes on two cores.
#
# run.sh: needs the debug kernel
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/run-debug.sh" ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"}
