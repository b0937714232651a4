#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug-kernel run (make test-debug): build or reuse the debug kernel
# (scripts/debug-kernel.sh), build ronic.ko against it in a scratch copy of
# the sources (the repo's ronic.ko stays as it is), boot it in the test bed
# and run tests/guest/debug.sh: both NICs on ronic, ping v4/v6 both ways,
# the KUnit suites of tests/kunit (ronic_kunit.ko, also built here),
# iperf3, rmmod under traffic, load/unload cycles, then DMA-API debug's
# error count and leftover mappings, a kmemleak scan after rmmod, lockdep
# still on, taint; scripts/vm.sh then checks the kernel log (KASAN, UBSAN,
# lockdep, DMA-API, WARNING, BUG, DMAR faults, ...).
#
#   tests/run-debug.sh [--iommu | --both] [--results DIR]
#
# --iommu boots with the emulated intel-iommu (strict, interrupt remapping)
# and checks for DMAR faults; --both runs without, then with it (also
# RONIC_DEBUG_IOMMU=0|1|both). RONIC_DEBUG_ONLY=kunit runs only the KUnit
# part in the VM (a quick check; the full run always has it);
# RONIC_DEBUG_ONLY=planted only the planted bugs (make planted-bugs), which
# the full run has last unless RONIC_DEBUG_PLANTED=0; RONIC_DEBUG_ONLY=
# hwselftests only the kernel tree's driver selftests; napi only the NAPI
# instance checks; lifecycle only the lifecycle table's quiet rows; xdp
# only the multi-buffer XDP cases; xsk only the AF_XDP core cases; fuzz
# only the control-plane fuzzer (make fuzz; RONIC_FUZZ_SEED, _OPS); recover
# only t-recover's faults and rx allocation failures
# (tests/t-recover-debug.sh); rxalloc only those failures; selftests the
# driver selftests and the NAPI checks (tests/t-hwselftests.sh), which
# RONIC_DEBUG_SELFTESTS=0 leaves out of a full run (tests/t-debug.sh). Prints
# PASS:/FAIL: lines and a closing "N passed, N failed, N skipped"; exit
# status 1 if anything failed. Each check's time is in the VM results'
# check-times.tsv.
#
# Results in DIR (default <repo>/results/debug-<timestamp>, or
# $RONIC_RESULTS_DIR): build/ (the scratch build, ronic.ko with its debug
# info for decoding traces: scripts/decode_stacktrace.sh under the
# kernel's build tree), vm/ or vm-iommu/ (vm.sh's results: console.txt,
# dmesg.txt, output.txt, kmemleak.txt).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

mode=${RONIC_DEBUG_IOMMU:-0}
results=${RONIC_RESULTS_DIR:-}
while [ $# -gt 0 ]; do
	case "$1" in
	--iommu) mode=1; shift ;;
	--both) mode=both; shift ;;
	--results) results=$2; shift 2 ;;
	-h|--help) sed -n 's/^#   //p' "$0" >&2; exit 2 ;;
	*) echo "run-debug.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
case "$mode" in
0) runs=(plain) ;;
1) runs=(iommu) ;;
both) runs=(plain iommu) ;;
*) echo "run-debug.sh: RONIC_DEBUG_IOMMU must be 0, 1 or both" >&2; exit 2 ;;
esac
results=${results:-$top/results/debug-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$results"
results=$(realpath "$results")

passed=0
failed=0
skipped=0
# count: tally PASS:/FAIL:/SKIP: lines passing through (and print them).
count() {
	local line
	while IFS= read -r line; do
		echo "$line"
		case "$line" in
		PASS:*) passed=$((passed + 1)) ;;
		FAIL:*) failed=$((failed + 1)) ;;
		SKIP:*) skipped=$((skipped + 1)) ;;
		esac
	done
}
pass() { count <<< "PASS: $1"; }
fail() { count <<< "FAIL: $1 (${2:-failed})"; }
summary() {
	echo "$passed passed, $failed failed, $skipped skipped"
	echo "# debug run: $(($(date +%s) - t_start)) s, results in $results" >&2
	[ "$failed" -eq 0 ]
	exit
}
t_start=$(date +%s)

# ---------------------------------------------------------------- kernel
t0=$(date +%s)
if ! kdir=$("$top/scripts/debug-kernel.sh"); then
	fail "debug: debug kernel build" "scripts/debug-kernel.sh failed"
	summary
fi
# shellcheck source=/dev/null
. "$kdir/info.env"
pass "debug: debug kernel $RONIC_DEBUG_KVER ready ($(($(date +%s) - t0)) s)"

