#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A seeded control-plane fuzzer: RONIC_FUZZ_OPS (120) operations a user or
# a management daemon performs on port A (ronic; the peer igb), drawn from
# bash's RANDOM seeded with RONIC_FUZZ_SEED (1), under a ping flood from
# the peer and a TCP stream from A: -G, -L, -C, -K, -X, the private flags,
# MTU, down/up, XDP attach/replace/detach (with and without fragments),
# VLAN add/del, rmmod/modprobe. An operation may be refused (a value out
# of range, XDP above its MTU): that is the driver's right. What fails:
# a kernel report (here, and vm.sh over the whole boot), or a port that
# does not carry pings once brought back up, checked every 20 operations
# and at the end. A failure prints the seed and the operations so far;
# the same seed replays the same operations (each draws only from RANDOM,
# never from what an earlier one did). Every operation and whether it was
# refused go to $RONIC_RESULTS/fuzz-ops.txt.
#   RONIC_FUZZ_SEED=7 RONIC_FUZZ_OPS=1000 (make fuzz SEED=7 OPS=1000)
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

SEED=${RONIC_FUZZ_SEED:-1}
OPS=${RONIC_FUZZ_OPS:-120}
EVERY=20
OBJ=${RONIC_XDP_OBJ:?compiled test programs}
plan $(( (OPS + EVERY - 1) / EVERY + 1 ))

dev_a() {
	nic_netdev "$BDF_A" 2>/dev/null
}

# choose WORD...: one of the words, by RANDOM, in REPLY. No command
# substitution here or in next_op: a subshell's draws would not advance
# this shell's RANDOM, and every operation would be the same.
choose() {
	local a=("$@")
	REPLY=${a[RANDOM % ${#a[@]}]}
}

RINGS=(64 128 256 512 1024 4096)

# next_op: the next operation, in OP, as a command line on port @A (the
# netdev's name is put in when it runs: a reload may rename it).
next_op() {
	local x y
	case $((RANDOM % 13)) in
	0) choose "${RINGS[@]}"; x=$REPLY; choose "${RINGS[@]}"; y=$REPLY
	   OP="ethtool -G @A rx $x tx $y" ;;
	1) OP="ethtool -L @A combined $((RANDOM % MAXQ + 1))" ;;
	2) x=$((RANDOM % 400))
	   choose "adaptive-rx on adaptive-tx on" "adaptive-rx off adaptive-tx off rx-usecs $x"
	   OP="ethtool -C @A $REPLY" ;;
	3) choose rx tx sg tso rxhash rxvlan txvlan rx-vlan-filter gro; x=$REPLY
	   choose on off; OP="ethtool -K @A $x $REPLY" ;;
	4) x=$((RANDOM % MAXQ + 1)); choose "equal $x" default
	   OP="ethtool -X @A $REPLY" ;;
	5) choose on off; x=$REPLY; choose on off
	   OP="ethtool --set-priv-flags @A pci_ro_read $x pci_ro_write $REPLY" ;;
	6) choose 1280 1500 1500 3000 9000; OP="ip link set dev @A mtu $REPLY" ;;
	7) choose down up up; OP="ip link set dev @A $REPLY" ;;
	8) choose xdp_pass xdp_pass_frags xdp_drop_frags
	   OP="ip -force link set dev @A xdpdrv obj $OBJ program $REPLY" ;;
	9) OP="ip link set dev @A xdpdrv off" ;;
	10) x=$((RANDOM % 4)); y=$((RANDOM % 4094 + 1))
	    OP="ip link add link @A name fz$x type vlan id $y" ;;
	11) OP="ip link del fz$((RANDOM % 4))" ;;
	12) OP=reload ;;
	esac
}

# run_op LINE: run it; its own failure does not matter.
run_op() {
	local dev
	dev=$(dev_a)
	if [ "$1" = reload ]; then
		unload_driver ronic && load_driver ronic && wait_until 20 dev_a > /dev/null
		return
	fi
	# shellcheck disable=SC2086 # the line is a word list
	${1//@A/$dev} > /dev/null 2>&1
}

traffic_start() {
	ip netns exec "$PEER_NS" ping -q -i 0.01 -W 1 "$ADDR_A4" > /dev/null 2>&1 &
	TRAFFIC=($!)
	iperf3 -c "$ADDR_B4" -t 600 > /dev/null 2>&1 &
	TRAFFIC+=($!)
}

traffic_stop() {
	kill "${TRAFFIC[@]}" 2>/dev/null
	wait "${TRAFFIC[@]}" 2>/dev/null
}

# bring_up: A bound, addressed and up; pings through it.
bring_up() {
	local dev
	load_driver ronic || return 1
	wait_until 20 dev_a > /dev/null || return 1
	dev=$(dev_a)
	# A program that drops everything is not a broken port.
	ip link set dev "$dev" xdpdrv off
	ip addr replace "$ADDR_A4/$PREFIX4" dev "$dev"
	ip link set dev "$dev" up
	wait_until 20 has_carrier "" "$dev" &&
		wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4" > /dev/null
}

if ! pair_up ronic igb; then
	fail "fuzz: pair up ronic<->igb" "pair_up failed"
	finish
fi
MAXQ=$(ethtool -l "$NIC_A" | awk '/^Combined:/ { print $2; exit }')
ip netns exec "$PEER_NS" iperf3 -s -D -B "$ADDR_B4" > /dev/null 2>&1
RANDOM=$SEED
n0=$(dmesg_lines)
done_ops=()
refused=0
t0=$SECONDS
traffic_start
for ((i = 1; i <= OPS; i++)); do
	next_op
	done_ops+=("$OP")
	if run_op "$OP"; then
		echo "$i ok $OP" >> "$RONIC_RESULTS/fuzz-ops.txt"
	else
		refused=$((refused + 1))
		echo "$i refused $OP" >> "$RONIC_RESULTS/fuzz-ops.txt"
	fi
	if [ $((i % EVERY)) -eq 0 ] || [ "$i" -eq "$OPS" ]; then
		traffic_stop
		if bring_up; then
			pass "fuzz (seed $SEED): port carries pings after operations $(( (i - 1) / EVERY * EVERY + 1 ))-$i"
		else
			fail "fuzz (seed $SEED): port carries pings after operations $(( (i - 1) / EVERY * EVERY + 1 ))-$i" \
				"replay: RONIC_FUZZ_SEED=$SEED RONIC_FUZZ_OPS=$i"
			printf '#   op %s\n' "${done_ops[@]}" >&2
		fi
		traffic_start
	fi
done
traffic_stop
if reports=$(kernel_reports "$n0"); then
	fail "fuzz (seed $SEED): no kernel report in $OPS operations" \
		"$(echo "$reports" | head -1 | cut -c1-120); replay: RONIC_FUZZ_SEED=$SEED RONIC_FUZZ_OPS=$OPS"
	printf '#   op %s\n' "${done_ops[@]}" >&2
else
	pass "fuzz (seed $SEED): no kernel report in $OPS operations, $refused of them refused ($((SECONDS - t0)) s)"
fi
held "fuzz: $OPS control-plane operations (seed $SEED) under traffic"
for dev in fz0 fz1 fz2 fz3; do
	ip link del "$dev" 2> /dev/null
done
pair_down
finish
