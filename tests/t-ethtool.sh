#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ethtool surface, the relaxed-ordering flags and the bad-input table
# (tests/bad-input.tsv), in one boot. The root-port quirk test module and
# the XDP test programs (for the table's XDP rows) are built here.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
kver=$(ronic_guest_kver)
res=${RONIC_RESULTS_DIR:-$top/results/ethtool-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$res"
with_test_modules "$kver" "$res"
with_xdp_objs
RONIC_RESULTS_DIR=$res run_guest ethtool
