#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-stress: ronic on NIC A (root netns) against the in-tree
# igb on NIC B (netns peer), so that reloading ronic leaves the peer up.
# Each phase runs COUNT operations or until its time bound, under an iperf3
# stream where a stream can live (with pktgen frames from the peer beside
# it in the flag, ring, channel and MTU phases), then sends a file both
# ways and compares sha256 on both sides; each prints one line of what it
# survived. Counts
# and bounds: RONIC_STRESS_<PHASE>=COUNT and RONIC_STRESS_<PHASE>_SECS.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 22

DATA=/tmp/stress.bin		# sent both ways in each sha256 check
DATA_MB=${RONIC_STRESS_DATA_MB:-64}
BIG=/tmp/stress-big.bin		# issue 5: 512 MiB each way per flag setting
BIG_MB=${RONIC_STRESS_BIG_MB:-512}
bytes_checked=0
cycles_total=0
timeouts_recovered=0

# dmesg_has TEXT: in the kernel log since line dm0.
dm0=0
# shellcheck disable=SC2317 # called through wait_until
dmesg_has() {
	dmesg | tail -n +"$((dm0 + 1))" | grep -q "$1"
}

# sha_checked FILE PORT: sha_send (lib.sh), its bytes added up on success.
sha_checked() {
	sha_send "$1" "$2" || return 1
	bytes_checked=$((bytes_checked + 2 * $(stat -c %s "$1")))
}

# data_check PHASE: the small file both ways after a phase.
data_check() {
	local t0=$SECONDS

	if sha_checked "$DATA" 5301; then
		pass "stress: $1: ${DATA_MB} MiB each way after it, sha256 match in $((SECONDS - t0)) s (at $SECONDS s)"
	else
		fail "stress: $1: ${DATA_MB} MiB each way after it, sha256 match" "mismatch or transfer failed"
	fi
}

# The background stream, A -> B (and B -> A with --bidir).
stream_start() {
	in_ns "$PEER_NS" iperf3 -s -1 -B "$ADDR_B4" -p 5201 > /tmp/stream-s.log 2>&1 &
	wait_until 10 iperf_listening "$PEER_NS"
	iperf3 -c "$ADDR_B4" -p 5201 -t 3600 -i 0 "$@" > /tmp/stream-c.log 2>&1 &
	STREAM_PID=$!
	wait_until 10 stream_acked > /dev/null
}

# Bytes acked on the stream's data connections (root netns side), or fail.
stream_acked() {
	local n
	n=$(ss -Htin state established "( dport = :5201 )" |
		grep -o 'bytes_acked:[0-9]*' | cut -d: -f2 |
		awk '{ s += $1 } END { printf "%.0f\n", s }')
	[ "$n" -gt 1000000 ] && echo "$n"
}

# stream_alive: the connection is there and moves data within 15 s.
stream_alive() {
	local a0 deadline=$((SECONDS + 15)) a1
	a0=$(stream_acked) || return 1
	kill -0 "$STREAM_PID" 2>/dev/null || return 1
	while [ "$SECONDS" -lt "$deadline" ]; do
		sleep 0.5
		a1=$(stream_acked) || return 1
		[ "$a1" -le "$a0" ] || return 0
	done
	return 1
}

# flood_start: 64-byte UDP frames from the peer to A's closed port 9,
# 16 a millisecond (pktgen, beside the stream) during a phase; flood_stop
# stops them and sets FLOOD_NOTE to how many reached A's UDP stack
# (UdpNoPorts), or fails the phase with FLOOD_ERR if none did.
FLOOD_NOTE='' FLOOD_ERR='' flood_nop0=0
flood_start() {
	flood_nop0=$(udp_noports)
	pktgen_peer_to_a 1000000
}

flood_stop() {
	local n
	pktgen_stop "$PEER_NS"
	n=$(($(udp_noports) - flood_nop0))
	FLOOD_NOTE="pktgen: $n frames reached A's stack" FLOOD_ERR=''
	[ "$n" -gt 0 ] || FLOOD_ERR="no pktgen frame reached A"
}

stream_stop() {
	kill "$STREAM_PID" 2>/dev/null
	wait "$STREAM_PID" 2>/dev/null
	for p in $(ip netns pids "$PEER_NS" 2>/dev/null); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" != iperf3 ] || kill "$p"
	done
	wait 2>/dev/null
}

