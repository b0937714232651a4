#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# iperf3 TCP both ways: DUT<->DUT and DUT<->igb against igb<->igb.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/scripts/vm.sh" --name perf --timeout 1200 \
	${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/perf.sh"
