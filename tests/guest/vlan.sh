#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-vlan: a VLAN subinterface on ronic (port A) against an
# in-tree igb peer carries ping and TCP with the VLAN offloads on and off;
# rx strip and tx insert follow one switch (CTRL.VME), in ethtool -k and
# in the register.
# Then the VLAN filter (RCTL.VFE, VFTA): an id not added is dropped by
# the device, and the table survives a down/up.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 22

VID=100
VA4=192.168.100.1
VB4=192.168.100.2

vlan_tcp() {
	local spid rc=0
	in_ns "$PEER_NS" iperf3 -s -1 -B "$VB4" -p "$IPERF_PORT" > /tmp/vlan-srv.log 2>&1 &
	spid=$!
	wait_until 10 iperf_listening "$PEER_NS" || rc=1
	timeout 30 iperf3 -c "$VB4" -p "$IPERF_PORT" -t 3 --connect-timeout 5000 \
		> /tmp/vlan-cli.log 2>&1 || rc=$?
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	return "$rc"
}

if ! pair_up ronic igb; then
	fail "pair up ronic<->igb"
	finish
fi

ip link add link "$NIC_A" name "$NIC_A.$VID" type vlan id "$VID" &&
	ip addr add "$VA4/24" dev "$NIC_A.$VID" && ip link set "$NIC_A.$VID" up
in_ns "$PEER_NS" ip link add link "$NIC_B" name "$NIC_B.$VID" type vlan id "$VID" &&
	in_ns "$PEER_NS" ip addr add "$VB4/24" dev "$NIC_B.$VID" &&
	in_ns "$PEER_NS" ip link set "$NIC_B.$VID" up

# CTRL.VME (bit 30 of CTRL, word 0 of the register dump) as 1 or 0.
ctrl_vme() {
	local ctrl
	ctrl=$(ethtool -d "$NIC_A" raw on | od -An -tx4 -v -N4 | tr -d ' ')
	echo $(( (0x$ctrl >> 30) & 1 ))
}

# feature_is NAME on|off: what ethtool -k says (fixed or not).
feature_is() {
	ethtool -k "$NIC_A" | grep -q "^$1: $2"
}

# One bit (CTRL.VME) strips on rx and inserts on tx: the two offloads go
# together and follow rxvlan, in the features and in the register.
for rx in on off; do
	tag="rxvlan $rx"
	ethtool -K "$NIC_A" rxvlan "$rx" > /dev/null 2>&1
	want=$([ "$rx" = on ] && echo 1 || echo 0)
	feature_is rx-vlan-offload "$rx" && feature_is tx-vlan-offload "$rx" &&
		pass "$tag: -k shows rx- and tx-vlan-offload $rx" ||
		fail "$tag: -k shows rx- and tx-vlan-offload $rx" \
			"$(ethtool -k "$NIC_A" | grep -E '^(rx|tx)-vlan-offload' | tr '\n' ' ')"
	[ "$(ctrl_vme)" = "$want" ] && pass "$tag: CTRL.VME is $want" ||
		fail "$tag: CTRL.VME is $want" "$(ctrl_vme)"
	other=$([ "$rx" = on ] && echo off || echo on)
	ethtool -K "$NIC_A" txvlan "$other" > /dev/null 2>&1
	feature_is tx-vlan-offload "$rx" && [ "$(ctrl_vme)" = "$want" ] &&
		pass "$tag: txvlan $other alone does not apply" ||
		fail "$tag: txvlan $other alone does not apply" \
			"$(ethtool -k "$NIC_A" | grep '^tx-vlan-offload'), VME $(ctrl_vme)"
	wait_until 20 ping -q -c 1 -W 1 "$VB4" > /dev/null
	ping_check "$tag: ping over VLAN $VID" root "$VB4" 20
	ping_check "$tag: ping back over VLAN $VID" "$PEER_NS" "$VA4" 20
	vlan_tcp && pass "$tag: iperf3 over VLAN $VID" ||
		fail "$tag: iperf3 over VLAN $VID" "$(tail -2 /tmp/vlan-cli.log | tr '\n' ' ')"
done
ethtool -K "$NIC_A" rxvlan on
ping_check "untagged ping still works" root "$ADDR_B4" 10

# The filter: the peer sends 30 unicast frames on VLAN 200, which A never
# added. With rx-vlan-filter on the device drops them: none reaches A's
# stack. Off, all 30 do. Counted at A's ingress by a tc flower filter on
# VLAN 200 (it sees the tag stripped or not), which drops them itself.
in_ns "$PEER_NS" ip link add link "$NIC_B" name "$NIC_B.200" type vlan id 200 &&
	in_ns "$PEER_NS" ip addr add 192.168.200.2/24 dev "$NIC_B.200" &&
	in_ns "$PEER_NS" ip link set "$NIC_B.200" up &&
	in_ns "$PEER_NS" ip neigh replace 192.168.200.1 dev "$NIC_B.200" \
		lladdr "$(cat /sys/class/net/"$NIC_A"/address)"
vid200_seen() {
	tc -s -j filter show dev "$NIC_A" ingress 2>/dev/null |
		jq '[.[] | .options.actions[0].stats.packets // empty] | add // 0'
}
# shellcheck disable=SC2317 # called by check
vid200_filter() {
	tc qdisc replace dev "$NIC_A" clsact &&
		tc filter add dev "$NIC_A" ingress protocol 802.1Q pref 1 \
			flower vlan_id 200 action drop
}
# rx_after_vid200: how many of 30 VLAN 200 frames reached A's stack.
rx_after_vid200() {
	local before
	before=$(vid200_seen)
	in_ns "$PEER_NS" ping -q -c 30 -i 0.02 -W 1 192.168.200.1 > /dev/null 2>&1
	sleep 1
	echo $(($(vid200_seen) - before))
}
check "tc flower counter on VLAN 200 at A's ingress" vid200_filter
check "ethtool -K rx-vlan-filter on" ethtool -K "$NIC_A" rx-vlan-filter on
n=$(rx_after_vid200)
[ "$n" -eq 0 ] && pass "filter on: VLAN 200 frames dropped by the device (0 of 30 reached the stack)" ||
	fail "filter on: VLAN 200 frames dropped by the device" "$n of 30 reached the stack"
ping_check "filter on: VLAN $VID (added) still passes" root "$VB4" 10
check "ethtool -K rx-vlan-filter off" ethtool -K "$NIC_A" rx-vlan-filter off
n=$(rx_after_vid200)
[ "$n" -eq 30 ] && pass "filter off: VLAN 200 frames reach the stack (30 of 30)" ||
	fail "filter off: VLAN 200 frames reach the stack" "$n of 30"
ethtool -K "$NIC_A" rx-vlan-filter on
ip link set "$NIC_A" down
ip link set "$NIC_A" up
wait_until 20 has_carrier "" "$NIC_A"
wait_until 20 ping -q -c 1 -W 1 "$VB4" > /dev/null
ping_check "filter on after down/up: VLAN $VID restored in the VFTA" root "$VB4" 10
n=$(rx_after_vid200)
[ "$n" -eq 0 ] && pass "filter on after down/up: VLAN 200 still dropped (0 of 30)" ||
	fail "filter on after down/up: VLAN 200 still dropped" "$n of 30 reached the stack"
tc qdisc del dev "$NIC_A" clsact

ip link del "$NIC_A.$VID"
pair_down
check "rmmod ronic" rmmod ronic
finish
