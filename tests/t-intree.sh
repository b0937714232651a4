#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-tree builds (host side, no VM): scripts/intree.sh copies the driver
# into the kernel tree (drivers/net/ethernet/ronic, hooked into the parent
# Kconfig and Makefile), sets CONFIG_RONIC=m and builds the directory with
# W=1; any warning or missing object fails. Two trees: linux-source-6.12
# (x86_64 defconfig; prepared once and cached, so a run after the first
# takes about half a minute) and the debug kernel's 7.3 tree, through an
# overlay, so the cached tree is never written.
#
# run.sh: needs the debug kernel
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# in_tree WHAT [--tree DIR]: scripts/intree.sh, one PASS or FAIL line.
in_tree() {
	local what=$1 t0=$SECONDS
	shift
	if "$top/scripts/intree.sh" "$@" > "$log" 2>&1; then
		echo "PASS: in-tree build of drivers/net/ethernet/ronic in $what (CONFIG_RONIC=m, W=1, no warnings, $((SECONDS - t0)) s)"
	else
		echo "FAIL: in-tree build of drivers/net/ethernet/ronic in $what"
		tail -40 "$log"
		rc=1
	fi
}

rc=0
in_tree linux-source-6.12
debug=$(ronic_debug_kver_built)
if [ -n "$debug" ]; then
	in_tree "$debug" --tree "$(readlink -f "/lib/modules/$debug/build")"
else
	echo "SKIP: in-tree build in the debug kernel's tree (not built yet: t-debug builds it)"
fi
exit $rc
