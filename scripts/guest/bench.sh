#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of scripts/bench.sh: one boot measures the parts listed in
# RONIC_BENCH_PARTS (tcp, udp, ro, xdp, xdpfrags, xsk, xdplock, insn,
# netperf) and
# appends one line per measurement
# to $RONIC_RESULTS/bench.tsv:  part  case  driver  round  value  unit
#
#   tcp  iperf3 TCP tx and rx (one stream), tx with 4 streams and both
#        ways at once (--bidir), ronic<->ronic against igb<->igb
#   udp  the port under test (ronic or igb) against an igb peer: pktgen
#        60-byte frames sent a second and received a second, and its DMA
#        map calls per received frame, per TCP frame sent and per small
#        frame sent (kprobes)
#   ro   iperf3 TCP tx, ronic<->ronic, for the four pci_ro_read/pci_ro_write
#        combinations (the ratio is to both flags off)
#   xdp  XDP_DROP rx pps and XDP_TX pps of the port under test (ronic or
#        igb) with pktgen 64-byte frames from an igb peer; drops counted by
#        the program itself (the same for both drivers), XDP_TX as frames
#        back at the peer
#   xdpfrags  ronic alone (igb has no multi-buffer XDP): XDP_DROP pps of a
#        multi-buffer (xdp.frags) program under 9000-byte frames at MTU
#        9000 (five 2 KB buffers a frame), beside 64-byte frames' XDP_DROP
#        in the same rounds
#   xsk  AF_XDP rxdrop, txpush and l2fwd pps: ronic zero-copy, ronic and
#        igb copy mode
#   xdplock  ronic's XDP_TX pps with one XDP ring per CPU (lock-free)
#        against both CPUs sharing one (debugfs xdp_rings_cap 1: the
#        static key on, the ring's lock taken for every frame), in the same
#        boot: pktgen frames of 64 flows from an igb peer spread by RSS over
#        both queues, each queue's vector on its own CPU (bench_pair)
#   insn guest instructions (QEMU's plugin, vm.sh --insn-count) per KiB of
#        TCP payload (tx, rx, tx with 4 streams) and per 60-byte frame
#        (pktgen UDP tx and rx, XDP_DROP, XDP_TX, an AF_XDP rxdrop socket
#        in copy mode and, for ronic, zero-copy), in all and inside the
#        driver's .text; both ports on the driver under test (ronic<->ronic
#        against igb<->igb), so each end's work is the same driver's
#   insnprof  where the instructions of a frame case go, for a reading,
#        not a record: for each driver, RONIC_BENCH_INSNPROF (xdp_drop) run
#        as in insn with the plugin's profile on, then the 25 functions of
#        the guest kernel and its modules that executed the most, per frame
#        (needs vm.sh --insn-count; not among scripts/bench.sh's boots:
#        RONIC_XDP_OBJ=$(tests/xdp/build.sh) RONIC_BENCH_PARTS=insnprof
#        RONIC_BENCH_SECONDS=5 scripts/vm.sh --insn-count --name insnprof
#        -- scripts/guest/bench.sh)
#   netperf  netperf's TCP_STREAM and TCP_MAERTS (Mbit/s), TCP_RR and
#        UDP_RR (transactions a second, and the P50 and P99 latency in
#        microseconds of its omni output), ronic<->ronic against igb<->igb
#
# The drivers and set-ups take turns, the one first changing every round
# (ABBA), for RONIC_BENCH_ROUNDS (5) rounds of RONIC_BENCH_SECONDS (10),
# so a slow spell of the host hits both sides; rates are over the window
# measured. Each boot also records both drivers' settings (setup.tsv).
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 1

parts=${RONIC_BENCH_PARTS:-tcp,ro,xdp}
rounds=${RONIC_BENCH_ROUNDS:-5}
secs=${RONIC_BENCH_SECONDS:-10}
obj=${RONIC_XDP_OBJ:-}
tsv=$RONIC_RESULTS/bench.tsv
measured=0
NETPERF_PORT=12865

record() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$tsv"
	log "bench: $*"
	measured=$((measured + 1))
}

# drivers_abba ROUND: igb and ronic, the one measured first changing each
# round, so a slow spell of the host does not always hit the same side.
drivers_abba() {
	if (($1 % 2)); then echo igb ronic; else echo ronic igb; fi
}

