#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A functional floor: iperf3 TCP both ways, DUT<->DUT and DUT<->igb, at
# least half of igb<->igb in the same boot (the ratios: make bench).
#
# run.sh: alone (a throughput floor: a second VM would halve it)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
run_guest perf --timeout 600
