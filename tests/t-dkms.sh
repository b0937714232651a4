#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS (host side, no VM): dkms add/build/install ronic against the guest
# kernel's headers, check that modinfo resolves ronic from the DKMS
# location, then remove it all again. The trap also removes it on failure,
# so no DKMS ronic (nor its /usr/src copy) is left to shadow the repo build.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
kver=$(ronic_guest_kver)
ver=$(cat "$top/VERSION")
log=$(mktemp)

cleanup() {
	make -s -C "$top" dkms-remove >>"$log" 2>&1
	rm -f "$log"
}
trap cleanup EXIT

if ! command -v dkms >/dev/null; then
	echo "FAIL: dkms is not installed (scripts/setup.sh installs it)"
	exit 1
fi
# A leftover from an interrupted run would make "dkms add" refuse.
make -s -C "$top" dkms-remove >>"$log" 2>&1

if make -s -C "$top" KVER="$kver" dkms-install >>"$log" 2>&1; then
	echo "PASS: dkms add/build/install ronic $ver for $kver"
else
	echo "FAIL: dkms add/build/install ronic $ver for $kver"
	tail -30 "$log"
	exit 1
fi

file=$(modinfo -k "$kver" -F filename ronic 2>/dev/null)
case $file in
/lib/modules/"$kver"/updates/dkms/ronic.ko*)
	echo "PASS: modinfo -k $kver ronic resolves to $file" ;;
*)
	echo "FAIL: modinfo -k $kver ronic resolves to '$file', not updates/dkms" ;;
esac

mver=$(modinfo -F version "$file" 2>/dev/null)
if [ "$mver" = "$ver" ]; then
	echo "PASS: the DKMS module's version is VERSION ($ver)"
else
	echo "FAIL: the DKMS module's version is '$mver', VERSION says $ver"
fi

make -s -C "$top" dkms-remove >>"$log" 2>&1
if [ ! -e "/usr/src/ronic-$ver" ] && ! modinfo -k "$kver" ronic >/dev/null 2>&1; then
	echo "PASS: dkms remove left no ronic in /lib/modules or /usr/src"
else
	echo "FAIL: ronic still installed after dkms remove"
fi
