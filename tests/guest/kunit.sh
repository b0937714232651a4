#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# KUnit in the debug kernel (run by tests/guest/debug.sh; the kernel has
# CONFIG_KUNIT=y and CONFIG_KUNIT_DEBUGFS=y): load ronic_kunit.ko
# (tests/kunit, installed by tests/run-debug.sh through vm.sh --module),
# whose suites run at load, then read each suite's KTAP results from
# /sys/kernel/debug/kunit/<suite>/results (the kernel log if that is
# missing) and print one PASS:/FAIL: line per test case and per suite.
# Fails when a suite is missing, has no cases, or a case is not "ok".
# RONIC_KUNIT_DEBUGFS replaces /sys/kernel/debug/kunit (to check this
# parser against saved KTAP files).
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 17

suites=(ronic_ro_policy ronic_xdp_select)
dbg=${RONIC_KUNIT_DEBUGFS:-/sys/kernel/debug/kunit}

if ! modprobe ronic_kunit; then
	fail "kunit: modprobe ronic_kunit" "$(dmesg --color=never | tail -3 | tr '\n' ' ')"
	finish
fi

# ktap SUITE: the suite's KTAP output.
ktap() {
	if [ -r "$dbg/$1/results" ]; then
		cat "$dbg/$1/results"
	else
		# The kernel log: from the suite's header to its own result line.
		dmesg --color=never | sed -E 's/^\[[^]]*\] //' |
			sed -n "/# Subtest: $1\$/,/^ *(not )?ok [0-9]+ $1\$/p"
	fi
}

for s in "${suites[@]}"; do
	out=$(ktap "$s")
	printf '%s\n' "$out" > "$RONIC_RESULTS/kunit-$s.ktap"
	cases=0
	# Test case lines are indented one level: "    ok 3 name" or
	# "    not ok 3 name # SKIP why"; the suite's own line is not indented.
	while read -r verdict name rest; do
		cases=$((cases + 1))
		if [ "$verdict" = ok ] && [[ "$rest" != *SKIP* ]]; then
			pass "kunit: $s.$name"
		else
			fail "kunit: $s.$name" "${verdict/_/ }${rest:+ $rest}; see kunit-$s.ktap"
			grep -E "^ +# $name: " <<< "$out" | head -10 | sed 's/^/#   /' >&2
		fi
	done < <(sed -nE 's/^ +(not ok|ok) [0-9]+ ([^ #]+) *(.*)$/\1 \2 \3/p' <<< "$out" |
		 sed 's/^not ok/not_ok/')
	if [ "$cases" -gt 0 ] && grep -qE "^ok [0-9]+ $s\$" <<< "$out"; then
		pass "kunit: suite $s ($cases cases)"
	else
		fail "kunit: suite $s" "$cases cases; suite line '$(grep -E "^(not )?ok [0-9]+ $s" <<< "$out")'"
	fi
done

rmmod ronic_kunit || fail "kunit: rmmod ronic_kunit" "refused"
finish