# per_second COUNT NS: COUNT over the measured window of NS nanoseconds.
per_second() {
	echo $(($1 * 1000000000 / ($2 > 0 ? $2 : 1)))
}

# bench_pair DRV_A DRV_B: pair_up, then both NICs' interrupts pinned the
# same way whatever the driver: the first vector (link and other causes)
# on CPU 0, queue vector k on CPU (k - 1) modulo the CPUs. igb leaves its
# affinity to the kernel's default and ronic spreads its own; pinned, the
# parts compare drivers, not placements.
bench_pair() {
	local b irq i c
	pair_up "$1" "$2" || return 1
	for b in "$BDF_A" "$BDF_B"; do
		i=0
		for irq in $(printf '%s\n' "/sys/bus/pci/devices/$b"/msi_irqs/* | sed 's|.*/||' | sort -n); do
			[ -e "/proc/irq/$irq" ] || continue
			c=$((i ? (i - 1) % $(nproc) : 0))
			echo "$c" > "/proc/irq/$irq/smp_affinity_list" 2>/dev/null
			i=$((i + 1))
		done
	done
}

has_part() {
	case ",$parts," in *",$1,"*) return 0 ;; esac
	return 1
}

tcp_part() {
	local r drv m
	for r in $(seq "$rounds"); do
		for drv in $(drivers_abba "$r"); do
			bench_pair "$drv" "$drv" || { log "tcp: pair_up $drv failed"; continue; }
			m=$(iperf_tcp root "$PEER_NS" "$secs") &&
				record tcp tcp_tx "$drv" "$r" "$m" Mbit/s
			m=$(iperf_tcp "$PEER_NS" root "$secs") &&
				record tcp tcp_rx "$drv" "$r" "$m" Mbit/s
			m=$(iperf_tcp root "$PEER_NS" "$secs" -P 4) &&
				record tcp tcp_tx4 "$drv" "$r" "$m" Mbit/s
			m=$(iperf_tcp root "$PEER_NS" "$secs" --bidir) &&
				record tcp tcp_bidir "$drv" "$r" "$m" Mbit/s
		done
	done
}

# udp_part: port A's driver against an igb peer (dma_map_rates): pktgen's
# 60-byte frames sent a second and received a second (reaching the UDP
# stack), and A's DMA map calls per TCP frame received and sent and per
# small frame sent, counted by kprobes.
udp_part() {
	local r drv
	dma_maps_start || { log "udp: no DMA map probes"; return; }
	for r in $(seq "$rounds"); do
		for drv in $(drivers_abba "$r"); do
			dma_map_rates "$drv" "$secs" "rx ttx tx srx" ||
				{ log "udp: $drv failed"; continue; }
			record udp udp_tx_pps "$drv" "$r" "$TX_PPS" frames/s
			record udp udp_rx_pps "$drv" "$r" "$RX_PPS" frames/s
			record udp maps_rx "$drv" "$r" "$RX_RATE" maps/frame
			record udp maps_tcp_tx "$drv" "$r" "$TCP_TX_RATE" maps/frame
			record udp maps_tx_small "$drv" "$r" "$TX_RATE" maps/frame
		done
	done
	dma_maps_stop
}

# set_ro NS DEV READ WRITE
set_ro() {
	in_ns "$1" ethtool --set-priv-flags "$2" pci_ro_read "$3" pci_ro_write "$4"
}

