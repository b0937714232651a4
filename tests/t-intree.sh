#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-tree build (host side, no VM): scripts/intree.sh copies the driver
# into linux-source-6.12 (drivers/net/ethernet/ronic, hooked into the
# parent Kconfig and Makefile), sets CONFIG_RONIC=m and builds the
# directory with W=1; any warning or missing object fails. The prepared
# tree is cached, so a run after the first takes about half a minute.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

t0=$SECONDS
if "$top/scripts/intree.sh" > "$log" 2>&1; then
	echo "PASS: in-tree build of drivers/net/ethernet/ronic (CONFIG_RONIC=m, W=1, no warnings, $((SECONDS - t0)) s)"
else
	echo "FAIL: in-tree build of drivers/net/ethernet/ronic"
	tail -40 "$log"
	exit 1
fi
