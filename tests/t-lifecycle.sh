#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lifecycle table (tests/lifecycle.tsv): every ordering of up/down,
# XDP attach/replace/detach, -G, -L, MTU, the relaxed-ordering flags and
# rmmod/unbind/PCI remove, quiet and under traffic, in one boot (about
# 330 s of rows under TCG on 2 vCPUs).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RONIC_XDP_OBJ=$("$top/tests/xdp/build.sh")
export RONIC_XDP_OBJ
exec "$top/scripts/vm.sh" --name lifecycle --timeout 600 ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/lifecycle.sh"
