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

# Port A's netdev now (a reload or a rescan may rename it); empty if none.
dev_a() {
	nic_netdev "$BDF_A" 2>/dev/null
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
	dev=$(dev_a)
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
	modprobe) load_driver ronic && wait_until 20 dev_a > /dev/null ;;
	unbind) unbind_nic "$BDF_A" ;;
	bind) bind_nic "$BDF_A" ronic > /dev/null ;;
	remove) echo 1 > "/sys/bus/pci/devices/$BDF_A/remove" ;;
	# A new function: no driver_override, so igb may take it first.
	rescan) echo 1 > /sys/bus/pci/rescan && bind_nic "$BDF_A" ronic > /dev/null ;;
	reset) echo 1 > "/sys/bus/pci/devices/$BDF_A/reset" ;;
	aer) aer_recovery ;;
	*) echo "unknown step $1"; return 2 ;;
	esac
}

# ------------------------------------------------------------ checks

xdp_progs() {
	bpftool -j prog show 2>/dev/null | jq '[.[] | select(.type == "xdp")] | length'
}

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

is_up() {
	ip -o link show dev "$1" | grep -q '[<,]UP[,>]'
}

# expect_one CHECK: prints why it does not hold.
expect_one() {
	local key=${1%%=*} want=${1#*=} dev got
	dev=$(dev_a)
	if [ -z "$dev" ] && [ "$key" != progs ]; then
		echo "no netdev for $BDF_A"
		return 1
	fi
	case $key in
	xdp) if has_xdp "$dev"; then got=on; else got=off; fi ;;
	progs) wait_until 5 progs_are "$want"; got=$(xdp_progs) ;;
	ring) got=$(ring_now "$dev"); want=$want/$want ;;
	chan) got=$(chan_now "$dev") ;;
	mtu) got=$(cat "/sys/class/net/$dev/mtu") ;;
	ro) got=$(ro_now "$dev"); want=$want/$want ;;
	up|down) if is_up "$dev"; then got=up; else got=down; fi; want=$1 ;;
	*) echo "unknown check $1"; return 1 ;;
	esac
	[ "$got" = "$want" ] || { echo "$key $got, not $want"; return 1; }
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
	[ "$(nic_driver "$BDF_A")" = ronic ] || bind_nic "$BDF_A" ronic > /dev/null ||
		{ echo "ronic does not bind $BDF_A"; return 1; }
	dev=$(dev_a) || { echo "no netdev for $BDF_A"; return 1; }
	NIC_A=$dev
	ip addr replace "$ADDR_A4/$PREFIX4" dev "$dev"
	ip addr replace "$ADDR_A6/$PREFIX6" dev "$dev" nodad
	ip link set dev "$dev" up
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
	ethtool -S "$(dev_a)" | awk '$1 ~ /^rx[0-9]+_xdp_pass:$/ { s += $2 } END { print s + 0 }'
}

# The defaults, for the next row.
reset_a() {
	local dev
	dev=$(dev_a)
	ip link set dev "$dev" xdpdrv off 2>/dev/null
	ip link set dev "$dev" mtu 1500 &&
		ethtool -G "$dev" rx 256 tx 256 2>/dev/null
	[ "$(chan_now "$dev")" = "$MAXQ" ] || ethtool -L "$dev" combined "$MAXQ"
	ethtool --set-priv-flags "$dev" pci_ro_read off pci_ro_write off
	wait_until 20 has_carrier "" "$dev"
}

# ------------------------------------------------------------ one row

# run_row VARIANT NAME STEPS EXPECT
run_row() {
	local variant=$1 name=$2 steps=$3 expect=$4 n0 s e out why="" reports
	n0=$(dmesg_lines)
	[ "$variant" = traffic ] && traffic_start
	for s in $steps; do
		out=$(step "$s" 2>&1) || { why="step $s failed: $(echo "$out" | tail -1)"; break; }
	done
	if [ -z "$why" ]; then
		for e in $expect; do
			out=$(expect_one "$e") || { why="after the steps: $out"; break; }
		done
	fi
	traffic_stop
	if [ -z "$why" ]; then
		out=$(bring_back 2>&1) || why="port back: $(echo "$out" | tail -1)"
	fi
	if [ -z "$why" ] && has_xdp "$(dev_a)"; then
		out=$(program_runs) || why="program left attached: $out"
	fi
	reset_a > /dev/null 2>&1 || why=${why:-"defaults not restored"}
	if reports=$(kernel_reports "$n0"); then
		why="kernel report: $(echo "$reports" | head -1 | sed 's/^\[[ 0-9.]*\] //' | cut -c1-120)${why:+; $why}"
	fi
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
