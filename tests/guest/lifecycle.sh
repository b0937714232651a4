#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the lifecycle table (tests/lifecycle.tsv): port A on
# ronic, the peer on igb; each row's steps, then its expected state, then
# port A back up and carrying pings (through the program, if one stays),
# with no kernel report among the log lines the row added. Every row runs
# quiet and under traffic. One PASS or FAIL line per row and variant.
#
#   lifecycle.sh [TABLE]    RONIC_XDP_OBJ: the XDP test programs
#                           RONIC_LIFECYCLE_VARIANTS: "quiet traffic"
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

TABLE=${1:-$RONIC_TOP/tests/lifecycle.tsv}
OBJ=${RONIC_XDP_OBJ:?compiled test programs}
read -ra VARIANTS <<< "${RONIC_LIFECYCLE_VARIANTS:-quiet traffic}"
# A check per row and variant, and the count check.
plan $(($(grep -cvE '^(#|$)' "$TABLE") * ${#VARIANTS[@]} + 1))
MAXQ=''
TRAFFIC_PIDS=()
DEV=''		# port A's netdev, by find_dev_a
WHY=''		# why expect_one's check failed
OUT=/tmp/lifecycle.out

# find_dev_a: port A's netdev now (a reload or a rescan may rename it)
# into DEV, empty if none; found without a subshell: each fork costs about
# 0.3 s in the debug kernel under TCG, and a row forked about forty times.
# shellcheck disable=SC2317 # also called through wait_until
find_dev_a() {
	local n
	DEV=''
	for n in "/sys/bus/pci/devices/$BDF_A"/net/*; do
		[ -e "$n" ] && DEV=${n##*/}
	done
	[ -n "$DEV" ]
}

# ------------------------------------------------------------ steps

# aer_recovery: a non-fatal PCIe error injected at A's root port (rp0),
# then the AER core's recovery of it done.
aer_recovery() {
	local n
	n=$(dmesg | grep -c 'AER: device recovery successful')
	vm_hmp pcie_aer_inject_error rp0 UNSUP > /dev/null &&
		wait_until 30 test "$(dmesg | grep -c 'AER: device recovery successful')" -gt "$n"
}

step() {
	local dev
	find_dev_a
	dev=$DEV
	case $1 in
	up|down) ip link set dev "$dev" "$1" ;;
	attach) ip link set dev "$dev" xdpdrv obj "$OBJ" program xdp_pass ;;
	# -force: replace the attached program instead of refusing.
	replace) ip -force link set dev "$dev" xdpdrv obj "$OBJ" program xdp_pass ;;
	detach) ip link set dev "$dev" xdpdrv off ;;
	ring64) ethtool -G "$dev" rx 64 tx 64 ;;
	ring256) ethtool -G "$dev" rx 256 tx 256 ;;
	chan1) ethtool -L "$dev" combined 1 ;;
	chanmax) ethtool -L "$dev" combined "$MAXQ" ;;
	mtu1400) ip link set dev "$dev" mtu 1400 ;;
	mtu1500) ip link set dev "$dev" mtu 1500 ;;
	ro_on) ethtool --set-priv-flags "$dev" pci_ro_read on pci_ro_write on ;;
	ro_off) ethtool --set-priv-flags "$dev" pci_ro_read off pci_ro_write off ;;
	rmmod) unload_driver ronic ;;
	modprobe) load_driver ronic && wait_until 20 find_dev_a ;;
	unbind) unbind_nic "$BDF_A" ;;
	bind) bind_nic "$BDF_A" ronic > /dev/null ;;
	remove) echo 1 > "/sys/bus/pci/devices/$BDF_A/remove" ;;
	# A new function: no driver_override, so igb may take it first.
	rescan) echo 1 > /sys/bus/pci/rescan && bind_nic "$BDF_A" ronic > /dev/null ;;
	reset) echo 1 > "/sys/bus/pci/devices/$BDF_A/reset" ;;
	sleep) device_sleep "$BDF_A" ;;
	aer) aer_recovery ;;
	*) echo "unknown step $1"; return 2 ;;
	esac
}

# ------------------------------------------------------------ checks

# shellcheck disable=SC2317 # called through wait_until
progs_are() {
	[ "$(xdp_progs)" = "$1" ]
}

ring_now() {
	ethtool -g "$1" | awk '/^Current/ { c = 1 } c && /^RX:/ { r = $2 } c && /^TX:/ { t = $2 } END { print r "/" t }'
}

chan_now() {
	ethtool -l "$1" | awk '/^Current/ { c = 1 } c && /^Combined:/ { print $2 }'
}