# ---------------------------------------------------------------- module
# A scratch copy: building for another kernel in the repo would replace
# the repo's ronic.ko (built for the Debian guest kernel).
build=$results/build
rm -rf "$build"
mkdir -p "$build"
mkdir -p "$build/tests"
cp -a "$top/tests/kunit" "$build/tests/"
"$top/scripts/copy-driver.sh" "$build"
find "$build" \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' \) -delete
if nice -n 10 make -C "$RONIC_DEBUG_KBUILD" M="$build" W=1 -j"${RONIC_JOBS:-$(nproc)}" \
	modules > "$build/build.log" 2>&1 && [ -f "$build/ronic.ko" ]; then
	warnings=$(grep -c 'warning:' "$build/build.log")
	pass "debug: ronic.ko builds against $RONIC_DEBUG_KVER ($warnings warnings)"
	[ "$warnings" -eq 0 ] || grep -A3 'warning:' "$build/build.log" | head -40 >&2
else
	tail -30 "$build/build.log" >&2
	fail "debug: ronic.ko builds against $RONIC_DEBUG_KVER" "see $build/build.log"
	summary
fi

# ronic_kunit.ko from the same copy (tests/kunit includes ../../src).
if nice -n 10 make -C "$RONIC_DEBUG_KBUILD" M="$build/tests/kunit" W=1 \
	-j"${RONIC_JOBS:-$(nproc)}" modules > "$build/kunit-build.log" 2>&1 &&
   [ -f "$build/tests/kunit/ronic_kunit.ko" ]; then
	warnings=$(grep -c 'warning:' "$build/kunit-build.log")
	if [ "$warnings" -eq 0 ]; then
		pass "debug: ronic_kunit.ko builds against $RONIC_DEBUG_KVER (0 warnings)"
	else
		fail "debug: ronic_kunit.ko builds against $RONIC_DEBUG_KVER" "$warnings warnings"
		grep -A3 'warning:' "$build/kunit-build.log" | head -40 >&2
	fi
else
	tail -30 "$build/kunit-build.log" >&2
	fail "debug: ronic_kunit.ko builds against $RONIC_DEBUG_KVER" "see $build/kunit-build.log"
	summary
fi

# The test modules (tests/lib.sh's build_test_modules: ronic_sleep.ko
# for the lifecycle table's sleep rows).
mkdir -p "$build/tests/modules"
if build_test_modules "$RONIC_DEBUG_KBUILD" "$build/tests/modules" \
	> "$build/modules-build.log" 2>&1; then
	pass "debug: tests/modules build against $RONIC_DEBUG_KVER (W=1, 0 warnings)"
else
	grep -A3 -E 'warning:|error:' "$build/modules-build.log" | head -40 >&2
	fail "debug: tests/modules build against $RONIC_DEBUG_KVER" "see $build/modules-build.log"
	summary
fi

