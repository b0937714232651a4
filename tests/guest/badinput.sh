#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the bad-input table (tests/bad-input.tsv, run from
# t-ethtool's boot): each row's command must fail (or pass) as the row
# says, with a message matching its regex in the command's output or in
# the kernel log lines it added; the row's after check must hold; and the
# port must still reach the peer. One PASS or FAIL line per row.
#
#   badinput.sh [TABLE]       RONIC_XDP_OBJ: the XDP test programs
#
# Module parameter rows run first, ronic unloaded before each; then
# ronic<->ronic is paired and the other rows run against port A.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015,SC2317
# (SC2317: the helpers are called from the table, through eval)
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

TABLE=${1:-$RONIC_TOP/tests/bad-input.tsv}
# A check per row of the table, and traffic before it.
plan $(($(grep -cvE '^(#|$)' "$TABLE") + 1))
BUDGET=${RONIC_BADINPUT_BUDGET:-150}	# seconds for the whole table
XDP_OBJ=${RONIC_XDP_OBJ:-}
DEV='' PEER='' MAC='' MAXQ='' RETA0=''

# ------------------------------------------------ helpers the table calls

ring_is() {
	local g
	g=$(ethtool -g "$DEV" | awk '/Current/ { c = 1 } c && /^RX:/ { r = $2 } c && /^TX:/ { t = $2 } END { print r "/" t }')
	[ "$g" = "$1/$2" ] || { echo "rings $g, not $1/$2"; return 1; }
}

chan_is() {
	local c
	c=$(ethtool -l "$DEV" | awk '/Current/ { c = 1 } c && /^Combined:/ { print $2 }')
	[ "$c" = "$1" ] || { echo "combined $c, not $1"; return 1; }
}

usecs_is() {
	local c
	c=$(ethtool -c "$DEV" | awk '/^rx-usecs:/ { print $2 }')
	[ "$c" = "$1" ] || { echo "rx-usecs $c, not $1"; return 1; }
}

priv_is() {
	ethtool --show-priv-flags "$DEV" | grep -q "^$1 *: $2"
}

copybreak_is() {
	ethtool --get-tunable "$DEV" tx-copybreak | grep -q " $1\$"
}

reta_default() {
	[ "$(ethtool -x "$DEV")" = "$RETA0" ] || { echo "indirection table or key changed"; return 1; }
}

hash_has() {
	ethtool -n "$DEV" rx-flow-hash "$1" | grep -q "$2"
}

mtu_is() {
	[ "$(cat "/sys/class/net/$DEV/mtu")" = "$1" ]
}

mac_is() {
	[ "$(cat "/sys/class/net/$DEV/address")" = "$1" ]
}

xdp_attached() {
	ip -d link show dev "$DEV" | grep -q "prog/xdp"
}

xdp_attach() {
	ip link set dev "$DEV" xdpdrv obj "$XDP_OBJ" program xdp_pass
}

xdp_while_down() {
	local rc=0
	ip link set dev "$DEV" down
	xdp_attach || rc=$?
	ip link set dev "$DEV" xdpdrv off 2>/dev/null
	ip link set dev "$DEV" up
	return "$rc"
}

xdp_with_mtu() {
	local rc=0
	ip link set dev "$DEV" mtu "$1" || { echo "setup: MTU $1 refused"; return 0; }
	xdp_attach || rc=$?
	ip link set dev "$DEV" xdpdrv off 2>/dev/null
	ip link set dev "$DEV" mtu 1500
	return "$rc"
}

mtu_with_xdp() {
	local rc=0
	xdp_attach || { echo "setup: XDP attach failed"; return 0; }
	ip link set dev "$DEV" mtu "$1" || rc=$?
	ip link set dev "$DEV" xdpdrv off
	ip link set dev "$DEV" mtu 1500
	return "$rc"
}

# tagged_rx_ok VID: 30 frames tagged VID from the peer reach the driver
# (port A's rx_packets), i.e. the VLAN filter lets VID through. An id
# port A has no VLAN device for (300) shows the filter is on.
tagged_rx_ok() {
	local before n
	in_ns "$PEER_NS" ip link add link "$PEER" name vtag type vlan id "$1" &&
		in_ns "$PEER_NS" ip addr add 192.168.77.2/24 dev vtag &&
		in_ns "$PEER_NS" ip link set vtag up &&
		in_ns "$PEER_NS" ip neigh replace 192.168.77.1 dev vtag lladdr "$MAC" ||
		return 2
	before=$(cat "/sys/class/net/$DEV/statistics/rx_packets")
	in_ns "$PEER_NS" ping -q -c 30 -i 0.02 -W 1 192.168.77.1 > /dev/null 2>&1
	sleep 1
	n=$(($(cat "/sys/class/net/$DEV/statistics/rx_packets") - before))
	in_ns "$PEER_NS" ip link del vtag
	echo "VLAN $1: $n of 30 tagged frames reached the driver"
	[ "$n" -ge 30 ]
}

