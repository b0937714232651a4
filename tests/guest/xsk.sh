#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the AF_XDP tests (nested in xdp.sh): sockets of our own
# tool (tests/xdp/xsk_tool.c) on queue pair Q of port A, the RSS table
# sending every flow there, its program redirecting UDP to port 9 into the
# socket and passing the rest to the stack. The peer sends with the same
# tool in copy mode. Checked:
#  - zero-copy bind is granted (XDP_OPTIONS), rx and tx in zero-copy
#    counted by the tool, at the peer and in rxQ_xsk_received/txQ_xsk_sent;
#    copy mode beside it leaves those counters alone;
#  - need_wakeup and busy polling;
#  - XDP_TX of frames in socket memory, back at the peer;
#  - the stack's traffic through the zero-copy queue (XDP_PASS copies)
#    and the other queue is intact (sha256) while sockets bind and unbind
#    under it: a switch pauses that queue pair only;
#  - every frame of a burst four tx rings long is sent after one kick: a
#    poll that ran out of budget polls again (upstream bug 1);
#  - the self-test (a loopback without the queue vectors) with a socket
#    bound, and the socket receives after it (upstream bug 2);
#  - an application that stops giving buffers back with its socket bound
#    (its fill ring runs dry under a flood), then killed with kill -9
#    mid-traffic: NAPI does not spin (NET_RX softirqs stay at the idle
#    rate), the queue pair still carries traffic, and the queue is back on
#    page_pool once the socket is released (upstream bug 3);
#  - -L below the socket's queue refused, -G with a socket bound handled,
#    a socket bound while the port is down and one kept across down/up,
#    rmmod with a socket bound.
# RONIC_XSK_FRAMES (20000), RONIC_XSK_MIB (8) and RONIC_XSK_QUICK scale it
# for the debug kernel and 6.1.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

