#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rmmod under traffic, load/unload cycles, autoload by modalias.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/scripts/vm.sh" --name unload ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/unload.sh"
