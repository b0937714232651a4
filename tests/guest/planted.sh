#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The planted bugs, in the debug kernel (run by tests/guest/debug.sh as
# its last phase, or alone by make planted-bugs): $RONIC_PLANTED_KO is
# ronic.ko built by tests/run-debug.sh with every patch of tests/planted/
# applied. Each patch adds one bug behind its own module parameter (its
# "Switch:" line), which fires once, on the first frame it can. For each
# patch in order: load that build with the switch on, carry TCP traffic
# both ways, unload. The kernel log must then have gained a report line
# matching the patch's "Expect:" line (its detector's own words), and
# every report line it gained must belong to that detector ("Family:"):
# a bug caught by some other report, or by a failed check, is not caught
# by the tool that is there for it.
#
# The reports are provoked on purpose: their counts go to
# /results/expected-reports (expect_reports), so scripts/vm.sh excuses
# exactly those and still fails the boot on any other report.
#
# Last in the boot: KASAN's report turns lockdep off, and a double free
# may leave the heap unfit for more tests. The series' order matters too:
# the missing unmap's leaked mapping stays in DMA-API debug's table and is
# reported again at each later unbind of that NIC, so that bug comes last.
# (KASAN keeps a freed object in quarantine, so the double free before it
# corrupts nothing: the heap is checked by the runs after it.)
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

patches=("$RONIC_TOP"/tests/planted/*.patch)
plan "${#patches[@]}"
dbg=/sys/kernel/debug
declare -A expected

# header PATCH FIELD: the value of the patch's "FIELD: " line.
header() {
	sed -n "/^\$/q; s/^$2: //p" "$1"
}

# plant PATCH: one bug, as said above.
plant() {
	local patch=$1 name switch detector expect family mark reports stray n lines
	name=$(basename "$patch" .patch)
	name=${name#*-}
	switch=$(header "$patch" Switch)
	detector=$(header "$patch" Detector)
	expect=$(header "$patch" Expect)
	family=$(header "$patch" Family)
	if [ -z "$switch" ] || [ -z "$expect" ] || [ -z "$family" ]; then
		fail "planted: $name" "$patch lacks a Switch, Expect or Family line"
		return
	fi
	unload_driver ronic 90
	mark=$(dmesg_lines)
	# DMA-API debug prints one error (num_errors 1) and only counts the
	# rest: each bug gets its own printed error.
	echo 1 > "$dbg/dma-api/num_errors"
	if ! insmod "$RONIC_PLANTED_KO" "$switch=1"; then
		fail "planted: $name" "insmod $RONIC_PLANTED_KO $switch=1 failed"
		return
	fi
	if pair_up ronic ronic; then
		iperf_tcp root "$PEER_NS" 2 > /dev/null
		iperf_tcp "$PEER_NS" root 2 > /dev/null
	else
		log "planted: $name: pair_up failed"
	fi
	pair_down
	unload_driver ronic 90
	reports=$(kernel_reports "$mark")
	log "planted: $name: $(grep -c . <<< "$reports") report lines"
	stray=$(grep -avE "$family" <<< "$reports")
	if ! grep -qaE "$expect" <<< "$reports"; then
		fail "planted: $name caught by $detector" "no line matches '$expect'"
		mapfile -t lines <<< "${reports:-no report}"
		printf '#   %s\n' "${lines[@]}" >&2
	elif [ -n "$stray" ]; then
		fail "planted: $name caught by $detector alone" \
			"other reports: $(head -1 <<< "$stray" | cut -c1-120)"
	else
		pass "planted: $name caught by $detector ($(grep -aE "$expect" <<< "$reports" |
			head -1 | sed 's/^\[[ 0-9.]*\] //' | cut -c1-100))"
	fi
	n=$(grep -acE "$family" <<< "$reports")
	expected[$family]=$((${expected[$family]:-0} + n))
}

if [ ! -f "${RONIC_PLANTED_KO:-}" ]; then
	for patch in "${patches[@]}"; do
		fail "planted: $(basename "$patch" .patch)" "no RONIC_PLANTED_KO (tests/run-debug.sh builds it)"
	done
	finish
fi
for b in $(nic_bdfs); do set_override "$b" ""; done
for patch in "${patches[@]}"; do
	plant "$patch"
done
for family in "${!expected[@]}"; do
	expect_reports "${expected[$family]}" "$family"
done
finish