ro_part() {
	local r combo rd wr m
	bench_pair ronic ronic || { log "ro: pair_up failed"; return; }
	for r in $(seq "$rounds"); do
		for combo in off-off on-off off-on on-on; do
			rd=${combo%-*} wr=${combo#*-}
			if ! set_ro "" "$NIC_A" "$rd" "$wr" ||
			   ! set_ro "$PEER_NS" "$NIC_B" "$rd" "$wr"; then
				log "ro: cannot set $combo"
				continue
			fi
			wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4" > /dev/null
			m=$(iperf_tcp root "$PEER_NS" "$secs") &&
				record ro "ro_read_${rd}_write_$wr" ronic "$r" "$m" Mbit/s
		done
	done
	set_ro "" "$NIC_A" off off
	set_ro "$PEER_NS" "$NIC_B" off off
}

# bench_count: the frames the counting program on port A saw so far, over
# all CPUs (its map found through the attached program: an earlier
# program's map may still be around).
bench_count() {
	local prog map
	prog=$(ip -j link show dev "$NIC_A" | jq -r '.[0].xdp.prog.id // empty')
	map=$(bpftool -j prog show id "${prog:-0}" 2>/dev/null | jq -r '.map_ids[0] // empty')
	# Without BTF bpftool shows each value as little-endian hex bytes.
	bpftool -j map dump id "${map:-0}" 2>/dev/null | python3 -c '
import json, sys
def num(v):
    return v if isinstance(v, int) else int.from_bytes(bytes(int(b, 16) for b in v), "little")
try:
    print(sum(num(c["value"]) for c in json.load(sys.stdin)[0]["values"]))
except (ValueError, LookupError, TypeError):
    print(0)'

}

peer_rx() {
	ip netns exec "$PEER_NS" cat "/sys/class/net/$NIC_B/statistics/rx_packets"
}

# shellcheck disable=SC2317 # called through insn_case
peer_tx() {
	ip netns exec "$PEER_NS" cat "/sys/class/net/$NIC_B/statistics/tx_packets"
}

# xdp_rate DRV PROG: frames per second over $secs with PROG on port A.
xdp_rate() {
	local prog=$1 c0 c1 p0 p1 t0 t1 out
	if ! out=$(ip link set dev "$NIC_A" xdpdrv obj "$obj" program "$prog" 2>&1); then
		log "xdp: attach $prog on $DRV_A: $out"
		return 1
	fi
	pktgen_peer_to_a 0 || return 1
	sleep 2
	c0=$(bench_count) p0=$(peer_rx) t0=$(date +%s%N)
	sleep "$secs"
	c1=$(bench_count) p1=$(peer_rx) t1=$(date +%s%N)
	pktgen_stop "$PEER_NS"
	ip link set dev "$NIC_A" xdpdrv off
	# Over the window measured, not the nominal seconds: the counter
	# reads take their own time under TCG.
	if [ "$prog" != xdp_tx_count ]; then
		per_second $((c1 - c0)) $((t1 - t0))
	else
		per_second $((p1 - p0)) $((t1 - t0))
	fi
}

# xdp_frags_rate: xdp_rate of a multi-buffer XDP_DROP (xdp.frags) program
# under 9000-byte frames, both ports at MTU 9000 (ronic only: igb has no
# multi-buffer XDP).
xdp_frags_rate() {
	local m
	pair_mtu 9000 || return 1
	m=$(PKTGEN_SIZE=9000 xdp_rate xdp_drop_frags_count)
	pair_mtu 1500
	echo "$m"
}

# pair_mtu MTU: both ports at MTU, their links back (igb resets for it).
pair_mtu() {
	ip link set dev "$NIC_A" mtu "$1" &&
		in_ns "$PEER_NS" ip link set dev "$NIC_B" mtu "$1" &&
		wait_until 20 has_carrier "" "$NIC_A" &&
		wait_until 20 has_carrier "$PEER_NS" "$NIC_B"
}

xdp_part() {
	local r drv m
	[ -n "$obj" ] || { log "xdp: no test programs (RONIC_XDP_OBJ)"; return; }
	for r in $(seq "$rounds"); do
		for drv in $(drivers_abba "$r"); do
			bench_pair "$drv" igb || { log "xdp: pair_up $drv failed"; continue; }
			m=$(xdp_rate xdp_drop_count) && [ "$m" -gt 0 ] &&
				record xdp xdp_drop "$drv" "$r" "$m" pps
			m=$(xdp_rate xdp_tx_count) && [ "$m" -gt 0 ] &&
				record xdp xdp_tx "$drv" "$r" "$m" pps
		done
	done
}

xdpfrags_part() {
	local r m
	[ -n "$obj" ] || { log "xdpfrags: no test programs (RONIC_XDP_OBJ)"; return; }
	bench_pair ronic igb || { log "xdpfrags: pair_up failed"; return; }
	for r in $(seq "$rounds"); do
		m=$(xdp_frags_rate) && [ "$m" -gt 0 ] &&
			record xdpfrags xdp_drop_frags ronic "$r" "$m" pps
		m=$(xdp_rate xdp_drop_count) && [ "$m" -gt 0 ] &&
			record xdpfrags xdp_drop_60 ronic "$r" "$m" pps
	done
}

# xsk_pps MODE FLAG: the pps of an AF_XDP socket of MODE (rxdrop, l2fwd,
# txpush) bound with FLAG (-z, -c) on port A's queue 0 for $secs; rx
# modes under a pktgen flood from the peer.
xsk_pps() {
	local mode=$1 flag=$2 out
	if [ "$mode" != txpush ]; then
		pktgen_peer_to_a 0 || return 1
		sleep 1
	fi
	out=$("${obj%/*}/xsk_tool" -i "$NIC_A" -q 0 -m "$mode" "$flag" -t "$secs" \
		-n 1000000000 2> /dev/null)
	[ "$mode" = txpush ] || pktgen_stop "$PEER_NS"
	xsk_result pps <<< "$out"
}

# xsk_result FIELD: FIELD (rx, pps, ...) of the last "xsk_tool ..." line of
# the tool's output on stdin.
xsk_result() {
	sed -n "s/^xsk_tool .* $1=\([0-9]*\).*/\1/p" | tail -1
}

xsk_part() {
	local r drv flag mode m label
	[ -n "$obj" ] || { log "xsk: no test programs (RONIC_XDP_OBJ)"; return; }
	for r in $(seq "$rounds"); do
		# ABBA: the driver measured first changes every round.
		for drv in $(drivers_abba "$r"); do
			bench_pair "$drv" igb || { log "xsk: pair_up $drv failed"; continue; }
			ethtool -X "$NIC_A" equal 1
			for flag in -z -c; do
				[ "$drv" = ronic ] || [ "$flag" = -c ] || continue
				label=$drv-$([ "$flag" = -z ] && echo zc || echo copy)
				for mode in rxdrop txpush l2fwd; do
					m=$(xsk_pps "$mode" "$flag") && [ "${m:-0}" -gt 0 ] &&
						record xsk "xsk_$mode" "$label" "$r" "$m" pps
				done
			done
		done
	done
}

# xdp_tx_pps_capped CAP: XDP_TX frames a second back at the peer with at
# most CAP XDP rings on port A (0: one per CPU), and how many A queued
# under a ring's lock meanwhile ("PPS LOCKED").
xdp_tx_pps_capped() {
	local cap=$1 p0 p1 l0 l1 t0 t1
	echo "$cap" > "/sys/kernel/debug/ronic/$BDF_A/xdp_rings_cap" || return 1
	ip link set dev "$NIC_A" down && ip link set dev "$NIC_A" up || return 1
	wait_until 20 has_carrier "" "$NIC_A" || return 1
	ip link set dev "$NIC_A" xdpdrv obj "$obj" program xdp_tx_count > /dev/null 2>&1 || return 1
	pktgen_start "$PEER_NS" "$NIC_B" "$ADDR_A4" "$(cat "/sys/class/net/$NIC_A/address")" "" 0 64
	sleep 2
	p0=$(peer_rx) l0=$(stat_sum 'xdp[0-9]+_xdp_locked') t0=$(date +%s%N)
	sleep "$secs"
	p1=$(peer_rx) l1=$(stat_sum 'xdp[0-9]+_xdp_locked') t1=$(date +%s%N)
	pktgen_stop "$PEER_NS"
	ip link set dev "$NIC_A" xdpdrv off
	echo "$(per_second $((p1 - p0)) $((t1 - t0))) $((l1 - l0))"
}

xdplock_part() {
	local r cap pps locked
	[ -n "$obj" ] || { log "xdplock: no test programs (RONIC_XDP_OBJ)"; return; }
	bench_pair ronic igb || { log "xdplock: pair_up failed"; return; }
	[ -e "/sys/kernel/debug/ronic/$BDF_A/xdp_rings_cap" ] ||
		{ log "xdplock: no debugfs xdp_rings_cap"; return; }
	for r in $(seq "$rounds"); do
		for cap in $( ((r % 2)) && echo 0 1 || echo 1 0); do
			read -r pps locked <<< "$(xdp_tx_pps_capped "$cap")" || continue
			[ "${pps:-0}" -gt 0 ] || continue
			record xdplock "xdp_tx_cap$cap" ronic "$r" "$pps" pps
			record xdplock "xdp_locked_cap$cap" ronic "$r" "$locked" frames
		done
	done
	echo 0 > "/sys/kernel/debug/ronic/$BDF_A/xdp_rings_cap"
}

# ------------------------------------------------------------ insn

# insn_case CASE CMD...: the guest instructions CMD cost per unit of work
# (CMD prints how many units it did), in all and inside the driver's .text
# (insn_range), recorded as CASE and CASE_driver; the units in INSN_UNITS.
insn_case() {
	local c=$1 t0 d0 t1 d1 units
	shift
	rm -f "$INSN_LOSS"
	INSN_UNITS=0
	read -r t0 d0 <<< "$(insn_snap)" || return 1
	units=$("$@") || return 1
	read -r t1 d1 <<< "$(insn_snap)" || return 1
	[ "${units:-0}" -gt 0 ] || { log "insn: $c: no work done"; return 1; }
	INSN_UNITS=$units
	record insn "$c" "$DRV_A" "$ROUND" $(((t1 - t0) / units)) insn
	record insn "${c}_driver" "$DRV_A" "$ROUND" $(((d1 - d0) / units)) insn
	[ ! -s "$INSN_LOSS" ] || record insn "${c}_loss" "$DRV_A" "$ROUND" "$(cat "$INSN_LOSS")" permille
}

# tcp_kib FROM TO ARGS...: an iperf3 run of $secs; the KiB of payload.
# shellcheck disable=SC2317 # called through insn_case
tcp_kib() {
	local m
	m=$(iperf_tcp "$1" "$2" "$secs" "${@:3}") || return 1
	awk -v m="$m" -v s="$secs" 'BEGIN { printf "%d\n", m * 1e6 * s / 8 / 1024 }'
}

# The frame cases offer a fixed rate that both drivers carry, and count
# the frames that reached the far end: a frame lost to an overrun costs
# the sender's work and none of the receiver's, and the two drivers lose
# differently, so a flood's instructions per frame measure its losses
# (two runs of one case differed 3x). pktgen sends bursts of
# PKTGEN_BURST (16) frames every PKTGEN_BURST / RONIC_BENCH_INSN_PPS s:
# more than 100 us apart, so it sleeps
# between bursts instead of spinning. The share lost goes to the record
# as CASE_loss (per mille).
insn_pps=${RONIC_BENCH_INSN_PPS:-50000}
insn_delay=$((PKTGEN_BURST * 1000000000 / insn_pps))
INSN_LOSS=/tmp/insn-loss

# frames_reached SENT REACHED: REACHED, after writing the loss to $INSN_LOSS.
# shellcheck disable=SC2317 # called through insn_case
frames_reached() {
	echo $((($1 - $2) * 1000 / ($1 > 0 ? $1 : 1))) > "$INSN_LOSS"
	echo "$2"
}

# a_tx_frames: pktgen from A to the peer for $secs; the frames the peer
# received.
# shellcheck disable=SC2317 # called through insn_case
a_tx_frames() {
	local s0 s1 r0 r1
	read -r s0 < "/sys/class/net/$NIC_A/statistics/tx_packets"
	r0=$(peer_rx)
	pktgen_start "" "$NIC_A" "$ADDR_B4" "$(in_ns "$PEER_NS" cat "/sys/class/net/$NIC_B/address")" \
		"" "$insn_delay"
	sleep "$secs"
	pktgen_stop ""
	sleep 0.5
	read -r s1 < "/sys/class/net/$NIC_A/statistics/tx_packets"
	r1=$(peer_rx)
	frames_reached $((s1 - s0)) $((r1 - r0))
}

# a_rx_count PROG: the counter a_rx_frames reads for PROG.
# shellcheck disable=SC2317 # called through insn_case
a_rx_count() {
	case $1 in
	'') cat "/sys/class/net/$NIC_A/statistics/rx_packets" ;;
	xdp_drop_count) bench_count ;;
	*) peer_rx ;;
	esac
}

