# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Host side of the VM tests (tests/t-*.sh): source it.

top=${top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

# with_xdp_objs: build the test XDP programs (tests/xdp/build.sh) and hand
# their object to the guest as RONIC_XDP_OBJ.
with_xdp_objs() {
	RONIC_XDP_OBJ=$("$top/tests/xdp/build.sh") || exit 1
	export RONIC_XDP_OBJ
}

# build_test_modules KBUILD DIR: build tests/modules (the root-port quirk
# and sleep modules, with the driver's register map include/ronic_regs.h)
# against the kernel build tree KBUILD with W=1, into DIR. Status 1, and
# the build's log on stdout, on an error or a warning.
build_test_modules() {
	local build rc=0
	build=$(mktemp -d)
	cp "$top"/tests/modules/* "$top/include/ronic_regs.h" "$build/"
	if ! make -s -C "$1" M="$build" W=1 modules > "$build/log" 2>&1 ||
	   grep -q 'warning:' "$build/log"; then
		cat "$build/log"
		rc=1
	else
		cp "$build"/*.ko "$2/"
	fi
	rm -rf "$build"
	return "$rc"
}

# with_test_modules KVER DIR: build_test_modules for the installed kernel
# KVER, where the guest finds them in /results/; the test fails if not.
with_test_modules() {
	if ! build_test_modules "/lib/modules/$1/build" "$2"; then
		echo "FAIL: build tests/modules for $1"
		exit 1
	fi
}

# with_guest_test_modules NAME: make the test's results folder
# ($RONIC_RESULTS_DIR, or results/NAME-<time>; exported) and build the
# test modules for the guest kernel into it.
with_guest_test_modules() {
	# shellcheck source=scripts/kernel-version.sh
	. "$top/scripts/kernel-version.sh"
	RONIC_RESULTS_DIR=${RONIC_RESULTS_DIR:-$top/results/$1-$(date +%Y%m%d-%H%M%S)}
	export RONIC_RESULTS_DIR
	mkdir -p "$RONIC_RESULTS_DIR"
	with_test_modules "$(ronic_guest_kver)" "$RONIC_RESULTS_DIR"
}

# run_guest NAME [VM_SH_OPTIONS...]: boot the bed and run
# tests/guest/NAME.sh in it, results in $RONIC_RESULTS_DIR (or
# results/NAME-<time>)/attempt1; a boot that hung outside the driver
# under test gets a second one in attempt2 (the bed-hang rule,
# scripts/bed-hang.sh: the first is then a SKIP). The test's exit status
# is vm.sh's, of the last attempt.
run_guest() {
	local name=$1
	shift
	# shellcheck source=scripts/bed-hang.sh
	. "$top/scripts/bed-hang.sh"
	ronic_vm_retry_bed_hang "${RONIC_RESULTS_DIR:-$top/results/$name-$(date +%Y%m%d-%H%M%S)}" \
		--name "$name" "$@" -- "$top/tests/guest/$name.sh"
	exit
}
