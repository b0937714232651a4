# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The bed-hang rule (Documentation/ronic.rst, "Hangs of the bed"): under
# TCG, many vCPUs on two host cores now and then stall in generic kernel
# code (rcu_barrier under "ip link set netns", an RCU grace-period timer
# that never fires during boot), with or without the driver. A VM test
# whose guest hung may run once more only if the hang is outside the
# driver under test by this rule, tested on real logs by t-unit
# (tests/unit/hang/):
#   no stack the kernel printed in that boot has a frame of the driver
#   under test ("[ronic]", or "[igb]" when igb is the DUT).
# The first attempt then counts as a SKIP line, never a pass, and its
# output is kept, commented out; a second hang fails.

# ronic_hang_outside_dut CONSOLE DUT: the rule; status 0 when it holds.
ronic_hang_outside_dut() {
	[ -s "$1" ] || return 1
	! grep -aqF "[$2]" "$1"
}

# ronic_halted_vcpu CONSOLE: status 0 when the console shows the bed's
# halted vCPU: a vCPU in HLT whose timer never fires again, which the
# kernel reports as an RCU stall every minute or so, for ever. One report
# can be a starved vCPU that recovers; three in a boot are this hang
# (scripts/vm.sh stops the guest then, not at its time limit).
ronic_halted_vcpu() {
	[ "$(grep -Eac 'rcu: INFO: .*detected stall|self-detected stall' "$1" 2>/dev/null)" -ge 3 ]
}

# ronic_attempt_dir RESULTS_DIR ATTEMPT: make RESULTS_DIR/ATTEMPT, with
# what the test put in RESULTS_DIR for the guest (its test modules), as
# the guest looks for them in its own results folder.
ronic_attempt_dir() {
	mkdir -p "$1/$2"
	find "$1" -maxdepth 1 -name '*.ko' -exec cp {} "$1/$2/" \;
}

# ronic_vm_retry_bed_hang RESULTS_DIR VM_SH_ARGS...: scripts/vm.sh with
# --results RESULTS_DIR/attempt1 and the rest of the arguments; once more
# in RESULTS_DIR/attempt2 when the first hung (status 124) outside the
# DUT. Prints vm.sh's output; returns the status of the last attempt.
ronic_vm_retry_bed_hang() {
	local results=$1 first rc dut=${RONIC_DUT:-ronic}
	local vm
	vm=$(dirname "${BASH_SOURCE[0]}")/vm.sh
	shift
	first=$results/attempt1.log
	ronic_attempt_dir "$results" attempt1
	# Under set -e too (the tests through tests/lib.sh's run_guest): a
	# failed attempt's output must still be printed.
	rc=0
	"$vm" --results "$results/attempt1" "$@" > "$first" 2>&1 || rc=$?
	if [ "$rc" -ne 124 ] ||
	   ! ronic_hang_outside_dut "$results/attempt1/console.txt" "$dut"; then
		cat "$first"
		return "$rc"
	fi
	echo "SKIP: vm attempt 1 hung with no [$dut] frame in any kernel stack (the bed-hang rule); attempt 2 decides"
	sed -e 's/^/# attempt 1: /' "$first"
	ronic_attempt_dir "$results" attempt2
	"$vm" --results "$results/attempt2" "$@"
}
