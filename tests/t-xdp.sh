#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XDP on ronic: every action, errors, attach under traffic, redirect in
# from veth. The test programs are compiled here, on the host.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RONIC_XDP_OBJ=$("$top/tests/xdp/build.sh")
export RONIC_XDP_OBJ
exec "$top/scripts/vm.sh" --name xdp ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/xdp.sh"
