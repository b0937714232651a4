#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the tests (make test): build ronic.ko for the guest kernel, then run
# tests/t-*.sh (most boot a VM through scripts/vm.sh), count their
# PASS:/FAIL:/SKIP: lines, and close with the line "N passed, N failed,
# N skipped" (a skip is never a pass). Exit status 1 if anything failed.
#
# Two lanes (RONIC_TEST_LANES, default 2; 1 runs one test at a time): a
# guest leaves the host's two cores idle much of its run (pings, waits for
# the link, its own timers), so two tests run at once, each VM in its own
# lane (RONIC_VM_LANE, see scripts/vm.sh's lock). A test with the line
# "# run.sh: alone" (time bounds, rates, 72 vCPUs, system-wide DKMS) runs
# with nothing beside it; those run first, while the debug kernel builds
# in the background. What needs the debug kernel ("# run.sh: needs the
# debug kernel") waits for that build: t-debug, the longest test, takes
# the next free lane once it is done, t-intree the one after, and t-dkms
# and t-hwselftests (alone) come last, or among the first when the debug
# kernel is cached. A lane's test prints its output when it ends.
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
given=()
if [ ${#names[@]} -eq 0 ]; then
	for t in "$top"/tests/t-*.sh; do
		[ -e "$t" ] && given+=("$t")
	done
else
	for n in "${names[@]}"; do
		n=$(basename "$n" .sh)
		n=${n#t-}
		if [ ! -x "$top/tests/t-$n.sh" ]; then
			echo "run.sh: no test tests/t-$n.sh" >&2
			exit 2
		fi
		given+=("$top/tests/t-$n.sh")
	done
fi

# alone TEST: the test runs with no other test beside it.
alone() {
	grep -q '^# run.sh: alone' "$1"
}

# needs_debug_kernel TEST: the test has the line "# run.sh: needs the
# debug kernel" (t-debug boots it, t-dkms and t-intree build for it; see
# the prebuild below).
needs_debug_kernel() {
	grep -q '^# run.sh: needs the debug kernel' "$1"
}

# The order: the tests that run alone, then the rest, then what needs the
# debug kernel.
tests=()
for t in "${given[@]}"; do
	alone "$t" && ! needs_debug_kernel "$t" && tests+=("$t")
done
for t in "${given[@]}"; do
	alone "$t" || needs_debug_kernel "$t" || tests+=("$t")
done
for t in "${given[@]}"; do
	needs_debug_kernel "$t" && tests+=("$t")
done

# The debug kernel (what needs_debug_kernel names) is built
# from source on a machine without the cache, about 7 minutes of both
# cores. A VM test leaves the cores idle much of the time (pings, waits
# for the link, the guest's own timers: 13% busy in t-xdp's ping cases),
# so the build starts now, at the lowest priority, while the tests before
# those two run; t-debug's own call waits for it (the build's lock) and
# finds it cached. RONIC_DEBUG_PREBUILD=0 builds it in t-debug instead.
# The build's exit status goes to debug-kernel.rc: the lanes start t-debug
# once it is there.
debug_rc=$run/debug-kernel.rc
rm -f "$debug_rc"
for t in "${tests[@]}"; do
	needs_debug_kernel "$t" || continue
	if [ "${RONIC_DEBUG_PREBUILD:-1}" = 1 ]; then
		echo "# run.sh: building the debug kernel in the background (log: $run/debug-kernel.log)"
		(nice -n 19 "$top/scripts/debug-kernel.sh" > "$run/debug-kernel.log" 2>&1
		 echo $? > "$debug_rc") &
	else
		echo none > "$debug_rc"
	fi
	break
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
# finish NAME STATUS T0: count an ended test's lines (one failure more for
# a non-zero exit with no FAIL: line of its own) and print its time.
finish() {
	local name=$1 rc=$2 t0=$3
	tally "$run/$name.out"
	if [ "$rc" -ne 0 ] && [ "$tallied" -eq 0 ]; then
		echo "FAIL: $name (exit status $rc)" | tee -a "$run/$name.out" > "$run/$name.extra"
		tally "$run/$name.extra"
	fi
	echo "# run.sh: $name: exit $rc, $(($(date +%s) - t0)) s"
}

# run_alone TEST: in the foreground, its output as it comes, no lane.
run_alone() {
	local name t0
	name=$(basename "$1" .sh)
	echo
	echo "# run.sh: $name (DUT $RONIC_DUT)"
	t0=$(date +%s)
	RONIC_RESULTS_DIR=$run/${name#t-} "$1" < /dev/null 2>&1 | tee "$run/$name.out"
	finish "$name" "${PIPESTATUS[0]}" "$t0"
}

lanes=${RONIC_TEST_LANES:-2}
declare -A lane_pid=() lane_name=() lane_t0=()

# start_in_lane TEST LANE: in the background, its output to its .out.
start_in_lane() {
	local name
	name=$(basename "$1" .sh)
	echo "# run.sh: $name started in lane $2 ($(($(date +%s) - t_start)) s into the run)"
	RONIC_VM_LANE=$2 RONIC_RESULTS_DIR=$run/${name#t-} "$1" < /dev/null > "$run/$name.out" 2>&1 &
	lane_pid[$2]=$!
	lane_name[$2]=${name}
	lane_t0[$2]=$(date +%s)
}

# reap_lane: wait for one lane's test to end, print its output, count it.
reap_lane() {
	local pid rc l
	wait -n -p pid "${lane_pid[@]}"
	rc=$?
	for l in "${!lane_pid[@]}"; do
		[ "${lane_pid[$l]}" = "$pid" ] && break
	done
	echo
	echo "# run.sh: ${lane_name[$l]} (DUT $RONIC_DUT, lane $l)"
	cat "$run/${lane_name[$l]}.out"
	finish "${lane_name[$l]}" "$rc" "${lane_t0[$l]}"
	unset "lane_pid[$l]"
}

# pick: the index in pending of the test to start next. The tests that run
# alone come first, while no lane is busy (were t-debug started first, as
# it can be when the debug kernel is cached, they would wait for it with
# the other lane idle), those that need the debug kernel among them if it
# is there already; then t-debug, the longest, as soon as the debug
# kernel is built; what needs the debug kernel not before that while
# other tests wait; else the first in order.
pick() {
	local i others=0
	for i in "${!pending[@]}"; do
		if alone "${pending[$i]}" &&
		   { ! needs_debug_kernel "${pending[$i]}" || [ -e "$debug_rc" ]; }; then
			echo "$i"
			return
		fi
	done
	for i in "${!pending[@]}"; do
		needs_debug_kernel "${pending[$i]}" || others=1
	done
	for i in "${!pending[@]}"; do
		if needs_debug_kernel "${pending[$i]}" && ! alone "${pending[$i]}" &&
		   [ -e "$debug_rc" ]; then
			echo "$i"
			return
		fi
	done
	for i in "${!pending[@]}"; do
		if needs_debug_kernel "${pending[$i]}" && [ ! -e "$debug_rc" ] &&
		   [ "$others" = 1 ]; then
			continue
		fi
		echo "$i"
		return
	done
}

pending=("${tests[@]}")
while [ ${#pending[@]} -gt 0 ]; do
	i=$(pick)
	t=${pending[$i]}
	if [ "$lanes" -le 1 ] || alone "$t"; then
		while [ ${#lane_pid[@]} -gt 0 ]; do
			reap_lane
		done
		run_alone "$t"
	else
		if [ ${#lane_pid[@]} -ge "$lanes" ]; then
			# Picked again when a lane frees: the debug kernel may be
			# built by then.
			reap_lane
			continue
		fi
		for ((l = 0; l < lanes; l++)); do
			[ -n "${lane_pid[$l]:-}" ] || break
		done
		start_in_lane "$t" "$l"
	fi
	unset "pending[$i]"
	pending=("${pending[@]}")
done
while [ ${#lane_pid[@]} -gt 0 ]; do
	reap_lane
done

summary
