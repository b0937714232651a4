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

# with_test_modules KVER DIR: build tests/modules (the root-port quirk and
# sleep modules, with the driver's register map include/ronic_regs.h)
# for KVER into DIR, where the guest finds them in /results/.
with_test_modules() {
	local build
	build=$(mktemp -d)
	cp "$top"/tests/modules/* "$top/include/ronic_regs.h" "$build/"
	if ! make -s -C "/lib/modules/$1/build" M="$build" modules > "$build/log" 2>&1; then
		cat "$build/log"
		echo "FAIL: build tests/modules for $1"
		rm -rf "$build"
		exit 1
	fi
	cp "$build"/*.ko "$2/"
	rm -rf "$build"
}

# run_guest NAME [VM_SH_OPTIONS...]: boot the bed and run
# tests/guest/NAME.sh in it (results in $RONIC_RESULTS_DIR when set);
# the test's exit status is vm.sh's.
run_guest() {
	local name=$1
	shift
	exec "$top/scripts/vm.sh" --name "$name" \
		${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} "$@" \
		-- "$top/tests/guest/$name.sh"
}
