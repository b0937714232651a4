#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection in the debug kernel (run by tests/guest/debug.sh, with
# the DUT paired up by pair_up): failslab and fail_page_alloc, limited to
# the task doing the operation (task-filter, /proc/self/make-it-fail) and
# to allocations with the DUT's code on the stack (require-start/-end over
# its text), fail one allocation at the Nth eligible call, N = 1..STEPS,
# of each of:
#   ip link set up          (rings, descriptor memory, page pools, IRQs)
#   ethtool -G              (a new ring set built beside the old one)
#   ethtool -L              (the same, with new queue counts)
#   bind (probe)            (netdev, vectors, register mapping)
# Each operation must then have succeeded, or failed with an error and left
# the port as it was (down after a failed up; the old ring size or channel
# count after a failed -G/-L; no netdev after a failed probe), and work
# when retried without faults. Whether anything leaked or was left mapped
# is checked by debug.sh afterwards (kmemleak, DMA-API debug), and the
# kernel log by scripts/vm.sh. Allocations made by XDP attach are the BPF
# core's, not the driver's (its rings exist while the port is up), so
# attach is not on the list.
#
# Prints PASS:/FAIL: lines and "faults: ..." figures: injections made per
# operation.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
# The step functions are called through run_op.
# shellcheck disable=SC2317
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 4

dut=$RONIC_DUT
steps=${RONIC_FAULT_STEPS:-8}
dbg=/sys/kernel/debug
attrs=(failslab fail_page_alloc)

# text_range: lowest and highest address of the DUT's symbols.
text_range() {
	awk -v m="[$dut]" '$NF == m && $2 ~ /^[tT]$/ { print $1 }' /proc/kallsyms |
		sort | sed -n '1p;$p' | tr '\n' ' '
}

# arm ATTR N: fail the Nth eligible allocation of a marked task, once.
arm() {
	local a=$dbg/$1
	echo "$2" > "$a/interval"
	echo 100 > "$a/probability"
	echo 1 > "$a/times"
}

disarm() {
	local f
	for f in "${attrs[@]}"; do
		echo 0 > "$dbg/$f/times"
	done
}

# injected ATTR: whether the armed failure was spent.
injected() {
	[ "$(cat "$dbg/$1/times")" = 0 ]
}

setup_attrs() {
	local f lo hi
	read -r lo hi <<< "$(text_range)"
	if [ -z "$lo" ] || [ -z "$hi" ]; then
		fail "faults: $dut's text in /proc/kallsyms" "not found"
		return 1
	fi
	for f in "${attrs[@]}"; do
		[ -d "$dbg/$f" ] || { fail "faults: $dbg/$f" "missing"; return 1; }
		echo Y > "$dbg/$f/task-filter"
		echo "0x$lo" > "$dbg/$f/require-start"
		printf '0x%x\n' $((0x$hi + 0x1000)) > "$dbg/$f/require-end"
		echo 32 > "$dbg/$f/stacktrace-depth"
		echo 1 > "$dbg/$f/verbose"
		echo 0 > "$dbg/$f/space"
		echo 0 > "$dbg/$f/times"
	done
	echo N > "$dbg/failslab/ignore-gfp-wait"
	echo N > "$dbg/fail_page_alloc/ignore-gfp-wait"
	echo N > "$dbg/fail_page_alloc/ignore-gfp-highmem"
	echo 0 > "$dbg/fail_page_alloc/min-order"
	log "faults: $dut text 0x$lo..0x$hi"
}

# faulty CMD...: run CMD as a task whose allocations may be failed.
faulty() {
	bash -c 'echo 1 > /proc/self/make-it-fail && exec "$@"' faulty "$@"
}

port_pings() {
	wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4" > /dev/null
}

combined() {
	ethtool -l "$NIC_A" | awk '/^Current/ { c = 1 } c && /^Combined:/ { print $2; exit }'
}