# The planted bugs (tests/planted/*.patch, a series applied in order):
# one more scratch copy with all of them, each asleep until its module
# parameter wakes it; debug.sh's last phase runs them one at a time.
# RONIC_DEBUG_PLANTED=0 leaves them out.
if [ "${RONIC_DEBUG_PLANTED:-1}" = 1 ]; then
	planted=$results/planted
	rm -rf "$planted"
	mkdir -p "$planted"
	"$top/scripts/copy-driver.sh" "$planted"
	find "$planted" \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' \) -delete
	applied=0
	for p in "$top"/tests/planted/*.patch; do
		patch -d "$planted" -p1 --quiet --no-backup-if-mismatch -F0 < "$p" > "$planted/patch.log" 2>&1 ||
			break
		applied=$((applied + 1))
	done
	n=$(find "$top/tests/planted" -name '*.patch' | wc -l)
	if [ "$applied" -ne "$n" ]; then
		fail "debug: planted bugs apply" "$applied of $n; $(head -3 "$planted/patch.log" | tr '\n' ' ')"
	elif nice -n 10 make -C "$RONIC_DEBUG_KBUILD" M="$planted" -j"${RONIC_JOBS:-$(nproc)}" \
		modules > "$planted/build.log" 2>&1 && [ -f "$planted/ronic.ko" ]; then
		pass "debug: ronic.ko with the $n planted bugs builds"
		export RONIC_PLANTED_KO=$planted/ronic.ko
	else
		tail -30 "$planted/build.log" >&2
		fail "debug: ronic.ko with the $n planted bugs builds" "see $planted/build.log"
	fi
fi

# The tree's own driver selftests (tests/guest/hwselftests.sh) run from
# the kernel tree, with the helpers they call built into it here (the
# guest sees the tree read-only): net/lib's xdp_dummy program (ping.py,
# hw/irq.py), xdp_helper (queues.py) and csum (hw/csum.py), and
# napi_id.py's napi_id_helper.
export RONIC_DEBUG_KSRC=$RONIC_DEBUG_KBUILD
selftests=$RONIC_DEBUG_KSRC/tools/testing/selftests
helpers_ok=1
for helper in net/lib/xdp_dummy.bpf.o net/lib/xdp_helper net/lib/csum \
	      drivers/net/napi_id_helper; do
	[ -e "$selftests/$helper" ] && continue
	case $helper in
	*.bpf.o) clang -O2 -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
			-c "$selftests/${helper%.o}.c" -o "$selftests/$helper" ;;
	*) gcc -O2 -I"$selftests" -o "$selftests/$helper" "$selftests/$helper.c" ;;
	esac > "$build/selftest-helpers.log" 2>&1 || { helpers_ok=0; break; }
done
if [ "$helpers_ok" = 1 ]; then
	pass "debug: the kernel tree's selftest helpers (xdp_dummy.bpf.o, xdp_helper, csum, napi_id_helper)"
else
	fail "debug: the kernel tree's selftest helpers" "$helper: see $build/selftest-helpers.log"
fi

# A newer ethtool for the selftests that read its JSON output of -g, -x
# and -c (scripts/fetch-ethtool.sh: trixie's; setup fetched it). Without
# it those cases skip, as with bookworm's.
if RONIC_ETHTOOL_DIR=$("$top/scripts/fetch-ethtool.sh" 2> "$build/fetch-ethtool.log"); then
	export RONIC_ETHTOOL_DIR
else
	echo "# run-debug.sh: no newer ethtool for the selftests (see $build/fetch-ethtool.log)"
fi

# The XDP test programs, for the lifecycle table's rows.
if RONIC_XDP_OBJ=$("$top/tests/xdp/build.sh"); then
	export RONIC_XDP_OBJ
else
	fail "debug: XDP test programs build (tests/xdp/build.sh)"
fi

# ---------------------------------------------------------------- VM runs
# The time limit is a hang catcher: in a lane beside another VM the whole
# debug boot ran past 1800 s (at its last planted bug, 1734 s in).
# no5lvl: -cpu max offers LA57, and a KASAN kernel with 5-level paging
# reports a false wild-memory-access when an interrupt lands while
# identify_boot_cpu() has cleared boot_cpu_data's feature bits (interrupts
# are on by then, alternatives not yet patched, so KASAN's shadow bound
# reads LA57 as off and a valid 0xff11... address looks wild). Seen once
# in CI, at 1.5 s, in handle_edge_irq for the boot timer. 4-level paging
# has one layout whatever the bits say.
for run in "${runs[@]}"; do
	args=(--kernel "$RONIC_DEBUG_BZIMAGE" --kver "$RONIC_DEBUG_KVER"
	      --module "$build/ronic.ko" --module "$build/tests/kunit/ronic_kunit.ko"
	      --module "$build/tests/modules/ronic_sleep.ko"
	      --mem "${RONIC_DEBUG_MEM:-2048}"
	      --append no5lvl --injector
	      --timeout "${RONIC_DEBUG_TIMEOUT:-3600}")
	name=debug
	if [ "$run" = iommu ]; then
		args+=(--iommu)
		name=debug-iommu
	fi
	vmres=$results/vm${run#plain}
	[ "$run" = plain ] || vmres=$results/vm-$run
	t0=$(date +%s)
	# The run's name goes into each PASS/FAIL line of the guest script
	# (the two runs' names must differ); vm.sh's stdout (with the guest
	# script's output) is kept to count them.
	"$top/scripts/vm.sh" "${args[@]}" --name "$name" --results "$vmres" \
		-- "$top/tests/guest/debug.sh" |
		sed -u -E "s/^(PASS|FAIL): /\\1: [$run] /" | tee "$vmres.out"
	rc=${PIPESTATUS[0]}
	count < "$vmres.out" > /dev/null
	case "$rc" in
	0|1) pass "[$run] kernel log: no KASAN, UBSAN, lockdep, DMA-API, kmemleak, WARNING or BUG report (vm.sh)" ;;
	124|125) ;;	# vm.sh printed (and we counted) its FAIL: vm line
	*) fail "[$run] vm.sh" "exit status $rc" ;;
	esac
	echo "# [$run] $(($(date +%s) - t0)) s; results in $vmres" >&2
done

summary