ro_now() {
	ethtool --show-priv-flags "$1" | awk -F: '{ gsub(/ /, "") }
		$1 == "pci_ro_read" { r = $2 } $1 == "pci_ro_write" { w = $2 } END { print r "/" w }'
}

has_xdp() {
	ip -d link show dev "$1" | grep -q 'prog/xdp'
}

# is_up DEV: administratively up (IFF_UP in sysfs's flags).
is_up() {
	local flags
	read -r flags < "/sys/class/net/$1/flags" && (( flags & 1 ))
}

# expect_one CHECK: status 1 and WHY set if it does not hold.
expect_one() {
	local key=${1%%=*} want=${1#*=} dev got
	find_dev_a
	dev=$DEV
	if [ -z "$dev" ] && [ "$key" != progs ]; then
		WHY="no netdev for $BDF_A"
		return 1
	fi
	case $key in
	xdp) if has_xdp "$dev"; then got=on; else got=off; fi ;;
	progs) wait_until 5 progs_are "$want" && got=$want || got=$(xdp_progs) ;;
	ring) got=$(ring_now "$dev"); want=$want/$want ;;
	chan) got=$(chan_now "$dev") ;;
	mtu) got=$(cat "/sys/class/net/$dev/mtu") ;;
	ro) got=$(ro_now "$dev"); want=$want/$want ;;
	up|down) if is_up "$dev"; then got=up; else got=down; fi; want=$1 ;;
	*) WHY="unknown check $1"; return 1 ;;
	esac
	[ "$got" = "$want" ] || { WHY="$key $got, not $want"; return 1; }
}

# ------------------------------------------------------------ traffic

traffic_start() {
	# Pings from the peer, and TCP from A, through every step: a step that
	# takes A away ends the stream, which is expected.
	ip netns exec "$PEER_NS" ping -q -i 0.01 -W 1 "$ADDR_A4" > /dev/null 2>&1 &
	TRAFFIC_PIDS=($!)
	iperf3 -c "$ADDR_B4" -t 120 > /dev/null 2>&1 &
	TRAFFIC_PIDS+=($!)
	sleep 1
}