# a_rx_frames [PROG]: pktgen from the peer to A for $secs, PROG (an XDP
# program) on A if given; the frames A received, those PROG counted, or
# for xdp_tx_count those back at the peer.
# shellcheck disable=SC2317 # called through insn_case
a_rx_frames() {
	local prog=${1:-} c0 c1 s0 s1
	if [ -n "$prog" ] &&
	   ! ip link set dev "$NIC_A" xdpdrv obj "$obj" program "$prog" > /dev/null 2>&1; then
		log "insn: attach $prog failed"
		return 1
	fi
	c0=$(a_rx_count "$prog") s0=$(peer_tx)
	pktgen_peer_to_a "$insn_delay" || return 1
	sleep "$secs"
	pktgen_stop "$PEER_NS"
	sleep 0.5
	c1=$(a_rx_count "$prog") s1=$(peer_tx)
	[ -z "$prog" ] || ip link set dev "$NIC_A" xdpdrv off
	frames_reached $((s1 - s0)) $((c1 - c0))
}

# a_xsk_frames FLAG: an AF_XDP rxdrop socket (xsk_tool, FLAG -z for
# zero-copy or -c for copy mode) on A's queue 0, every flow steered there,
# while the peer sends for $secs; the frames the socket received. The
# socket is bound before the first frame and closed after the last.
# shellcheck disable=SC2317 # called through insn_case
a_xsk_frames() {
	local s0 s1 rx pid
	ethtool -X "$NIC_A" equal 1 || return 1
	"${obj%/*}/xsk_tool" -i "$NIC_A" -q 0 -m rxdrop "$1" -t $((secs + 3)) \
		-n 1000000000 > /tmp/xsk-insn.out 2> /dev/null &
	pid=$!
	sleep 1
	s0=$(peer_tx)
	pktgen_peer_to_a "$insn_delay" || { kill "$pid"; return 1; }
	sleep "$secs"
	pktgen_stop "$PEER_NS"
	s1=$(peer_tx)
	wait "$pid"
	ethtool -X "$NIC_A" default
	rx=$(xsk_result rx < /tmp/xsk-insn.out)
	frames_reached $((s1 - s0)) "${rx:-0}"
}

