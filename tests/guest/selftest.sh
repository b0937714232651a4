#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ethtool -t on the driver under test (port A, root netns) against an igb
# peer; run by tests/t-selftest.sh, or from another guest script in its
# boot (it binds the pair itself and puts port A's settings back at the
# end). Online: PASS, the link line 0, and (ronic) the offline lines not
# 0 but RONIC_NOT_RUN, since they did not run. Offline: PASS with every
# line 0, on a port set away from its defaults (rings, channels, MTU, an
# XDP program when RONIC_XDP_OBJ names the test programs, a private
# flag), which must keep all of it and carry pings and a TCP stream
# again; the same under a ping flood from the peer; and on a port that
# is down, which stays down; then ronic on one vector (force_legacy_irq=1,
# MSI), up and down. Logs how long the offline test held the port and how
# long pings from the peer went unanswered. With RONIC_DUT=igb only the
# online part runs: igb's offline test locks up in this bed.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 36

dut=$RONIC_DUT
# include/ronic_selftest.h: RONIC_SELFTEST_NOT_RUN
RONIC_NOT_RUN=99
OUT=/tmp/selftest.out

# selftest MODE: ethtool -t on port A; output in $OUT, status ethtool's.
selftest() {
	ethtool -t "$NIC_A" "$1" > "$OUT" 2>&1
}

# results: "name=value" per result line of $OUT, one a line.
results() {
	awk -F'\t' '/extra info:/ { on = 1; next }
		on && NF >= 2 { n = $1; sub(/ +$/, "", n); v = $2; gsub(/ /, "", v)
			print n "=" v }' "$OUT"
}

# offline_ok TAG: the offline run in $OUT passed, five lines, every one 0.
offline_ok() {
	local tag=$1 rc=$2 lines bad
	lines=$(results | wc -l)
	bad=$(results | grep -v '=0$' | tr '\n' ' ')
	sed 's/^/#   /' "$OUT" >&2
	if [ "$rc" -eq 0 ] && grep -q 'result is PASS' "$OUT"; then
		pass "$tag: ethtool -t offline passes"
	else
		fail "$tag: ethtool -t offline passes" "status $rc: $(head -1 "$OUT")"
	fi
	if [ "$lines" -eq 5 ] && [ -z "$bad" ]; then
		pass "$tag: all 5 results are 0"
	else
		fail "$tag: all 5 results are 0" "$lines lines; not 0: ${bad:-none}"
	fi
}

# state: what the offline test must leave as it found.
state() {
	ethtool -g "$NIC_A" | sed -n '/^Current/,$p' | tr -s ' \t' ' ' | tr '\n' ' '
	ethtool -l "$NIC_A" | sed -n '/^Current/,$p' | tr -s ' \t' ' ' | tr '\n' ' '
	ip -o link show dev "$NIC_A" | grep -Eo 'mtu [0-9]+|prog/xdp id [0-9]+|[<,]UP[,>]' | tr '\n' ' '
	ethtool --show-priv-flags "$NIC_A" 2>/dev/null | tail -n +2 | tr -s ' \t' ' ' | tr '\n' ' '
}

# ring/channel/MTU/priv-flag values to restore at the end
orig_rx='' orig_tx='' orig_ch='' orig_mtu=''

# set_away: port A's settings away from their defaults, each one that
# the offline test could lose.
set_away() {
	local max
	orig_rx=$(ring_size "$NIC_A" RX)
	orig_tx=$(ring_size "$NIC_A" TX)
	orig_ch=$(ethtool -l "$NIC_A" | awk '/^Current/ { c = 1 } c && /^Combined:/ { print $2; exit }')
	orig_mtu=$(cat "/sys/class/net/$NIC_A/mtu")
	max=$(ethtool -l "$NIC_A" | awk '/^Combined:/ { print $2; exit }')
	ethtool -G "$NIC_A" rx 512 tx 128 || log "ethtool -G rx 512 tx 128 refused"
	# One queue fewer than now, or the most there are when there is one.
	if [ "$orig_ch" -gt 1 ]; then
		ethtool -L "$NIC_A" combined $((orig_ch - 1))
	elif [ "$max" -gt 1 ]; then
		ethtool -L "$NIC_A" combined "$max"
	fi
	ip link set dev "$NIC_A" mtu 1400
	if [ -n "${RONIC_XDP_OBJ:-}" ]; then
		ip link set dev "$NIC_A" xdpdrv obj "$RONIC_XDP_OBJ" program xdp_pass ||
			log "XDP program not attached"
	else
		log "RONIC_XDP_OBJ not set: no XDP program attached (t-selftest.sh builds one)"
	fi
	[ "$dut" != ronic ] || ethtool --set-priv-flags "$NIC_A" pci_ro_write on
	wait_until 20 has_carrier "" "$NIC_A"
}

