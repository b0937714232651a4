#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ethtool surface, the relaxed-ordering flags and the bad-input table
# (tests/bad-input.tsv), in one boot. The root-port quirk test module and
# the XDP test programs (for the table's XDP rows) are built here.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
kver=$(ronic_guest_kver)
res=${RONIC_RESULTS_DIR:-$top/results/ethtool-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$res"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
cp "$top"/tests/modules/* "$build/"
make -s -C "/usr/src/linux-headers-$kver" M="$build" modules > "$build/log" 2>&1 ||
	{ cat "$build/log"; echo "FAIL: build tests/modules"; exit 1; }
cp "$build/ronic_ro_quirk.ko" "$res/"
RONIC_XDP_OBJ=$("$top/tests/xdp/build.sh")
export RONIC_XDP_OBJ
exec "$top/scripts/vm.sh" --name ethtool --results "$res" \
	-- "$top/tests/guest/ethtool.sh"
