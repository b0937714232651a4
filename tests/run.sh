#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the tests (make test): build ronic.ko for the guest kernel, then run
# tests/t-*.sh one after the other (each boots one VM through
# scripts/vm.sh; t-debug and t-dkms last, while the debug kernel builds
# in the background), count their PASS:/FAIL:/SKIP: lines, and close with the
# line "N passed, N failed, N skipped" (a skip is never a pass). Exit
# status 1 if anything failed.
#
#   tests/run.sh [TEST...]        e.g. tests/run.sh t-basic perf
#   TESTS="t-basic t-unload" tests/run.sh
#   RONIC_DUT=igb tests/run.sh    the same tests with the in-tree igb as
#                                 the driver under test (checks the tests)
#
# A test file that exits non-zero without a FAIL: line of its own (a VM
# that did not boot, say) counts as one failure. vm.sh prints a
# "FAIL: vm ..." line for a guest that did not finish or whose kernel log
# has a report (WARNING, BUG, KASAN, lockdep, ...). Each test's output and
# VM results go to results/run-<timestamp>/ (or $RONIC_RUN_DIR).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"

export RONIC_DUT=${RONIC_DUT:-ronic}
kver=$(ronic_guest_kver)
run=${RONIC_RUN_DIR:-$top/results/run-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$run"
run=$(realpath "$run")

# ---------------------------------------------------------------- which
names=("$@")
if [ ${#names[@]} -eq 0 ] && [ -n "${TESTS:-}" ]; then
	read -ra names <<< "$TESTS"
fi
tests=()
if [ ${#names[@]} -eq 0 ]; then
	# What needs the debug kernel last (see the prebuild below).
	late=()
	for t in "$top"/tests/t-*.sh; do
		[ -e "$t" ] || continue
		case $(basename "$t") in
		t-debug.sh|t-dkms.sh) late+=("$t") ;;
		*) tests+=("$t") ;;
		esac
	done
	tests+=("${late[@]}")
else
	for n in "${names[@]}"; do
		n=$(basename "$n" .sh)
		n=${n#t-}
		if [ ! -x "$top/tests/t-$n.sh" ]; then
			echo "run.sh: no test tests/t-$n.sh" >&2
			exit 2
		fi
		tests+=("$top/tests/t-$n.sh")
	done
fi

# The debug kernel (t-debug boots it, t-dkms builds for it) is built
# from source on a machine without the cache, about 7 minutes of both
# cores. A VM test leaves the cores idle much of the time (pings, waits
# for the link, the guest's own timers: 13% busy in t-xdp's ping cases),
# so the build starts now, at the lowest priority, while the tests before
# those two run; t-debug's own call waits for it (the build's lock) and
# finds it cached. RONIC_DEBUG_PREBUILD=0 builds it in t-debug instead.
for t in "${tests[@]}"; do
	case $(basename "$t") in
	t-debug.sh|t-dkms.sh)
		if [ "${RONIC_DEBUG_PREBUILD:-1}" = 1 ]; then
			echo "# run.sh: building the debug kernel in the background (log: $run/debug-kernel.log)"
			nice -n 19 "$top/scripts/debug-kernel.sh" > "$run/debug-kernel.log" 2>&1 &
		fi
		break
		;;
	esac
done

passed=0
failed=0
skipped=0
failures=()
t_start=$(date +%s)

# tally FILE: count its PASS:/FAIL: lines (this file's FAILs: $tallied).
tallied=0
tally() {
	local p k
	p=$(grep -c '^PASS: ' "$1")
	k=$(grep -c '^SKIP: ' "$1")
	tallied=$(grep -c '^FAIL: ' "$1")
	passed=$((passed + p))
	skipped=$((skipped + k))
	failed=$((failed + tallied))
	mapfile -t -O "${#failures[@]}" failures < <(grep '^FAIL: ' "$1")
}

summary() {
	local t=$(($(date +%s) - t_start)) boots reports
	# What the run held up to, one line each (HELD: lines of the tests),
	# and the kernel reports over every boot.
	echo
	echo "# run.sh: what this run held:"
	cat "$run"/*.out 2>/dev/null | sed -n 's/^HELD: /#   /p'
	boots=$(cat "$run"/*.out 2>/dev/null | grep -c '^vm.sh: .*: guest rc')
	reports=$(cat "$run"/*.out 2>/dev/null | grep -c '^FAIL: vm .*(kernel log:')
	echo "#   kernel log reports (WARN, BUG, KASAN, lockdep, DMA-API, ...): $reports in $boots boots"
	echo
	echo "# run.sh: DUT $RONIC_DUT, guest kernel $kver, $((t / 60))m$((t % 60))s, results in $run"
	for f in "${failures[@]}"; do
		echo "#   $f"
	done
	cat "$run"/*.out 2>/dev/null | grep '^SKIP: ' | sed 's/^/#   /'
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

# ---------------------------------------------------------------- build
echo "# run.sh: building ronic.ko for $kver"
kdir=/usr/src/linux-headers-$kver
if [ -z "$kver" ] || [ ! -d "$kdir" ]; then
	echo "FAIL: build: guest kernel headers (none for '${kver}': run scripts/setup.sh)" |
		tee "$run/build.out"
	tally "$run/build.out"
	summary
fi
t0=$(date +%s)
if make -C "$top" KDIR="$kdir" modules > "$run/build.log" 2>&1 &&
   [ "$(modinfo -F vermagic "$top/ronic.ko" 2>/dev/null | cut -d' ' -f1)" = "$kver" ]; then
	echo "PASS: build: ronic.ko for $kver ($(($(date +%s) - t0)) s)" | tee "$run/build.out"
elif [ "$RONIC_DUT" = ronic ]; then
	tail -30 "$run/build.log"
	echo "FAIL: build: ronic.ko for $kver (see $run/build.log)" | tee "$run/build.out"
	tally "$run/build.out"
	summary
else
	# The tests do not need ronic.ko when igb is the DUT.
	tail -10 "$run/build.log"
	echo "# run.sh: ronic.ko did not build; not counted with RONIC_DUT=$RONIC_DUT" |
		tee "$run/build.out"
fi
tally "$run/build.out"

# ---------------------------------------------------------------- run
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	echo
	echo "# run.sh: $name (DUT $RONIC_DUT)"
	t0=$(date +%s)
	RONIC_RESULTS_DIR=$run/${name#t-} "$t" < /dev/null 2>&1 | tee "$run/$name.out"
	rc=${PIPESTATUS[0]}
	tally "$run/$name.out"
	if [ "$rc" -ne 0 ] && [ "$tallied" -eq 0 ]; then
		echo "FAIL: $name (exit status $rc)" | tee -a "$run/$name.out" > "$run/$name.extra"
		tally "$run/$name.extra"
	fi
	echo "# run.sh: $name: exit $rc, $(($(date +%s) - t0)) s"
done

summary