traffic_stop() {
	[ ${#TRAFFIC_PIDS[@]} -gt 0 ] || return 0
	kill "${TRAFFIC_PIDS[@]}" 2>/dev/null
	wait "${TRAFFIC_PIDS[@]}" 2>/dev/null
	TRAFFIC_PIDS=()
}

# ------------------------------------------------------------ restore

# A bound to ronic, addressed and up, pings going through.
bring_back() {
	local dev
	load_driver ronic || { echo "modprobe ronic failed"; return 1; }
	[ -e "/sys/bus/pci/devices/$BDF_A" ] || echo 1 > /sys/bus/pci/rescan
	[ -e "/sys/bus/pci/drivers/ronic/$BDF_A" ] || bind_nic "$BDF_A" ronic > /dev/null ||
		{ echo "ronic does not bind $BDF_A"; return 1; }
	find_dev_a || { echo "no netdev for $BDF_A"; return 1; }
	dev=$DEV
	NIC_A=$dev
	ip -batch - <<-EOF
		addr replace $ADDR_A4/$PREFIX4 dev $dev
		addr replace $ADDR_A6/$PREFIX6 dev $dev nodad
		link set dev $dev up
	EOF
	wait_until 20 has_carrier "" "$dev" || { echo "no carrier on $dev"; return 1; }
	wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4" > /dev/null ||
		{ echo "no ping through $dev"; return 1; }
}

# With a program attached, pings must pass through it.
program_runs() {
	local before after
	before=$(xdp_pass_count)
	ping -q -c 5 -i 0.1 -W 1 "$ADDR_B4" > /dev/null || { echo "pings lost"; return 1; }
	after=$(xdp_pass_count)
	[ $((after - before)) -ge 5 ] || { echo "xdp_pass grew by $((after - before))"; return 1; }
}

xdp_pass_count() {
	ethtool -S "$DEV" | awk '$1 ~ /^rx[0-9]+_xdp_pass:$/ { s += $2 } END { print s + 0 }'
}

# reset_a STEPS|all: the defaults back for the next row, of what STEPS
# may have changed (a program, MTU, rings, channels, relaxed ordering), or
# all of them after a failed row.
reset_a() {
	local dev what=" $1 "
	find_dev_a || return 1
	dev=$DEV
	[ "$1" = all ] && what=" attach replace mtu1400 ring64 chan1 ro_on "
	[[ "$what" == *" attach "* || "$what" == *" replace "* ]] || has_xdp "$dev" &&
		ip link set dev "$dev" xdpdrv off
	[[ "$what" == *" mtu"* ]] && ip link set dev "$dev" mtu 1500
	[[ "$what" == *" ring"* ]] && ethtool -G "$dev" rx 256 tx 256 2>/dev/null
	[[ "$what" == *" chan"* ]] && [ "$(chan_now "$dev")" != "$MAXQ" ] &&
		ethtool -L "$dev" combined "$MAXQ"
	[[ "$what" == *" ro_"* ]] &&
		ethtool --set-priv-flags "$dev" pci_ro_read off pci_ro_write off
	wait_until 20 has_carrier "" "$dev"
}

# ------------------------------------------------------------ one row

# lap NAME: the seconds since the previous lap, into the row's profile.
lap() {
	local now=${EPOCHREALTIME/./} d
	d=$(((now - LAP_T) / 100000))
	PROFILE+=" $1 $((d / 10)).$((d % 10))"
	LAP_T=$now
}

# run_row VARIANT NAME STEPS EXPECT; logs where the row's time went.
run_row() {
	local variant=$1 name=$2 steps=$3 expect=$4 n0 s e out why="" reports
	PROFILE='' LAP_T=${EPOCHREALTIME/./}
	n0=$(dmesg_lines)
	[ "$variant" = traffic ] && traffic_start
	# Steps, checks and the way back write to OUT, not through $(...):
	# a subshell is a fork (see find_dev_a).
	for s in $steps; do
		step "$s" > "$OUT" 2>&1 || { why="step $s failed: $(tail -1 "$OUT")"; break; }
		lap "$s"
	done
	if [ -z "$why" ]; then
		for e in $expect; do
			expect_one "$e" || { why="after the steps: $WHY"; break; }
		done
	fi
	lap checks
	traffic_stop
	if [ -z "$why" ]; then
		bring_back > "$OUT" 2>&1 || why="port back: $(tail -1 "$OUT")"
	fi
	lap back
	if [ -z "$why" ] && find_dev_a && has_xdp "$DEV"; then
		program_runs > "$OUT" || why="program left attached: $(cat "$OUT")"
	fi
	lap program
	reset_a "${why:+all}${why:-$steps}" > /dev/null 2>&1 || why=${why:-"defaults not restored"}
	lap defaults
	if reports=$(kernel_reports "$n0"); then
		why="kernel report: $(echo "$reports" | head -1 | sed 's/^\[[ 0-9.]*\] //' | cut -c1-120)${why:+; $why}"
	fi
	lap reports
	log "row ($variant) $name:$PROFILE"
	[ -z "$why" ] && pass "lifecycle ($variant): $name" ||
		fail "lifecycle ($variant): $name" "$why"
}

# ------------------------------------------------------------ main

t0=$SECONDS
if ! pair_up ronic igb; then
	fail "lifecycle: pair up ronic<->igb"
	finish
fi
MAXQ=$(ethtool -l "$NIC_A" | awk '/^Combined:/ { print $2; exit }')
ip netns exec "$PEER_NS" iperf3 -s -D -B "$ADDR_B4" > /dev/null 2>&1

rows=0 ran=0
for variant in "${VARIANTS[@]}"; do
	while IFS=$'\t' read -r name steps expect; do
		case $name in ''|'#'*) continue ;; esac
		[ "$variant" = "${VARIANTS[0]}" ] && rows=$((rows + 1))
		ran=$((ran + 1))
		if [ -n "${RONIC_LIFECYCLE_SKIP_STEP:-}" ] &&
		   [[ " $steps " == *" $RONIC_LIFECYCLE_SKIP_STEP "* ]]; then
			skip "lifecycle ($variant): $name" "$RONIC_LIFECYCLE_SKIP_WHY"
			continue
		fi
		run_row "$variant" "$name" "$steps" "$expect"
	done < "$TABLE"
done
# The table's count is enforced: a row the loop skipped is a failure.
[ "$ran" -eq $((rows * ${#VARIANTS[@]})) ] && [ "$rows" -gt 0 ] &&
	pass "lifecycle: $rows rows x ${#VARIANTS[@]} variants ran ($((SECONDS - t0)) s)" ||
	fail "lifecycle: every row ran" "$ran of $((rows * ${#VARIANTS[@]}))"
held "lifecycle: $rows orderings x ${#VARIANTS[@]} (${VARIANTS[*]}), no kernel report"
pair_down
# Then random orderings (tests/guest/fuzz.sh), where asked for.
[ -z "${RONIC_FUZZ_OPS:-}" ] || nested "$RONIC_TOP/tests/guest/fuzz.sh"
finish