# phase_result NAME DONE WANT SECS BOUND ERR STREAM_NOTE
phase_result() {
	local name=$1 done=$2 want=$3 secs=$4 bound=$5 err=$6 note=$7 what
	cycles_total=$((cycles_total + done))
	what="$done $name in ${secs} s"
	[ "$done" -ge "$want" ] || what+=" (of $want: stopped at the ${bound} s bound)"
	# The documented count is the claim: a phase its time bound stopped
	# short of it fails.
	if [ -z "$err" ] && [ "$done" -ge "$want" ]; then
		pass "stress: $what${note:+, $note}"
	else
		fail "stress: $what" "${err:-none done}"
	fi
}

if ! pair_up ronic igb; then
	fail "stress: pair up ronic<->igb"
	finish
fi
NQ=$(ethtool -l "$NIC_A" | awk '/Pre-set/ { p = 1 } p && /^Combined:/ { print $2; exit }')

t0=$SECONDS
sha_file "$DATA" "$DATA_MB"
log "data file ${DATA_MB} MiB made in $((SECONDS - t0)) s"

# ---------------------------------------------------------------- issue 5
# Every flag combination carries BIG_MB each way at once (1 GiB in all).
t0=$SECONDS
sha_file "$BIG" "$BIG_MB"
log "big file ${BIG_MB} MiB made and hashed in $((SECONDS - t0)) s"
for rd in off on; do
	for wr in off on; do
		name="pci_ro_read $rd pci_ro_write $wr"
		t0=$SECONDS
		if ! ethtool --set-priv-flags "$NIC_A" pci_ro_read "$rd" pci_ro_write "$wr"; then
			fail "stress: $name: set the flags"
			continue
		fi
		if sha_checked "$BIG" 5311; then
			s=$((SECONDS - t0))
			pass "stress: $name: $((2 * BIG_MB)) MiB ($BIG_MB each way) sha256 match on both sides in $s s ($((2 * BIG_MB * 8 / (s > 0 ? s : 1))) Mbit/s)"
		else
			fail "stress: $name: $((2 * BIG_MB)) MiB sha256 match" "mismatch or transfer failed"
		fi
	done
done
rm -f "$BIG"
ethtool --set-priv-flags "$NIC_A" pci_ro_read off pci_ro_write off

# ---------------------------------------------------------------- flags
want=${RONIC_STRESS_FLAGS:-200} bound=${RONIC_STRESS_FLAGS_SECS:-35}
stream_start --bidir
flood_start
t0=$SECONDS deadline=$((SECONDS + bound)) i=0 err=
while [ "$i" -lt "$want" ] && [ "$SECONDS" -lt "$deadline" ]; do
	rd=off wr=off
	[ $((i % 2)) = 0 ] || rd=on
	[ $((i / 2 % 2)) = 0 ] || wr=on
	ethtool --set-priv-flags "$NIC_A" pci_ro_read "$rd" pci_ro_write "$wr" ||
		{ err="switch $i refused"; break; }
	i=$((i + 1))
done
note="iperf3 --bidir connection survived"
stream_alive || { err=${err:-"iperf3 connection lost"}; note=; }
# pktgen first: stream_stop waits for every background job.
flood_stop
stream_stop
note+="${note:+, }$FLOOD_NOTE" err=${err:-$FLOOD_ERR}
ethtool --set-priv-flags "$NIC_A" pci_ro_read off pci_ro_write off
phase_result "private-flag switches" "$i" "$want" $((SECONDS - t0)) "$bound" "$err" "$note"
data_check "flag switches"