insn_part() {
	local drv
	insn_snap > /dev/null || { log "insn: no counting plugin (vm.sh --insn-count)"; return; }
	for ROUND in $(seq "$rounds"); do
		for drv in $(drivers_abba "$ROUND"); do
			bench_pair "$drv" "$drv" || { log "insn: pair_up $drv failed"; continue; }
			insn_range "$drv" || { log "insn: no .text range for $drv"; continue; }
			insn_case tcp_tx_kib tcp_kib root "$PEER_NS"
			insn_case tcp_rx_kib tcp_kib "$PEER_NS" root
			insn_case tcp_tx4_kib tcp_kib root "$PEER_NS" -P 4
			insn_case udp_tx_frame a_tx_frames
			insn_case udp_rx_frame a_rx_frames
			[ -z "$obj" ] || insn_case xdp_drop_frame a_rx_frames xdp_drop_count
			[ -z "$obj" ] || insn_case xdp_tx_frame a_rx_frames xdp_tx_count
			[ -z "$obj" ] || insn_case xsk_rxdrop_copy_frame a_xsk_frames -c
			[ -z "$obj" ] || [ "$drv" != ronic ] ||
				insn_case xsk_rxdrop_zc_frame a_xsk_frames -z
		done
	done
}

# insnprof_part: the profile of one frame case per driver, per frame (its
# totals recorded as insn_case does).
insnprof_part() {
	local drv case=${RONIC_BENCH_INSNPROF:-xdp_drop} prog=
	insn_snap > /dev/null || { log "insnprof: no counting plugin (vm.sh --insn-count)"; return; }
	case $case in
	xdp_drop) prog=xdp_drop_count ;;
	xdp_tx) prog=xdp_tx_count ;;
	udp_rx) ;;
	*) log "insnprof: unknown case $case"; return ;;
	esac
	ROUND=1
	for drv in $(drivers_abba "$ROUND"); do
		bench_pair "$drv" "$drv" || { log "insnprof: pair_up $drv failed"; continue; }
		insn_range "$drv" || { log "insnprof: no .text range for $drv"; continue; }
		insn_profile_reset || { log "insnprof: no profile"; return; }
		insn_case "${case}_frame" a_rx_frames $prog || continue
		log "insnprof: $case on $drv, $INSN_UNITS frames; instructions a frame by function:"
		insn_profile "$case-$drv.prof" 25 |
			awk -v n="$INSN_UNITS" '{ $1 = sprintf("%8.1f", $1 / n); print }' |
			while read -r line; do log "  $line"; done
	done
}

