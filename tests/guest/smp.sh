#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-smp (booted with many vCPUs, 72 by default: more CPUs
# than the 82576 has queues, 16, or MSI-X vectors, 10): all CPUs online;
# the DUT binds both NICs, reports sane channel counts, carries pings and
# iperf3 both ways, spreads 8 received streams over at least 4 rx queues
# (RSS), and unloads.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
# (and tests/guest/xdp.sh in its many-CPU mode, 20)
plan 10

dut=$RONIC_DUT
want=${RONIC_VM_SMP:-72}

if [ "$(nproc)" -eq "$want" ]; then
	pass "smp: $want CPUs online"
else
	fail "smp: $want CPUs online" "nproc $(nproc)"
fi

# rss_spread: 8 TCP streams from the peer land on at least 4 of port A's
# rx queues (8 with 8 or more CPUs). Ephemeral ports hash the streams, so 8
# of them fall on 3 queues or fewer about once in 50: a second set of
# streams (new ports) decides then.
rss_spread() {
	local try used nq
	nq=$(rx_queue_packets | wc -l)
	for try in 1 2; do
		used=$(rx_queues_used 50 iperf_tcp "$PEER_NS" root 5 -P 8)
		log "rss: try $try: 8 streams on ${used%% *} of $nq rx queues (${used#* })"
		used=${used%% *}
		[ "$used" -ge 4 ] && break
	done
	if [ "$used" -ge 4 ]; then
		pass "smp: RSS spreads 8 streams over $used of $nq rx queues (>= 4)"
	else
		fail "smp: RSS spreads 8 streams over >= 4 rx queues" "$used of $nq"
	fi
}

if pair_up "$dut" "$dut"; then
	pass "smp: $dut<->$dut link up and first ping"
	for side in A B; do
		if [ "$side" = A ]; then ns=root dev=$NIC_A; else ns=$PEER_NS dev=$NIC_B; fi
		ch=$(in_ns "$ns" ethtool -l "$dev" 2>&1)
		printf '%s\n' "$ch" | sed 's/^/#   /' >&2
		# Current settings: the second block of ethtool -l.
		cur=$(printf '%s\n' "$ch" | awk '/^Current/ { c = 1 }
			c && /^(RX|TX|Combined):/ { n += $2 } END { print n + 0 }')
		if [ "$cur" -ge 1 ] && [ "$cur" -le 32 ]; then
			pass "smp: $side ethtool -l: $cur channels in use (1..32)"
		else
			fail "smp: $side ethtool -l: channels in use (1..32)" "$cur"
		fi
	done
	vectors=$(grep -c "$NIC_A" /proc/interrupts)
	log "$NIC_A has $vectors interrupt lines in /proc/interrupts"
	ping_check "smp: IPv4 ping A->B 20/20" root "$ADDR_B4" 20
	ping_check "smp: IPv6 ping B->A 20/20" "$PEER_NS" "$ADDR_A6" 20 -6
	for dir in tx rx; do
		if [ "$dir" = tx ]; then from=root to=$PEER_NS; else from=$PEER_NS to=root; fi
		if m=$(iperf_tcp "$from" "$to" 5 -P 4); then
			pass "smp: iperf3 -P 4 $dir ($m Mbit/s)"
		else
			fail "smp: iperf3 -P 4 $dir" "${m:-0} Mbit/s"
		fi
	done
	rss_spread
else
	fail "smp: $dut<->$dut link up and first ping" "pair_up failed"
fi
pair_down

# XDP with more CPUs than XDP rings: each CPU on ring cpu % rings (the
# XDP script pairs the ports up again and prints its own PASS/FAIL lines).
if [ "$dut" = ronic ] && [ -n "${RONIC_XDP_OBJ:-}" ]; then
	RONIC_XDP_MANY_CPUS=1 nested "$RONIC_TOP/tests/guest/xdp.sh"
	pair_down
fi
if unload_driver "$dut" 120; then
	pass "smp: rmmod $dut"
else
	fail "smp: rmmod $dut" "failed or hung"
fi

finish