OBJ=${RONIC_XDP_OBJ:?compiled test programs}
XSK=${OBJ%/*}/xsk_tool
Q=1
N=${RONIC_XSK_FRAMES:-20000}
MIB=${RONIC_XSK_MIB:-8}		# each way, per transfer
# RONIC_XSK_QUICK=1 (the debug and 6.1 boots): the need_wakeup, busy-poll
# and copy-mode variants left out, 3 binds under traffic instead of 10.
QUICK=${RONIC_XSK_QUICK:-0}
BINDS=$([ "$QUICK" = 1 ] && echo 3 || echo 10)
OUT=/tmp/xsk.out
plan "$([ "$QUICK" = 1 ] && echo 30 || echo 38)"

# xsk_a ARGS: the tool on port A's queue Q.
xsk_a() {
	"$XSK" -i "$NIC_A" -q "$Q" "$@"
}

# field NAME TEXT: the value of NAME= in the tool's last summary line.
field() {
	grep '^xsk_tool ' <<< "$2" | tail -1 | sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}

# peer_push N [ARGS]: the peer sends N 64-byte UDP frames to A's port 9,
# RONIC_XSK_PPS (10000) a second at most: the bed's hub drops, uncounted
# by either MAC, what a port whose ring ran dry cannot take, and with a
# second VM on the host A's socket fell behind an unpaced peer (5300 of
# 20000 frames lost, none of them counted missed by A).
peer_push() {
	local n=$1
	shift
	in_ns "$PEER_NS" "$XSK" -i "$NIC_B" -q 0 -m txpush -c -n "$n" -t 60 \
		-r "${RONIC_XSK_PPS:-10000}" \
		-D "$(cat "/sys/class/net/$NIC_A/address")" -a "$ADDR_B4" -A "$ADDR_A4" \
		-p 9 "$@" > /dev/null
}

# peer_rx: frames the peer's port received.
peer_rx() {
	in_ns "$PEER_NS" cat "/sys/class/net/$NIC_B/statistics/rx_packets"
}

# shellcheck disable=SC2317 # called through wait_until or check
xsk_attached() {
	ip -j link show dev "$NIC_A" | jq -e '.[0].xdp.prog.id' > /dev/null
}

# start_rx ARGS: an rxdrop socket in the background, once its program is
# attached; its output goes to $OUT, its pid to XSK_PID.
start_rx() {
	# The tool itself, not a subshell: kill must reach it.
	"$XSK" -i "$NIC_A" -q "$Q" -m rxdrop "$@" > "$OUT" 2>&1 &
	XSK_PID=$!
	wait_until 20 xsk_attached
}

# both_stats: "A NAME VALUE" and "peer NAME VALUE" lines of ethtool -S.
both_stats() {
	ethtool -S "$NIC_A" | awk -F': *' 'NF == 2 { gsub(/ /, "", $1); print "A", $1, $2 }'
	in_ns "$PEER_NS" ethtool -S "$NIC_B" |
		awk -F': *' 'NF == 2 { gsub(/ /, "", $1); print "peer", $1, $2 }'
}

# rx_case NAME EXPECT_ZC ARGS: N frames from the peer into an rxdrop
# socket bound with ARGS; EXPECT_ZC 1 for zero-copy. On a failure, the
# counters of both ports that moved meanwhile go to the log (where the
# missing frames went).
rx_case() {
	local name=$1 zc=$2 before after out got stats0
	shift 2
	before=$(stat_of "rx${Q}_xsk_received")
	stats0=$(both_stats)
	start_rx -n "$N" -t 60 -I 2000 "$@"
	peer_push "$N"
	wait "$XSK_PID"
	out=$(cat "$OUT")
	after=$(stat_of "rx${Q}_xsk_received")
	got=$(field rx "$out")
	if [ "$(field zerocopy "$out")" != "$zc" ] || [ "${got:-0}" -lt $((N * 9 / 10)) ]; then
		fail "$name: $N frames into the socket" "$(tail -2 "$OUT" | tr '\n' ' ')"
		log "$name: counters that moved:"
		awk 'NR == FNR { v[$1 " " $2] = $3; next }
		     $3 != v[$1 " " $2] { printf "  %s %s +%d\n", $1, $2, $3 - v[$1 " " $2] }' \
			<(echo "$stats0") <(both_stats) | while read -r l; do log "  $l"; done
		return
	fi
	pass "$name: $got of $N frames into the socket (zerocopy=$zc)"
	if [ "$zc" = 1 ]; then
		[ $((after - before)) -ge "$got" ] &&
			pass "$name: rx${Q}_xsk_received grew by $((after - before)) >= $got" ||
			fail "$name: rx${Q}_xsk_received" "grew by $((after - before)) < $got"
	else
		[ "$after" -eq "$before" ] &&
			pass "$name: copy mode leaves rx${Q}_xsk_received alone" ||
			fail "$name: copy mode counted in rx${Q}_xsk_received" "$before -> $after"
	fi
}

# tx_case NAME ARGS: A's socket sends N frames to the peer: all completed,
# all on the wire (A's MAC counted them: tx_total_packets, read by the
# watchdog every 2 s), and frames the peer takes for its own (the peer
# keeps up with a fraction only under TCG).
tx_case() {
	local name=$1 before after wire0 wire1 rx0 rx1 out
	shift
	before=$(stat_of "tx${Q}_xsk_sent")
	wire0=$(stat_of tx_total_packets)
	rx0=$(peer_rx)
	if ! out=$(xsk_a -m txpush -z -n "$N" -t 60 -D "$(in_ns "$PEER_NS" \
		cat "/sys/class/net/$NIC_B/address")" -a "$ADDR_A4" -A "$ADDR_B4" "$@" 2>&1); then
		fail "$name: $N frames sent and completed" "$(echo "$out" | tail -1)"
		return
	fi
	sleep 2.5
	rx1=$(peer_rx)
	wire1=$(stat_of tx_total_packets)
	after=$(stat_of "tx${Q}_xsk_sent")
	[ "$(field completed "$out")" -eq "$N" ] && [ $((after - before)) -eq "$N" ] &&
		pass "$name: $N frames completed, tx${Q}_xsk_sent +$((after - before))" ||
		fail "$name: completions" "tool $(field completed "$out"), tx${Q}_xsk_sent +$((after - before))"
	[ $((wire1 - wire0)) -ge "$N" ] && [ $((rx1 - rx0)) -ge $((N / 20)) ] &&
		pass "$name: $((wire1 - wire0)) frames on the wire, $((rx1 - rx0)) taken by the peer" ||
		fail "$name: on the wire" "$((wire1 - wire0)) by A's MAC, $((rx1 - rx0)) taken by the peer, of $N"
}

# net_rx: NET_RX softirqs of every CPU so far.
# shellcheck disable=SC2317 # called through wait_until or check
net_rx() {
	awk '$1 == "NET_RX:" { for (i = 2; i <= NF; i++) s += $i } END { print s }' /proc/softirqs
}

# spins_not: NET_RX softirqs over 3 idle seconds stay under 600 (the
# idle rate here is a few dozen: the watchdog, ARP, timers).
# shellcheck disable=SC2317 # called through wait_until or check
spins_not() {
	local n0 n1
	n0=$(net_rx)
	sleep 3
	n1=$(net_rx)
	echo "$((n1 - n0)) NET_RX softirqs in 3 s"
	[ $((n1 - n0)) -lt 600 ]
}

check_zero_copy() {
	local out
	out=$(xsk_a -m rxdrop -z -n 1 -t 1 2>&1)
	if [ $? -eq 2 ]; then
		fail "zero-copy bind granted" "$(echo "$out" | tail -1)"
		return
	fi
	pass "zero-copy bind granted"
	rx_case "rxdrop zero-copy" 1 -z
	if [ "$QUICK" != 1 ]; then
		rx_case "rxdrop zero-copy, need_wakeup" 1 -z -w
		rx_case "rxdrop zero-copy, busy poll" 1 -z -B 50
		rx_case "rxdrop copy mode" 0 -c
	fi
	tx_case "txpush zero-copy"
	[ "$QUICK" = 1 ] || tx_case "txpush zero-copy, need_wakeup" -w
	# Bug 1: one kick, then no more; four rings' worth must all go.
	tx_case "txpush zero-copy, a single kick" -K
}

# Another program on a zero-copy queue: XDP_TX of frames in socket memory
# (copied into pages of their own, sent on the CPU's XDP ring) and back
# at the peer.
check_tx_back_from_socket_memory() {
	local tx0 tx1 rx0 rx1
	start_rx -z -t 60
	ip -force link set dev "$NIC_A" xdpdrv obj "$OBJ" program xdp_tx_back
	tx0=$(stat_of "rx${Q}_xdp_tx")
	rx0=$(peer_rx)
	in_ns "$PEER_NS" ping -q -c 100 -i 0.01 -W 1 "$ADDR_A4" > /dev/null
	tx1=$(stat_of "rx${Q}_xdp_tx")
	rx1=$(peer_rx)
	kill "$XSK_PID"
	wait "$XSK_PID"
	ip link set dev "$NIC_A" xdpdrv off
	[ $((tx1 - tx0)) -ge 100 ] && [ $((rx1 - rx0)) -ge 100 ] &&
		pass "XDP_TX from socket memory: rx${Q}_xdp_tx +$((tx1 - tx0)), $((rx1 - rx0)) back at the peer" ||
		fail "XDP_TX from socket memory" "rx${Q}_xdp_tx +$((tx1 - tx0)), peer +$((rx1 - rx0)) of 100"
}

# Sockets bound and unbound on queue Q, under a TCP transfer each way.
check_switch_under_traffic() {
	local i rc=0 out
	sha_file /tmp/xsk.bin "$MIB"
	sha_send /tmp/xsk.bin 5301 300 &
	local pid=$!
	for ((i = 0; i < BINDS; i++)); do
		out=$(xsk_a -m rxdrop -z -t 1 2>&1) || { rc=1; log "bind $i: $out"; }
	done
	wait "$pid" && pass "$MIB MiB each way intact while $BINDS zero-copy sockets came and went" ||
		fail "transfer while sockets came and went" "sha256 mismatch or timeout"
	[ "$rc" -eq 0 ] && pass "$BINDS zero-copy binds under traffic" ||
		fail "$BINDS zero-copy binds under traffic" "see the log"
}

# The stack's own traffic through the zero-copy queue: pings and TCP pass
# the program and are copied out of socket memory.
check_stack_through_socket_queue() {
	local before after
	start_rx -z -t 60
	before=$(stat_of "rx${Q}_xdp_pass")
	sha_file /tmp/xsk.bin "$MIB"
	check "$MIB MiB each way through a zero-copy queue (XDP_PASS copies)" \
		sha_send /tmp/xsk.bin 5303 300
	after=$(stat_of "rx${Q}_xdp_pass")
	[ $((after - before)) -ge 1000 ] &&
		pass "the transfer passed through queue $Q's program (xdp_pass +$((after - before)))" ||
		fail "the transfer on queue $Q" "xdp_pass +$((after - before))"
	# Bug 2: the self-test takes the port over (no queue vectors, its own
	# loopback) and gives it back with the socket still bound.
	check "self-test with a zero-copy socket bound" ethtool -t "$NIC_A" offline
	check "the port works after the self-test" works
	kill "$XSK_PID"
	wait "$XSK_PID"
	rx_case "rxdrop zero-copy after the self-test" 1 -z
}

# xsk_released: queue Q's frames go to page_pool again: pings through it
# are received there and none into socket memory.
# shellcheck disable=SC2317 # called through wait_until or check
xsk_released() {
	local x0 p0
	x0=$(stat_of "rx${Q}_xsk_received")
	p0=$(stat_of "rx${Q}_packets")
	ping -q -c 3 -i 0.2 -W 1 "$ADDR_B4" > /dev/null
	[ "$(stat_of "rx${Q}_packets")" -gt "$p0" ] &&
		[ "$(stat_of "rx${Q}_xsk_received")" -eq "$x0" ]
}

# Bug 3: an application that stops giving buffers back, its socket bound
# (its fill ring runs dry under a flood), then killed with kill -9.
check_stalled_and_killed() {
	# Enough frames to fill the rx ring and drain the fill ring (2048 each
	# at most) several times over.
	local pid flood=$((N > 5000 ? N : 5000))
	start_rx -z -Z -t 60
	peer_push "$flood" &
	pid=$!
	wait "$pid"
	check "no NAPI spin with the fill ring dry, the socket bound" spins_not
	# Queue Q receives into the socket alone, and it has no buffers: the
	# stack's flows go to the other queue meanwhile.
	ethtool -X "$NIC_A" weight 1 0
	check "the other queue carries TCP beside the stalled socket" sha_send /tmp/xsk.bin 5305 300
	ethtool -X "$NIC_A" weight 0 1
	peer_push "$flood" &
	pid=$!
	sleep 1
	kill -9 "$XSK_PID"
	wait "$XSK_PID" 2> /dev/null
	wait "$pid"
	check "no NAPI spin after kill -9 mid-traffic" spins_not
	ip link set dev "$NIC_A" xdpdrv off
	check "queue $Q back on page_pool once the socket is released" \
		wait_until 20 xsk_released
	check "the queue pair carries TCP after kill -9" sha_send /tmp/xsk.bin 5307 300
}

# rx_after_up NAME: the port comes up (it is down, a socket bound meanwhile
# by start_rx) and the socket receives what the peer sends then.
rx_after_up() {
	ip link set dev "$NIC_A" up
	wait_until 20 has_carrier "" "$NIC_A"
	peer_push 2000
	kill "$XSK_PID"
	wait "$XSK_PID"
	[ "$(field rx "$(cat "$OUT")")" -ge 1800 ] && [ "$(field zerocopy "$(cat "$OUT")")" = 1 ] &&
		pass "$1: $(field rx "$(cat "$OUT")") of 2000 into the socket" ||
		fail "$1" "$(grep '^xsk_tool ' "$OUT" | tail -1)"
}

# A pool bound while the port is down is taken by the rings it opens
# with; one bound while up survives a down and up.
check_down_up() {
	ip link set dev "$NIC_A" down
	start_rx -z -t 60
	rx_after_up "a socket bound while the port was down receives once it is up"
	start_rx -z -t 60
	ip link set dev "$NIC_A" down
	rx_after_up "a socket bound across down and up receives"
}

check_reconfigure() {
	local out
	start_rx -z -t 60
	if out=$(ethtool -L "$NIC_A" combined 1 2>&1); then
		fail "-L below a zero-copy socket's queue refused" "accepted"
	else
		pass "-L below a zero-copy socket's queue refused: ${out##*: }"
	fi
	check "-G with a zero-copy socket bound" ethtool -G "$NIC_A" rx 512
	wait_until 20 has_carrier "" "$NIC_A"
	peer_push 2000
	kill "$XSK_PID"
	wait "$XSK_PID"
	[ "$(field rx "$(cat "$OUT")")" -ge 1800 ] &&
		pass "the socket receives after -G ($(field rx "$(cat "$OUT")") of 2000)" ||
		fail "the socket receives after -G" "$(tail -1 "$OUT")"
	check_down_up
	start_rx -z -t 60
	check "rmmod with a zero-copy socket bound" timeout 60 modprobe -r ronic
	kill "$XSK_PID"
	wait "$XSK_PID"
	pair_up ronic ronic && static_neighbours
	check "ronic back after rmmod" works
}

if ! pair_up ronic ronic; then
	fail "pair up ronic<->ronic" "pair_up failed"
	finish
fi
static_neighbours
# Every flow to queue Q: the socket's.
check "RSS table: every flow to queue $Q" ethtool -X "$NIC_A" weight 0 1
check_zero_copy
check_stack_through_socket_queue
check_tx_back_from_socket_memory
check_switch_under_traffic
check_stalled_and_killed
check_reconfigure
check "port still carries pings" ping -q -c 5 -i 0.2 "$ADDR_B4"
finish