# netperf_run TEST SELECTORS: netperf's TEST from A to the peer for $secs,
# its omni output SELECTORS as one comma-separated line.
netperf_run() {
	netperf -H "$ADDR_B4" -p "$NETPERF_PORT" -l "$secs" -t "$1" -P 0 -- -o "$2"
}

netperf_part() {
	local r drv out tps p50 p99 t
	for r in $(seq "$rounds"); do
		# ABBA: the driver measured first changes every round.
		for drv in $(drivers_abba "$r"); do
			bench_pair "$drv" "$drv" || { log "netperf: pair_up $drv failed"; continue; }
			in_ns "$PEER_NS" netserver -L "$ADDR_B4" -p "$NETPERF_PORT" > /dev/null 2>&1
			if ! wait_until 10 iperf_listening "$PEER_NS" "$NETPERF_PORT"; then
				log "netperf: netserver did not start"
				continue
			fi
			for t in TCP_STREAM TCP_MAERTS; do
				out=$(netperf_run "$t" THROUGHPUT) &&
					record netperf "${t,,}" "$drv" "$r" "${out%%.*}" Mbit/s
			done
			for t in TCP_RR UDP_RR; do
				out=$(netperf_run "$t" THROUGHPUT,P50_LATENCY,P99_LATENCY) || continue
				IFS=, read -r tps p50 p99 <<< "$out"
				record netperf "${t,,}" "$drv" "$r" "${tps%%.*}" trans/s
				record netperf "${t,,}_p50" "$drv" "$r" "$p50" us
				record netperf "${t,,}_p99" "$drv" "$r" "$p99" us
			done
			pkill -x netserver
		done
	done
}

