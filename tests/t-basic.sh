#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Link, ethtool -i, IPv4/IPv6 ping: the DUT against itself and igb.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/scripts/vm.sh" --name basic ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/basic.sh"