# tagged_rx_dropped VID: the device drops frames tagged VID.
tagged_rx_dropped() {
	local out
	out=$(tagged_rx_ok "$1")
	[ $? = 1 ] || { echo "${out:-VLAN $1: set-up failed}"; return 1; }
	echo "$out" | awk '{ exit !($3 < 10) }' || { echo "$out"; return 1; }
}

# ------------------------------------------------------------ one row

# run_row GROUP NAME EXPECT REGEX COMMAND AFTER
run_row() {
	local group=$1 name=$2 expect=$3 re=$4 cmd=$5 after=$6
	local n0 out out2 log rc why="" hit="" what
	n0=$(dmesg | wc -l)
	out=$( (eval "$cmd") < /dev/null 2>&1)
	rc=$?
	log=$(dmesg | tail -n +$((n0 + 1)))
	case "$expect" in
	fail) [ "$rc" -ne 0 ] || why="accepted (exit 0)" ;;
	ok) [ "$rc" -eq 0 ] || why="refused (exit $rc)" ;;
	any) ;;
	*) why="bad expect '$expect' in the table" ;;
	esac
	if [ "$re" != - ]; then
		hit=$(printf '%s\n%s\n' "$out" "$log" | grep -Ei -m1 -- "$re" | sed 's/^\[[ 0-9.]*\] //' | cut -c1-110)
		[ -n "$hit" ] || why="${why:+$why; }no message matching /$re/"
	fi
	if [ "$after" != - ] && ! out2=$( (eval "$after") < /dev/null 2>&1); then
		why="${why:+$why; }after check '$after' failed${out2:+: $(echo "$out2" | tail -1)}"
	fi
	if [ "$group" != modparam ] && ! works; then
		why="${why:+$why; }no traffic to the peer afterwards"
	fi
	if [ "$rc" -eq 0 ]; then what=accepted; else what="refused (exit $rc)"; fi
	if [ -z "$why" ]; then
		pass "bad input [$group] $name: $what${hit:+: $hit}"
	else
		fail "bad input [$group] $name" "$why; output: $(echo "$out" | tail -1 | cut -c1-100)"
		[ -z "$out$log" ] || printf '%s\n%s\n' "$out" "$log" | sed 's/^/#   /' | tail -8 >&2
	fi
}

# run_group WANT_MODPARAM: the rows of group modparam (1) or the others (0).
run_group() {
	local want=$1 group name expect re cmd after
	while IFS=$'\t' read -r group name expect re cmd after; do
		case "$group" in "" | \#*) continue ;; esac
		if [ "$want" = 1 ] && [ "$group" != modparam ]; then continue; fi
		if [ "$want" = 0 ] && [ "$group" = modparam ]; then continue; fi
		if [ "$SECONDS" -gt "$BUDGET" ]; then
			fail "bad input [$group] $name" "not run: the table's ${BUDGET} s budget is spent"
			continue
		fi
		if [ "$group" = modparam ]; then
			pair_down
			unload_driver ronic || { fail "bad input [$group] $name" "rmmod ronic"; continue; }
		fi
		run_row "$group" "$name" "$expect" "$re" "$cmd" "$after"
	done < "$TABLE"
}

# ------------------------------------------------------------ main

SECONDS=0
[ -r "$TABLE" ] || { fail "bad input table" "cannot read $TABLE"; finish; }
[ -n "$XDP_OBJ" ] || log "RONIC_XDP_OBJ not set: the XDP rows will fail"

run_group 1
if ! pair_up ronic ronic; then
	fail "pair up ronic<->ronic after the module parameter rows"
	finish
fi
DEV=$NIC_A PEER=$NIC_B MAC=$(cat "/sys/class/net/$NIC_A/address")
MAXQ=$(ethtool -l "$DEV" | awk '/Pre-set/ { p = 1 } p && /^Combined:/ { print $2; exit }')
# The state the after checks compare with.
ethtool -G "$DEV" rx 256 tx 256
ethtool -L "$DEV" combined "$MAXQ"
ethtool -C "$DEV" adaptive-rx on adaptive-tx on rx-usecs 50
ethtool --set-tunable "$DEV" tx-copybreak 256
ethtool -X "$DEV" default
RETA0=$(ethtool -x "$DEV")
works && pass "bad input: ronic<->ronic carries traffic before the table" ||
	fail "bad input: traffic before the table"

run_group 0
log "bad-input table: $((RONIC_PASSED + RONIC_FAILED)) rows in $SECONDS s"
pair_down
finish