put_back() {
	[ "$dut" != ronic ] || ethtool --set-priv-flags "$NIC_A" pci_ro_write off
	ip link set dev "$NIC_A" xdpdrv off 2>/dev/null
	ip link set dev "$NIC_A" mtu "$orig_mtu"
	ethtool -L "$NIC_A" combined "$orig_ch"
	ethtool -G "$NIC_A" rx "$orig_rx" tx "$orig_tx"
}

# carries TAG: the port has its carrier again and carries pings both ways
# and a TCP stream each way.
carries() {
	local tag=$1 mbps
	if wait_until 20 has_carrier "" "$NIC_A"; then
		pass "$tag: carrier back"
	else
		fail "$tag: carrier back" "$(link_info "" "$NIC_A")"
	fi
	ping_check "$tag: IPv4 ping A->B 20/20" root "$ADDR_B4" 20
	ping_check "$tag: IPv4 ping B->A 20/20" "$PEER_NS" "$ADDR_A4" 20
	if mbps=$(iperf_tcp root "$PEER_NS" 3); then
		pass "$tag: TCP A->B ($mbps Mbit/s)"
	else
		fail "$tag: TCP A->B" "iperf3 failed"
	fi
	if mbps=$(iperf_tcp "$PEER_NS" root 3); then
		pass "$tag: TCP B->A ($mbps Mbit/s)"
	else
		fail "$tag: TCP B->A" "iperf3 failed"
	fi
}

# held_ms: the port-held time of the last offline run in the kernel log.
held_ms() {
	dmesg --color=never | sed -n 's/.*offline self-test: .*port held \([0-9]*\) ms.*/\1/p' | tail -1
}

if ! pair_up "$dut" igb; then
	fail "self-test: pair up $dut/igb" "pair_up failed"
	pair_down
	finish
fi

# ---------------------------------------------------------------- online
selftest online
rc=$?
sed 's/^/#   /' "$OUT" >&2
if [ "$rc" -eq 0 ] && grep -q 'result is PASS' "$OUT"; then
	pass "online: ethtool -t online passes"
else
	fail "online: ethtool -t online passes" "status $rc: $(head -1 "$OUT")"
fi
link=$(results | sed -n 's/^Link test.*=//p')
[ "$link" = 0 ] && pass "online: link test 0" || fail "online: link test 0" "'$link'"
if [ "$dut" = ronic ]; then
	off=$(results | grep -c "(offline)=$RONIC_NOT_RUN\$")
	[ "$off" -eq 4 ] &&
		pass "online: the 4 offline tests read $RONIC_NOT_RUN (not run), not 0" ||
		fail "online: the 4 offline tests read $RONIC_NOT_RUN (not run)" "$(results | tr '\n' ' ')"
fi

# ---------------------------------------------------------------- offline
if [ "$dut" != ronic ]; then
	# In-tree igb's offline test locks up on this bed (6.12 guest, QEMU
	# 10.0.2): a soft lockup in igb_clean_tx_ring from igb_diag_test,
	# with the port's settings at their defaults too.
	log "$dut: offline self-test not run here (it locks up in this bed)"
	pair_down
	finish
