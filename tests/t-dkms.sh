#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS (host side, no VM): dkms add/build/install ronic for every kernel
# of the bed (scripts/kernel-version.sh): the guest kernel, the oldest
# supported one and the debug kernel when it is built; for each, modinfo
# must resolve ronic from the DKMS location with VERSION's version. Then
# remove it all again. The trap also removes it on failure, so no DKMS
# ronic (nor its /usr/src copy) is left to shadow the repo build.
#
# run.sh: alone (dkms installs into the host's own /lib/modules, which
# every VM's module stage reads)
#
# run.sh: needs the debug kernel
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
ver=$(cat "$top/VERSION")
log=$(mktemp)

cleanup() {
	make -s -C "$top" dkms-remove >>"$log" 2>&1
	rm -f "$log"
}
trap cleanup EXIT

kernels=("$(ronic_guest_kver)")
old=$(ronic_old_kver)
if [ -n "$old" ]; then
	kernels+=("$old")
else
	echo "FAIL: dkms: no $RONIC_OLD_KSERIES kernel recorded (scripts/setup.sh installs it)"
fi
debug=$(ronic_debug_kver_built)
if [ -n "$debug" ]; then
	kernels+=("$debug")
else
	echo "SKIP: dkms: the debug kernel (not built yet: t-debug builds it)"
fi

if ! command -v dkms >/dev/null; then
	echo "FAIL: dkms is not installed (scripts/setup.sh installs it)"
	exit 1
fi
# A leftover from an interrupted run would make "dkms add" refuse.
make -s -C "$top" dkms-remove >>"$log" 2>&1

# dkms_one KVER: build and install for KVER (added by the first call).
dkms_one() {
	if [ ! -d "/usr/src/ronic-$ver" ]; then
		make -s -C "$top" KVER="$1" dkms-install >>"$log" 2>&1
	else
		dkms build -m ronic -v "$ver" -k "$1" >>"$log" 2>&1 &&
			dkms install -m ronic -v "$ver" -k "$1" >>"$log" 2>&1
	fi
}

for kver in "${kernels[@]}"; do
	if dkms_one "$kver"; then
		echo "PASS: dkms build/install ronic $ver for $kver"
	else
		echo "FAIL: dkms build/install ronic $ver for $kver"
		tail -30 "$log"
		continue
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
		echo "PASS: $kver: the DKMS module's version is VERSION ($ver)"
	else
		echo "FAIL: $kver: the DKMS module's version is '$mver', VERSION says $ver"
	fi
done

make -s -C "$top" dkms-remove >>"$log" 2>&1
left=
for kver in "${kernels[@]}"; do
	! modinfo -k "$kver" ronic >/dev/null 2>&1 || left+=" $kver"
done
if [ ! -e "/usr/src/ronic-$ver" ] && [ -z "$left" ]; then
	echo "PASS: dkms remove left no ronic in /lib/modules or /usr/src"
else
	echo "FAIL: ronic still installed after dkms remove:${left:- /usr/src/ronic-$ver}"
fi