# step_up ATTR N: ip link set up under a fault.
step_up() {
	ip link set dev "$NIC_A" down
	arm "$1" "$2"
	if faulty ip link set dev "$NIC_A" up 2> /tmp/fault.err; then
		disarm
		port_pings || { echo "up succeeded but no ping"; return 1; }
	else
		disarm
		if ip -o link show dev "$NIC_A" | grep -q '[<,]UP[,>]'; then
			echo "failed up left the port UP: $(cat /tmp/fault.err)"
			return 1
		fi
		ip link set dev "$NIC_A" up || { echo "retry of up failed"; return 1; }
		wait_until 20 has_carrier "" "$NIC_A" && port_pings ||
			{ echo "no traffic after the retried up"; return 1; }
	fi
	injected "$1" && echo injected
	return 0
}

# step_resize ATTR N KIND: ethtool -G (KIND ring) or -L (KIND channels).
step_resize() {
	local attr=$1 n=$2 kind=$3 old new now want cmd
	if [ "$kind" = ring ]; then
		old=$(ring_size "$NIC_A" RX); new=$((old == 256 ? 512 : 256))
		cmd=(ethtool -G "$NIC_A" rx "$new" tx "$new")
	else
		old=$(combined); new=$((old == 2 ? 1 : 2))
		cmd=(ethtool -L "$NIC_A" combined "$new")
	fi
	arm "$attr" "$n"
	if faulty "${cmd[@]}" 2> /tmp/fault.err; then want=$new; else want=$old; fi
	disarm
	if [ "$kind" = ring ]; then now=$(ring_size "$NIC_A" RX); else now=$(combined); fi
	[ "$now" = "$want" ] ||
		{ echo "${cmd[*]}: now $now, want $want ($(cat /tmp/fault.err))"; return 1; }
	wait_until 20 has_carrier "" "$NIC_A" && port_pings ||
		{ echo "no traffic after ${cmd[*]}"; return 1; }
	injected "$attr" && echo injected
	return 0
}

# step_probe ATTR N: unbind NIC A, bind it under a fault.
step_probe() {
	local drv=/sys/bus/pci/drivers/$dut
	echo "$BDF_A" > "$drv/unbind"
	arm "$1" "$2"
	faulty sh -c "echo $BDF_A > $drv/bind" 2> /tmp/fault.err
	disarm
	if [ -z "$(nic_driver "$BDF_A")" ]; then
		[ -z "$(ls "/sys/bus/pci/devices/$BDF_A/net" 2>/dev/null)" ] ||
			{ echo "failed probe left a netdev"; return 1; }
		echo "$BDF_A" > "$drv/bind" 2>/dev/null
	fi
	[ "$(nic_driver "$BDF_A")" = "$dut" ] ||
		{ echo "no bind after the fault"; return 1; }
	wait_until 20 nic_netdev "$BDF_A" > /dev/null ||
		{ echo "no netdev after bind"; return 1; }
	injected "$1" && echo injected
	return 0
}

# run_op NAME FUNC [ARG]: STEPS steps, alternating the two fault kinds.
run_op() {
	local name=$1 fn=$2 arg=${3:-} n attr out rc=0 hits=0
	for ((n = 1; n <= steps; n++)); do
		attr=${attrs[$((n % 2))]}
		if ! out=$("$fn" "$attr" "$(((n + 1) / 2))" ${arg:+"$arg"} 2>&1); then
			rc=1
			log "faults: $name step $n ($attr): $out"
		fi
		case $out in *injected*) hits=$((hits + 1)) ;; esac
	done
	echo "faults: $name: $steps steps, $hits allocation failures injected"
	if [ "$rc" -eq 0 ] && [ "$hits" -gt 0 ]; then
		pass "faults: $name failed cleanly or succeeded at each of $steps steps ($hits injected)"
		held "fault injection: $hits allocation failures injected into $name, each handled"
	else
		fail "faults: $name under injected allocation failures" \
			"rc $rc, $hits of $steps steps injected (see log)"
	fi
}

if ! pair_up "$dut" "$dut"; then
	fail "faults: pair up" "pair_up failed"
	finish
fi
setup_attrs || finish
run_op "ip link set up" step_up
run_op "ethtool -G" step_resize ring
run_op "ethtool -L" step_resize channels
pair_down
run_op "probe" step_probe
disarm
finish