fi
set_away
before=$(state)
log "before: $before"
# Pings from the peer every 20 ms, timestamped, across the test: the
# longest silence between two replies is how long traffic stopped.
ip netns exec "$PEER_NS" ping -D -i 0.02 -W 1 -w 12 "$ADDR_A4" > /tmp/gap.out 2>&1 &
gap_pid=$!
sleep 2
t0=$(date +%s%N)
selftest offline
rc=$?
t1=$(date +%s%N)
wait "$gap_pid"
offline_ok "offline" "$rc"
took=$(((t1 - t0) / 1000000))
# -1 when no reply came after the test ended.
gap=$(awk -F'[][]' -v end="$((t1 / 1000000))" '/bytes from/ { t = $2 * 1000
		if (p && t - p > g) g = t - p; p = t }
	END { printf "%d", (p > end ? g : -1) }' /tmp/gap.out)
log "offline self-test took $took ms (port held $(held_ms) ms); no ping reply for $gap ms"
held "offline self-test $took ms, port held $(held_ms) ms, traffic stopped $gap ms"
[ "$gap" -gt 0 ] && [ "$gap" -lt 10000 ] &&
	pass "offline: pings stopped $gap ms and came back" ||
	fail "offline: pings came back" "longest gap ${gap:-?} ms: $(tail -2 /tmp/gap.out | tr '\n' ' ')"
after=$(state)
if [ "$after" = "$before" ]; then
	pass "offline: rings, channels, MTU, XDP program, flags unchanged"
else
	fail "offline: settings unchanged" "before: $before; after: $after"
fi
carries "offline"

# ---------------------------------------------------------------- flood
# A ping flood from the peer while the offline test runs: the test must
# not see the peer's frames, and the port must come back under the flood.
ip netns exec "$PEER_NS" ping -f -q -w 20 "$ADDR_A4" > /tmp/flood.out 2>&1 &
flood=$!
sleep 2
selftest offline
rc=$?
offline_ok "under a ping flood" "$rc"
if wait_until 15 ping -q -c 1 -W 1 "$ADDR_B4" > /dev/null &&
   kill -0 "$flood" 2> /dev/null; then
	pass "under a ping flood: the port answers again while the flood runs"
else
	fail "under a ping flood: the port answers again while the flood runs" \
		"$(link_info "" "$NIC_A")"
fi
wait "$flood"
log "flood: $(grep -E 'transmitted|loss' /tmp/flood.out | tr '\n' ' ')"
after=$(state)
[ "$after" = "$before" ] && pass "under a ping flood: settings unchanged" ||
	fail "under a ping flood: settings unchanged" "before: $before; after: $after"
carries "after the flood"

# ---------------------------------------------------------------- down
ip link set dev "$NIC_A" down
before=$(state)
selftest offline
rc=$?
offline_ok "port down" "$rc"
after=$(state)
if [ "$after" = "$before" ] && ! ip -o link show dev "$NIC_A" | grep -q '[<,]UP[,>]'; then
	pass "port down: stays down, settings unchanged"
else
	fail "port down: stays down, settings unchanged" "before: $before; after: $after"
fi
ip link set dev "$NIC_A" up
carries "up again after the down-port test"

put_back

# ---------------------------------------------------------------- one vector
# The single vector's handler (MSI here, INTx where there is no MSI), as
# force_legacy_irq=1 makes ronic use it: up and down. The module is
# loaded plain again at the end.
if [ "$dut" = ronic ]; then
	pair_down
	if unload_driver ronic && modprobe ronic force_legacy_irq=1 &&
	   pair_up ronic igb; then
		mode=$(dmesg --color=never | grep "Intel 82576 at $BDF_A" | tail -1)
		[[ $mode == *", MSI" ]] && pass "one vector: ronic runs on MSI" ||
			fail "one vector: ronic runs on MSI" "${mode:-no probe line}"
		selftest offline
		offline_ok "one vector" "$?"
		ping_check "one vector: IPv4 ping A->B 20/20" root "$ADDR_B4" 20
		ip link set dev "$NIC_A" down
		selftest offline
		offline_ok "one vector, port down" "$?"
		ip link set dev "$NIC_A" up
		ping_check "one vector: up again, IPv4 ping A->B 20/20" root "$ADDR_B4" 20
	else
		fail "one vector: ronic reloaded with force_legacy_irq=1" "reload or pair_up failed"
	fi
	pair_down
	unload_driver ronic
	modprobe ronic
fi
pair_down
finish
