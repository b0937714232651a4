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
with_guest_test_modules ethtool
with_xdp_objs
run_guest ethtool
