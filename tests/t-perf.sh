#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A functional floor: iperf3 TCP both ways, DUT<->DUT and DUT<->igb, at
# least half of igb<->igb in the same boot (the ratios: make bench).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/scripts/vm.sh" --name perf --timeout 600 \
	${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/perf.sh"
