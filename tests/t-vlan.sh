#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# VLAN strip and insert offloads on a VLAN subinterface, against igb.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
res=${RONIC_RESULTS_DIR:-$top/results/vlan-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$res"
exec "$top/scripts/vm.sh" --name vlan --results "$res" \
	-- "$top/tests/guest/vlan.sh"
