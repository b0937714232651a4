#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel tree's driver selftests (stats.py, queues.py,
# napi_id.py, hw/irq.py, hw/csum.py, hw/rss_ctx.py: tests/guest/
# hwselftests.sh) on ronic, igb where ronic fails, and the NAPI instance
# checks (napi.sh), in a debug-kernel boot of their own with nothing beside
# it (tests/run-debug.sh with RONIC_DEBUG_ONLY=selftests). Their time
# limits are the tests' own: csum's receiver waits 2 s for 100 frames (1 s
# in the tx cases), and in a lane beside another VM the sender started
# too late (0 and 68 of 100 frames in time, CI of 2026-12-07).
#
# run.sh: alone
# run.sh: needs the debug kernel
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export RONIC_DEBUG_ONLY=selftests RONIC_DEBUG_PLANTED=0
exec "$top/tests/run-debug.sh" ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"}