# ---------------------------------------------------------------- -G / -L
sizes=(256 512 1024 128 2048 64 4096 768)
want=${RONIC_STRESS_RINGS:-100} bound=${RONIC_STRESS_RINGS_SECS:-30}
stream_start --bidir
flood_start
t0=$SECONDS deadline=$((SECONDS + bound)) i=0 err=
while [ "$i" -lt "$want" ] && [ "$SECONDS" -lt "$deadline" ]; do
	r=${sizes[$((i % ${#sizes[@]}))]} t=${sizes[$(((i + 3) % ${#sizes[@]}))]}
	ethtool -G "$NIC_A" rx "$r" tx "$t" || { err="-G rx $r tx $t failed"; break; }
	i=$((i + 1))
done
ethtool -G "$NIC_A" rx 256 tx 256
note="iperf3 connection survived"
stream_alive || { err=${err:-"iperf3 connection lost"}; note=; }
# pktgen first: stream_stop waits for every background job.
flood_stop
stream_stop
note+="${note:+, }$FLOOD_NOTE" err=${err:-$FLOOD_ERR}
phase_result "ethtool -G changes" "$i" "$want" $((SECONDS - t0)) "$bound" "$err" "$note"
data_check "ethtool -G"

want=${RONIC_STRESS_CHANNELS:-100} bound=${RONIC_STRESS_CHANNELS_SECS:-30}
stream_start --bidir
flood_start
t0=$SECONDS deadline=$((SECONDS + bound)) i=0 err=
while [ "$i" -lt "$want" ] && [ "$SECONDS" -lt "$deadline" ]; do
	c=$((i % NQ + 1))
	ethtool -L "$NIC_A" combined "$c" || { err="-L combined $c failed"; break; }
	i=$((i + 1))
done
ethtool -L "$NIC_A" combined "$NQ"
note="iperf3 connection survived"
stream_alive || { err=${err:-"iperf3 connection lost"}; note=; }
# pktgen first: stream_stop waits for every background job.
flood_stop
stream_stop
note+="${note:+, }$FLOOD_NOTE" err=${err:-$FLOOD_ERR}
phase_result "ethtool -L changes (1..$NQ)" "$i" "$want" $((SECONDS - t0)) "$bound" "$err" "$note"
data_check "ethtool -L"

# ---------------------------------------------------------------- MTU
# A's MTU stays within the peer's 9000, the stream A -> B only (frames
# from B above A's MTU would be dropped).
mtus=(9000 1280 4000 1500 2000 9000 1500)
want=${RONIC_STRESS_MTU:-28} bound=${RONIC_STRESS_MTU_SECS:-20}
ip -n "$PEER_NS" link set dev "$NIC_B" mtu 9000
stream_start
flood_start
t0=$SECONDS deadline=$((SECONDS + bound)) i=0 err=
while [ "$i" -lt "$want" ] && [ "$SECONDS" -lt "$deadline" ]; do
	m=${mtus[$((i % ${#mtus[@]}))]}
	ip link set dev "$NIC_A" mtu "$m" || { err="MTU $m failed"; break; }
	i=$((i + 1))
done
ip link set dev "$NIC_A" mtu 1500
note="iperf3 connection survived"
stream_alive || { err=${err:-"iperf3 connection lost"}; note=; }
# pktgen first: stream_stop waits for every background job.
flood_stop
stream_stop
note+="${note:+, }$FLOOD_NOTE" err=${err:-$FLOOD_ERR}
ip -n "$PEER_NS" link set dev "$NIC_B" mtu 1500
works && ping -q -c 3 -i 0.2 -M "do" -s 1472 "$ADDR_B4" > /dev/null ||
	err=${err:-"no full-size ping after the MTU changes"}
phase_result "MTU changes (1280..9000)" "$i" "$want" $((SECONDS - t0)) "$bound" "$err" "$note"
data_check "MTU changes"

# ---------------------------------------------------------------- flaps
# The host (tests/t-stress.sh) flaps nic0; each flap must show as one
# carrier loss here. The link is off for 0.4 s, shorter than the 2 s
# watchdog poll: only the link-change interrupt sees every flap (before
# the other-causes vector auto-cleared in EICR, the poll alone did).
want=${RONIC_STRESS_FLAPS:-100} off_ms=${RONIC_STRESS_FLAP_OFF_MS:-400} on_ms=${RONIC_STRESS_FLAP_ON_MS:-800}
stream_start --bidir
down0=$(cat "/sys/class/net/$NIC_A/carrier_down_count")
rm -f "$RONIC_RESULTS/flap.done"
t0=$SECONDS err=
echo "$want $off_ms $on_ms nic0" > "$RONIC_RESULTS/flap.tmp" &&
	mv "$RONIC_RESULTS/flap.tmp" "$RONIC_RESULTS/flap.req"
bound=$((want * (off_ms + on_ms + 200) / 1000 + 30))
wait_until "$bound" test -e "$RONIC_RESULTS/flap.done" || err="host flapper did not finish in $bound s"
flaps=$(cat "$RONIC_RESULTS/flap.done" 2>/dev/null || echo 0)
works || err=${err:-"no carrier or ping after the flaps"}
down=$(($(cat "/sys/class/net/$NIC_A/carrier_down_count") - down0))
[ "$down" -eq "$flaps" ] || err=${err:-"$down carrier losses seen for $flaps flaps"}
note="each seen as a carrier loss"
if stream_alive; then
	note+=", iperf3 connection survived"
else
	note+=", iperf3 connection did not survive"
fi
stream_stop
phase_result "link flaps from the QEMU monitor" "$flaps" "$want" $((SECONDS - t0)) "$bound" "$err" "$note"
data_check "link flaps"

# ---------------------------------------------------------------- tx hang
txq_packets() {
	stat_of "tx$1_packets"
}

tx_timeouts() {
	stat_of tx_timeouts
}

# tx_hang_phase: freeze the tail of the last stack queue while pktgen
# sends on it from A; the queue fills and stops, the stack's watchdog must
# call ndo_tx_timeout, and its reset bring the queue back: pktgen's frames
# flow on it again and the iperf3 stream on whichever queue it uses
# resumes. pktgen, unlike a socket, keeps the queue full: a stalled TCP
# flow backs off, and a UDP socket gives up on the peer's ICMP errors.
tx_hang_phase() {
	local hang=/sys/kernel/debug/ronic/$BDF_A/tx_hang_queue
	local q=$((NQ - 1)) err='' note='' t0 to0 to1 t_to0 t_to1 p0 p1 secs
	local sysq=/sys/class/net/$NIC_A/queues/tx-$q/tx_timeout

	stream_start
	t_to0=$(cat "$sysq")
	to0=$(tx_timeouts)
	dm0=$(dmesg | wc -l)
	t0=$SECONDS
	if echo "$q" > "$hang"; then
		# The one stack watchdog report of the boot is this one.
		expect_reports 1 'NETDEV WATCHDOG|transmit queue [0-9]+ timed out'
		[ "$(cat "$hang")" = "$q" ] || err="tx_hang_queue reads '$(cat "$hang")'"
		pktgen_start "" "$NIC_A" "$ADDR_B4" \
			"$(in_ns "$PEER_NS" cat "/sys/class/net/$NIC_B/address")" "$q"
		wait_until 30 dmesg_has "transmit queue $q timed out" ||
			err=${err:-"no watchdog timeout on queue $q in 30 s"}
		secs=$((SECONDS - t0))
		wait_until 10 dmesg_has "tx queue $q timed out" ||
			err=${err:-"ndo_tx_timeout did not report queue $q"}
		wait_until 10 sh -c "[ \"\$(cat $hang)\" = none ]" ||
			err=${err:-"freeze not cleared by the reset"}
		# The reset drops the carrier for a moment, and pktgen stops a
		# device at a carrier loss: start it again on the same queue.
		pktgen_stop ""
		wait_until 20 has_carrier "" "$NIC_A"
		p0=$(txq_packets "$q")
		pktgen_start "" "$NIC_A" "$ADDR_B4" \
			"$(in_ns "$PEER_NS" cat "/sys/class/net/$NIC_B/address")" "$q"
		sleep 2
		pktgen_stop ""
		p1=$(txq_packets "$q")
		[ "$p1" -gt "$p0" ] || err=${err:-"queue $q sent nothing after the reset ($p0 -> $p1)"}
	else
		err="write $q to $hang failed"
	fi
	to1=$(tx_timeouts)
	t_to1=$(cat "$sysq")
	[ $((to1 - to0)) -ge 1 ] && [ $((t_to1 - t_to0)) -ge 1 ] ||
		err=${err:-"tx_timeouts $to0 -> $to1, tx-$q/tx_timeout $t_to0 -> $t_to1"}
	if stream_alive; then note="iperf3 connection resumed"; else err=${err:-"iperf3 connection did not resume"}; fi
	stream_stop
	if echo "$NQ" > "$hang" 2> /dev/null; then
		err=${err:-"queue $NQ (out of range) accepted"}
	fi
	[ "$(cat "$hang")" = none ] || { err=${err:-"queue $NQ was frozen"}; ip link set "$NIC_A" down; ip link set "$NIC_A" up; works; }
	if [ -z "$err" ]; then
		timeouts_recovered=$((timeouts_recovered + to1 - to0))
		pass "stress: forced tx hang on queue $q under pktgen: watchdog timeout in $secs s, $((to1 - to0)) tx_timeouts, reset recovered, pktgen $((p1 - p0)) frames in 2 s after it, $note"
	else
		fail "stress: forced tx hang on queue $q" "$err"
	fi
}

# tx_reporter FIELD: the devlink "tx" health reporter's FIELD (error,
# recover, state, auto_recover) for port A.
tx_reporter() {
	devlink -j health show "pci/$BDF_A" reporter tx |
		jq -r ".health[\"pci/$BDF_A\"][0].$1"
}

# devlink_tx_phase: the tx hang above went to devlink's "tx" reporter
# (counted, dumped with the hung queue, recovered); diagnose lists every
# queue; with auto_recover off a second hang is counted but waits, frozen,
# until "devlink health recover" resets the port.
devlink_tx_phase() {
	local hang=/sys/kernel/debug/ronic/$BDF_A/tx_hang_queue q=$((NQ - 1))
	local err='' e0 r0 n out
	[ "$(tx_reporter error)" -ge 1 ] && [ "$(tx_reporter recover)" -ge 1 ] ||
		err="reporter after the hang: error $(tx_reporter error), recover $(tx_reporter recover)"
	out=$(devlink -j health dump show "pci/$BDF_A" reporter tx 2>&1)
	[ "$(echo "$out" | jq -r '.hung_queue' 2>/dev/null)" = "$q" ] ||
		err=${err:-"dump does not name queue $q: $(echo "$out" | head -c 300)"}
	n=$(devlink -j health diagnose "pci/$BDF_A" reporter tx | jq -r '.queues | length')
	[ "$n" = "$NQ" ] || err=${err:-"diagnose lists $n queues, not $NQ"}
	devlink health set "pci/$BDF_A" reporter tx auto_recover false
	e0=$(tx_reporter error)
	r0=$(tx_reporter recover)
	stream_start
	echo "$q" > "$hang"
	expect_reports 1 'NETDEV WATCHDOG|transmit queue [0-9]+ timed out'
	pktgen_start "" "$NIC_A" "$ADDR_B4" \
		"$(in_ns "$PEER_NS" cat "/sys/class/net/$NIC_B/address")" "$q"
	wait_until 30 sh -c "[ \$(devlink -j health show pci/$BDF_A reporter tx | jq -r '.health[\"pci/$BDF_A\"][0].error') -gt $e0 ]" ||
		err=${err:-"auto_recover off: no second error counted"}
	# Long enough to see a recovery that should not come, well inside the
	# watchdog's next report (5 s), which the plan does not expect.
	sleep 0.5
	[ "$(cat "$hang")" = "$q" ] && [ "$(tx_reporter recover)" = "$r0" ] ||
		err=${err:-"auto_recover off: recovered anyway (freeze $(cat "$hang"), recover $r0 -> $(tx_reporter recover))"}
	devlink health recover "pci/$BDF_A" reporter tx ||
		err=${err:-"devlink health recover failed"}
	wait_until 10 sh -c "[ \"\$(cat $hang)\" = none ]" ||
		err=${err:-"devlink health recover did not reset the port"}
	[ "$(tx_reporter recover)" -gt "$r0" ] ||
		err=${err:-"recover count $r0 -> $(tx_reporter recover)"}
	pktgen_stop ""
	devlink health set "pci/$BDF_A" reporter tx auto_recover true
	wait_until 20 has_carrier "" "$NIC_A"
	stream_alive || err=${err:-"iperf3 connection did not resume after devlink health recover"}
	stream_stop
	if [ -z "$err" ]; then
		timeouts_recovered=$((timeouts_recovered + 1))
		pass "stress: devlink tx reporter: hang counted, dumped (queue $q), diagnosed ($n queues); auto_recover off holds a second one until devlink health recover resets the port"
	else
		fail "stress: devlink tx reporter" "$err"
	fi
}

tx_hang_phase
devlink_tx_phase
data_check "tx hang"

# ---------------------------------------------------------------- tx 64
# Issue 14: the smallest tx ring under TSO frames of many fragments.
# sendfile(2) gives a TCP frame a fragment per page of the file, so a
# 64 KB TSO frame takes about 19 descriptors of the 64; with BQL (on by
# default) the qdisc hands frames over in xmit_more batches whose tail
# write the batch's last frame carries. TCP sizes a TSO frame to about a
# millisecond of its rate, a few KB here: tcp_min_tso_segs 64 makes every
# frame as large as the stack allows. Four iperf3 -Z (sendfile) streams
# A -> B and the data file sent A -> B by sendfile, sha256-checked at B,
# for TXFRAGS_SECS. No frame may be refused for want of descriptors
# (txN_busy: the queue must have stopped before), and no queue may time
# out (a refused frame that ended a batch left the batch unsent until the
# watchdog's reset).

# sendfile_check FILE PORT: FILE from A to B by sendfile(2) (Python's
# socket.sendfile; a send stalled for 60 s fails); status 0 when the
# sha256 of what B received matches FILE.sha256.
sendfile_check() {
	local file=$1 port=$2 want got spid
	want=$(cut -d' ' -f1 "$file.sha256")
	rm -f /tmp/rx-sf.sha
	in_ns "$PEER_NS" sh -c "socat -u TCP-LISTEN:$port,bind=$ADDR_B4,reuseaddr - |
		sha256sum > /tmp/rx-sf.sha" &
	spid=$!
	wait_until 10 sh -c "ip netns exec $PEER_NS ss -Hltn 'sport = :$port' | grep -q ."
	timeout 300 python3 -c 'import socket, sys
with socket.create_connection((sys.argv[1], int(sys.argv[2])), 10) as s, \
     open(sys.argv[3], "rb") as f:
    s.settimeout(60)
    s.sendfile(f)' "$ADDR_B4" "$port" "$file"
	wait "$spid"
	got=$(cut -d' ' -f1 /tmp/rx-sf.sha 2>/dev/null)
	[ "$got" = "$want" ] && return 0
	log "sendfile sha256 mismatch: file $want, at B ${got:-none}"
	return 1
}

# tcp_snmp FIELD: the root namespace's Tcp: counter FIELD (OutSegs, ...).
tcp_snmp() {
	awk -v f="$1" '/^Tcp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == f) c = i; h = 1 }
		else { print $c; exit } }' /proc/net/snmp
}

# tx_frags_phase: every finding goes into TXF_ERR (txf_err WHY adds one).
TXF_ERR=''
txf_err() {
	TXF_ERR+="${TXF_ERR:+; }$1"
}

tx_frags_phase() {
	local secs=${RONIC_STRESS_TXFRAGS_SECS:-20} note ring0 t0 segs0
	local busy0 busy1 to0 to1 tso0 tso1 d0 d1 sent=0 per_frame
	local out0 out1 re0 re1

	TXF_ERR=''
	ring0=$(ring_size "$NIC_A" TX)
	segs0=$(sysctl -n net.ipv4.tcp_min_tso_segs)
	sysctl -qw net.ipv4.tcp_min_tso_segs=64 || txf_err "tcp_min_tso_segs 64 refused"
	ethtool -K "$NIC_A" tso on > /dev/null || txf_err "ethtool -K tso on failed"
	ethtool -G "$NIC_A" tx 64 || txf_err "ethtool -G tx 64 failed"
	[ "$(ring_size "$NIC_A" TX)" = 64 ] || txf_err "tx ring is $(ring_size "$NIC_A" TX), not 64"
	[ -d "/sys/class/net/$NIC_A/queues/tx-0/byte_queue_limits" ] ||
		txf_err "no BQL on $NIC_A"
	works || txf_err "no ping with a 64-descriptor tx ring"
	busy0=$(txq_sum busy) to0=$(tx_timeouts)
	tso0=$(txq_sum tso) d0=$(txq_sum descs)
	out0=$(tcp_snmp OutSegs) re0=$(tcp_snmp RetransSegs)
	dm0=$(dmesg | wc -l)
	t0=$SECONDS
	stream_start -Z -P 4
	while [ -z "$TXF_ERR" ] && [ $((SECONDS - t0)) -lt "$secs" ]; do
		sendfile_check "$DATA" 5321 && sent=$((sent + DATA_MB)) ||
			txf_err "sendfile of $DATA_MB MiB: sha256 mismatch or transfer failed"
	done
	stream_alive || txf_err "iperf3 -Z streams stalled"
	stream_stop
	sysctl -qw net.ipv4.tcp_min_tso_segs="$segs0"
	busy1=$(txq_sum busy) to1=$(tx_timeouts)
	tso1=$(txq_sum tso) d1=$(txq_sum descs)
	out1=$(tcp_snmp OutSegs) re1=$(tcp_snmp RetransSegs)
	per_frame=$(((d1 - d0) / (tso1 - tso0 > 0 ? tso1 - tso0 : 1)))
	[ "$busy1" -eq "$busy0" ] || txf_err "txN_busy grew by $((busy1 - busy0))"
	[ "$to1" -eq "$to0" ] || txf_err "tx_timeouts grew by $((to1 - to0))"
	! dmesg_has "timed out" ||
		txf_err "$(dmesg | tail -n +"$((dm0 + 1))" | grep -m1 -o 'transmit queue.*timed out.*')"
	# The frames were the ones this is about: many descriptors each.
	[ "$per_frame" -ge 10 ] || txf_err "only $per_frame descriptors per TSO frame"
	# Lost frames shrink the congestion window and the frames with it;
	# without loss this retransmits 0.2% at most here.
	[ $(((re1 - re0) * 100)) -le $((out1 - out0)) ] ||
		txf_err "TCP retransmitted $((re1 - re0)) of $((out1 - out0)) segments: frames lost"
	ethtool -G "$NIC_A" tx "$ring0" || txf_err "ethtool -G tx $ring0 failed"
	works || txf_err "no ping after tx ring $ring0 again"
	note="$((tso1 - tso0)) TSO frames, $per_frame descriptors each on average, TCP retransmitted $((re1 - re0)) of $((out1 - out0)) segments, $sent MiB by sendfile sha256-checked at B"
	if [ -z "$TXF_ERR" ]; then
		bytes_checked=$((bytes_checked + sent * 1048576))
		pass "stress: tx ring 64 under iperf3 -Z and sendfile for $((SECONDS - t0)) s: no txN_busy, no tx timeout, $note"
	else
		fail "stress: tx ring 64 under iperf3 -Z and sendfile" "$TXF_ERR; $note"
	fi
}

tx_frags_phase
data_check "tx ring 64"

# ---------------------------------------------------------------- reload
# No stream survives an rmmod: a ping every 10 cycles, the data at the end.
want=${RONIC_STRESS_RELOADS:-100} bound=${RONIC_STRESS_RELOADS_SECS:-70}
t0=$SECONDS deadline=$((SECONDS + bound)) i=0 err=
while [ "$i" -lt "$want" ] && [ "$SECONDS" -lt "$deadline" ]; do
	unload_driver ronic 60 || { err="cycle $i: rmmod failed"; break; }
	modprobe ronic || { err="cycle $i: modprobe failed"; break; }
	wait_until 20 nic_netdev "$BDF_A" > /dev/null || { err="cycle $i: no netdev"; break; }
	NIC_A=$(nic_netdev "$BDF_A")
	i=$((i + 1))
	[ $((i % 10)) = 0 ] || [ "$i" -ge "$want" ] || [ "$SECONDS" -ge "$deadline" ] || continue
	ip addr add "$ADDR_A4/$PREFIX4" dev "$NIC_A" &&
		ip link set dev "$NIC_A" up && works || { err="cycle $i: no ping after reload"; break; }
done
note="a ping every 10 cycles"
phase_result "rmmod/modprobe cycles" "$i" "$want" $((SECONDS - t0)) "$bound" "$err" "$note"
ip addr add "$ADDR_A6/$PREFIX6" dev "$NIC_A" nodad 2>/dev/null
data_check "reload cycles"

# ---------------------------------------------------------------- summary
reports=$(dmesg | grep -cE 'WARNING:|BUG:|Oops|KASAN|UBSAN|DMA-API|lockdep|refcount_t:')
held "stress: cycles survived: $cycles_total"
held "stress: bytes checked by sha256: $bytes_checked ($((bytes_checked / 1048576)) MiB)"
held "stress: tx timeouts recovered: $timeouts_recovered"
held "stress: kernel reports found: $reports"
[ "$reports" = 0 ] && pass "stress: no kernel report in dmesg" || fail "stress: kernel reports" "$reports"

pair_down
finish
