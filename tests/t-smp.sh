#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The DUT on a guest with many CPUs (RONIC_SMP, 72): more than queues and
# vectors. The boot alone takes about 100 s under TCG.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RONIC_XDP_OBJ=$("$top/tests/xdp/build.sh")
export RONIC_XDP_OBJ
exec "$top/scripts/vm.sh" --name smp --timeout 1200 --smp "${RONIC_SMP:-72}" \
	${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/smp.sh"