# record_setup: each driver's defaults (rings, coalescing, channels, IRQ
# affinity, before bench_pair pins the interrupts) and the tools' versions, into
# $RONIC_RESULTS/setup.txt for the report.
record_setup() {
	local drv irq out=$RONIC_RESULTS/setup.txt
	{
		echo "tools: $(iperf3 --version | head -1); $(netperf -V 2>&1 | head -1);" \
			"$(ethtool --version); $(ip -V)"
		for drv in igb ronic; do
			pair_up "$drv" "$drv" > /dev/null 2>&1 || continue
			echo "$drv: rings $(ethtool -g "$NIC_A" | awk '/^Current/ { c = 1 }
				c && /^(RX|TX):/ { printf "%s %s ", $1, $2 }')"
			echo "$drv: channels $(ethtool -l "$NIC_A" | awk '/^Current/ { c = 1 }
				c && /^Combined:/ { print $2 }')"
			echo "$drv: coalescing $(ethtool -c "$NIC_A" | awk '/^Adaptive|^rx-usecs:|^tx-usecs:/' | tr -s ' \t\n' ' ')"
			for irq in /sys/bus/pci/devices/"$BDF_A"/msi_irqs/*; do
				[ -e "$irq" ] || continue
				printf '%s: IRQ %s on CPUs %s\n' "$drv" "${irq##*/}" \
					"$(cat "/proc/irq/${irq##*/}/smp_affinity_list" 2>/dev/null)"
			done
		done
	} > "$out" 2>&1
}

: > "$tsv"
record_setup
log "bench: parts $parts, $rounds rounds of ${secs}s, $(nproc) CPUs, IOMMU ${RONIC_VM_IOMMU:-0}"
has_part tcp && tcp_part
has_part udp && udp_part
has_part ro && ro_part
has_part xdp && xdp_part
has_part xsk && xsk_part
has_part xdplock && xdplock_part
has_part insn && insn_part
has_part netperf && netperf_part
has_part xdpfrags && xdpfrags_part
has_part insnprof && insnprof_part
pair_down
check "bench: $measured measurements" test "$measured" -gt 0
finish
