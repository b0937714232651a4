#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: ronic against the in-tree igb on the same emulated 82576,
# in the same script run, and bench/report.md with its charts.
#
#   scripts/bench.sh [--out DIR]      (default: <repo>/bench)
#   RONIC_BENCH_ROUNDS=5 RONIC_BENCH_SECONDS=10 scripts/bench.sh
#   RONIC_BENCH_BOOTS="plain smp" scripts/bench.sh   (a subset of the boots)
#   scripts/bench.sh --from results/bench-<timestamp>  (report again from a
#                                                       run's saved figures)
#   RONIC_BENCH_COMMIT=<id>: the commit a copy without .git was made of
#
# Five boots (scripts/guest/bench.sh measures inside each): insn and
# insn_iommu (instructions per unit of work, under the counting plugin,
# plain and with the strict IOMMU), and:
#   plain  2 vCPUs: TCP (1 and 4 streams, both ways), small-frame UDP pps
#          and DMA maps per frame, the four relaxed-ordering flag
#          combinations, XDP_DROP and XDP_TX pps, AF_XDP rxdrop, txpush
#          and l2fwd pps (ronic zero-copy and copy, igb copy), netperf
#          TCP_STREAM, TCP_MAERTS, TCP_RR and UDP_RR (rate, P50 and P99
#          latency), multi-buffer XDP_DROP at MTU 9000 (ronic), the locked
#          XDP rings in one boot
#   iommu  2 vCPUs, emulated intel-iommu in strict mode: TCP, UDP and XDP
#          again
#   smp    72 vCPUs (more CPUs than XDP rings: ronic's locked XDP_TX path):
#          XDP_DROP and XDP_TX pps
# A ratio is the median of ronic's runs over the median of the reference
# runs (igb, or ronic itself for the flag and CPU-count cases); the range
# of the per-round ratios is kept beside it, the machine being noisy.
# Raw figures: DIR/data.tsv; every VM's logs: results/bench-<timestamp>/.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"

out=$top/bench
from=
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--from) from=$(realpath "$2"); shift 2 ;;
	*) echo "usage: scripts/bench.sh [--out DIR] [--from RUN]" >&2; exit 2 ;;
	esac
done
mkdir -p "$out"
out=$(realpath "$out")
kver=$(ronic_guest_kver)
run=${from:-$top/results/bench-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$run"
started=$(date -u '+%Y-%m-%d %H:%M UTC')
t0=$(date +%s)
if [ -n "$from" ]; then
	t0=$(stat -c %Y "$run/build.log")
	started=$(date -u -d "@$t0" '+%Y-%m-%d %H:%M UTC')
	t1=$(stat -c %Y "$run/smp/bench.tsv" 2>/dev/null || date +%s)
fi

[ -n "$from" ] || {
# A copy of the tree without .git (a snapshot the bench runs from while
# the repository changes) names its commit in RONIC_BENCH_COMMIT.
git -C "$top" describe --always --dirty > "$run/commit" 2>/dev/null ||
	echo "${RONIC_BENCH_COMMIT:-no git}" > "$run/commit"
# The host's CPU and its load around the run, for the report.
sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1 > "$run/host-cpu"
cut -d' ' -f1-3 /proc/loadavg > "$run/load-start"
echo "# bench.sh: building ronic.ko for $kver"
make -C "$top" KDIR="/usr/src/linux-headers-$kver" modules > "$run/build.log" 2>&1 ||
	{ tail -20 "$run/build.log"; exit 1; }
RONIC_XDP_OBJ=$("$top/tests/xdp/build.sh")
export RONIC_XDP_OBJ RONIC_DUT=ronic

boot() {
	local name=$1 parts=$2
	shift 2
	echo "# bench.sh: boot $name ($parts)"
	RONIC_BENCH_PARTS=$parts "$top/scripts/vm.sh" --name "bench-$name" \
		--results "$run/$name" --timeout 2400 --idle-timeout 600 "$@" \
		-- "$top/scripts/guest/bench.sh" | grep -E '^(PASS|FAIL|# bench)' || true
	[ -s "$run/$name/bench.tsv" ] ||
		echo "# bench.sh: boot $name measured nothing; see $run/$name" >&2
}

boots=${RONIC_BENCH_BOOTS:-insn insn_iommu plain iommu smp}
[ -z "$from" ] || boots=
for b in $boots; do
	case $b in
	plain) boot plain "${RONIC_BENCH_PLAIN_PARTS:-tcp,udp,ro,xdp,xdpfrags,xdplock,xsk,netperf}" ;;
	iommu) boot iommu "${RONIC_BENCH_IOMMU_PARTS:-tcp,udp,xdp}" --iommu ;;
	smp) boot smp xdp --smp "${RONIC_BENCH_SMP:-72}" ;;
	insn) boot insn insn,tcp --insn-count ;;
	insn_iommu) boot insn_iommu insn --insn-count --iommu ;;
	*) echo "bench.sh: unknown boot $b" >&2; exit 2 ;;
	esac
done
cut -d' ' -f1-3 /proc/loadavg > "$run/load-end"
}
t1=${t1:-$(date +%s)}

data=$out/data.tsv
{
	printf 'boot\tpart\tcase\tdriver\tround\tvalue\tunit\n'
	for b in insn insn_iommu plain iommu smp; do
		[ -s "$run/$b/bench.tsv" ] || continue
		sed "s/^/$b\t/" "$run/$b/bench.tsv"
	done
} > "$data"
# The same figures as JSON: one object per measurement.
jq -Rn '[inputs | split("\t")] | .[0] as $h | .[1:]
	| map([$h, .] | transpose | map({(.[0]): .[1]}) | add
	| .round |= tonumber | .value |= tonumber)' < "$data" > "$out/data.json"

# ratio BOOT CASE DRV REFBOOT REFCASE REFDRV: "median ref ratio lo hi" of the
# runs, or nothing if either side has none. Per-round ratios pair the runs
# of the same round number.
ratio() {
	awk -F'\t' -v b="$1" -v c="$2" -v d="$3" -v rb="$4" -v rc="$5" -v rd="$6" '
	function med(a, n,    i, j, t) {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	NR > 1 && $1 == b && $3 == c && $4 == d { x[++nx] = $6; xr[$5] = $6 }
	NR > 1 && $1 == rb && $3 == rc && $4 == rd { y[++ny] = $6; yr[$5] = $6 }
	END {
		if (!nx || !ny) exit
		lo = 1e9; hi = 0
		for (r in xr) if (r in yr && yr[r] > 0) {
			q = xr[r] / yr[r]; if (q < lo) lo = q; if (q > hi) hi = q
		}
		if (hi == 0) { lo = 0; hi = 0 }
		mx = med(x, nx); my = med(y, ny)
		printf "%g %g %.3f %.2f %.2f\n", mx, my, my ? mx / my : 0, lo, hi
	}' "$data"
}

# The table: label, what is compared, target, and the ratio's arguments.
rows=(
	"Instructions per KiB, TCP tx, 2 vCPUs|ronic / igb|<= 0.85|insn tcp_tx_kib ronic insn tcp_tx_kib igb"
	"Instructions per KiB, TCP tx, IOMMU strict|ronic / igb|<= 0.85|insn_iommu tcp_tx_kib ronic insn_iommu tcp_tx_kib igb"
	"Instructions per KiB, TCP rx, 2 vCPUs|ronic / igb|<= 0.85|insn tcp_rx_kib ronic insn tcp_rx_kib igb"
	"Instructions per KiB, TCP rx, IOMMU strict|ronic / igb|<= 0.85|insn_iommu tcp_rx_kib ronic insn_iommu tcp_rx_kib igb"
	"Instructions per KiB, TCP tx 4 streams, 2 vCPUs|ronic / igb|<= 0.85|insn tcp_tx4_kib ronic insn tcp_tx4_kib igb"
	"Instructions per KiB, TCP tx 4 streams, IOMMU strict|ronic / igb|<= 0.85|insn_iommu tcp_tx4_kib ronic insn_iommu tcp_tx4_kib igb"
	"Instructions per frame, UDP tx, 2 vCPUs|ronic / igb|<= 0.85|insn udp_tx_frame ronic insn udp_tx_frame igb"
	"Instructions per frame, UDP tx, IOMMU strict|ronic / igb|<= 0.85|insn_iommu udp_tx_frame ronic insn_iommu udp_tx_frame igb"
	"Instructions per frame, UDP rx, 2 vCPUs|ronic / igb|<= 0.85|insn udp_rx_frame ronic insn udp_rx_frame igb"
	"Instructions per frame, UDP rx, IOMMU strict|ronic / igb|<= 0.85|insn_iommu udp_rx_frame ronic insn_iommu udp_rx_frame igb"
	"Instructions per frame, XDP_DROP, 2 vCPUs|ronic / igb|<= 0.85|insn xdp_drop_frame ronic insn xdp_drop_frame igb"
	"Instructions per frame, XDP_DROP, IOMMU strict|ronic / igb|<= 0.85|insn_iommu xdp_drop_frame ronic insn_iommu xdp_drop_frame igb"
	"Instructions per frame, XDP_TX, 2 vCPUs|ronic / igb|<= 0.85|insn xdp_tx_frame ronic insn xdp_tx_frame igb"
	"Instructions per frame, XDP_TX, IOMMU strict|ronic / igb|<= 0.85|insn_iommu xdp_tx_frame ronic insn_iommu xdp_tx_frame igb"
	"Instructions per frame, AF_XDP rxdrop, 2 vCPUs|ronic zc / igb copy|<= 0.67|insn xsk_rxdrop_zc_frame ronic insn xsk_rxdrop_copy_frame igb"
	"Instructions per frame, AF_XDP rxdrop, IOMMU strict|ronic zc / igb copy|<= 0.67|insn_iommu xsk_rxdrop_zc_frame ronic insn_iommu xsk_rxdrop_copy_frame igb"
	"Instructions per frame, AF_XDP rxdrop zero-copy / copy|ronic zc / ronic copy|<= 0.67|insn xsk_rxdrop_zc_frame ronic insn xsk_rxdrop_copy_frame ronic"
	"Instructions per frame, AF_XDP rxdrop copy mode|ronic copy / igb copy|<= 1.0|insn xsk_rxdrop_copy_frame ronic insn xsk_rxdrop_copy_frame igb"
	"Driver's own instructions per frame, AF_XDP rxdrop zero-copy / copy|ronic zc / ronic copy|(its share)|insn xsk_rxdrop_zc_frame_driver ronic insn xsk_rxdrop_copy_frame_driver ronic"
	"Driver's own instructions per KiB, TCP tx|ronic / igb|(its share)|insn tcp_tx_kib_driver ronic insn tcp_tx_kib_driver igb"
	"Driver's own instructions per KiB, TCP rx|ronic / igb|(its share)|insn tcp_rx_kib_driver ronic insn tcp_rx_kib_driver igb"
	"Driver's own instructions per frame, UDP tx|ronic / igb|(its share)|insn udp_tx_frame_driver ronic insn udp_tx_frame_driver igb"
	"Driver's own instructions per frame, UDP rx|ronic / igb|(its share)|insn udp_rx_frame_driver ronic insn udp_rx_frame_driver igb"
	"Driver's own instructions per frame, XDP_DROP|ronic / igb|(its share)|insn xdp_drop_frame_driver ronic insn xdp_drop_frame_driver igb"
	"Driver's own instructions per frame, XDP_TX|ronic / igb|(its share)|insn xdp_tx_frame_driver ronic insn xdp_tx_frame_driver igb"
	"TCP tx under the counting plugin|plugin on / off|(its overhead)|insn tcp_tx ronic plain tcp_tx ronic"
	"TCP tx, 2 vCPUs|ronic / igb|>= 1.0|plain tcp_tx ronic plain tcp_tx igb"
	"TCP rx, 2 vCPUs|ronic / igb|>= 1.0|plain tcp_rx ronic plain tcp_rx igb"
	"TCP tx, IOMMU strict|ronic / igb|>= 1.1|iommu tcp_tx ronic iommu tcp_tx igb"
	"TCP rx, IOMMU strict|ronic / igb|>= 1.1|iommu tcp_rx ronic iommu tcp_rx igb"
	"TCP tx 4 streams, 2 vCPUs|ronic / igb|>= 1.0|plain tcp_tx4 ronic plain tcp_tx4 igb"
	"TCP tx 4 streams, IOMMU strict|ronic / igb|>= 1.1|iommu tcp_tx4 ronic iommu tcp_tx4 igb"
	"TCP both ways, 2 vCPUs|ronic / igb|>= 1.0|plain tcp_bidir ronic plain tcp_bidir igb"
	"TCP both ways, IOMMU strict|ronic / igb|>= 1.1|iommu tcp_bidir ronic iommu tcp_bidir igb"
	"UDP 60-byte tx pps, 2 vCPUs|ronic / igb|>= 1.0|plain udp_tx_pps ronic plain udp_tx_pps igb"
	"UDP 60-byte tx pps, IOMMU strict|ronic / igb|>= 1.3|iommu udp_tx_pps ronic iommu udp_tx_pps igb"
	"UDP 60-byte rx pps, 2 vCPUs|ronic / igb|>= 1.0|plain udp_rx_pps ronic plain udp_rx_pps igb"
	"UDP 60-byte rx pps, IOMMU strict|ronic / igb|>= 1.0|iommu udp_rx_pps ronic iommu udp_rx_pps igb"
	"netperf TCP_STREAM, 2 vCPUs|ronic / igb|>= 1.0|plain tcp_stream ronic plain tcp_stream igb"
	"netperf TCP_MAERTS, 2 vCPUs|ronic / igb|>= 1.0|plain tcp_maerts ronic plain tcp_maerts igb"
	"netperf TCP_RR trans/s, 2 vCPUs|ronic / igb|>= 1.0|plain tcp_rr ronic plain tcp_rr igb"
	"netperf UDP_RR trans/s, 2 vCPUs|ronic / igb|>= 1.0|plain udp_rr ronic plain udp_rr igb"
	"netperf TCP_RR P50 latency, 2 vCPUs|ronic / igb|<= 1.0|plain tcp_rr_p50 ronic plain tcp_rr_p50 igb"
	"netperf TCP_RR P99 latency, 2 vCPUs|ronic / igb|<= 1.0|plain tcp_rr_p99 ronic plain tcp_rr_p99 igb"
	"netperf UDP_RR P50 latency, 2 vCPUs|ronic / igb|<= 1.0|plain udp_rr_p50 ronic plain udp_rr_p50 igb"
	"netperf UDP_RR P99 latency, 2 vCPUs|ronic / igb|<= 1.0|plain udp_rr_p99 ronic plain udp_rr_p99 igb"
	"XDP_DROP pps, 2 vCPUs|ronic / igb|>= 1.0|plain xdp_drop ronic plain xdp_drop igb"
	"XDP_TX pps, 2 vCPUs|ronic / igb|>= 1.2|plain xdp_tx ronic plain xdp_tx igb"
	"XDP_DROP pps, IOMMU strict|ronic / igb|>= 1.0|iommu xdp_drop ronic iommu xdp_drop igb"
	"XDP_TX pps, IOMMU strict|ronic / igb|>= 1.2|iommu xdp_tx ronic iommu xdp_tx igb"
	"XDP_DROP pps, 72 vCPUs|ronic / igb|>= 1.0|smp xdp_drop ronic smp xdp_drop igb"
	"XDP_TX pps, 72 vCPUs (locked rings)|ronic / igb|>= 1.2|smp xdp_tx ronic smp xdp_tx igb"
	"AF_XDP rxdrop pps, zero-copy / copy|ronic zc / ronic copy|>= 1.5|plain xsk_rxdrop ronic-zc plain xsk_rxdrop ronic-copy"
	"AF_XDP rxdrop pps, 2 vCPUs|ronic zc / igb copy|>= 1.5|plain xsk_rxdrop ronic-zc plain xsk_rxdrop igb-copy"
	"AF_XDP txpush pps, zero-copy / copy|ronic zc / ronic copy|>= 1.5|plain xsk_txpush ronic-zc plain xsk_txpush ronic-copy"
	"AF_XDP txpush pps, 2 vCPUs|ronic zc / igb copy|>= 1.5|plain xsk_txpush ronic-zc plain xsk_txpush igb-copy"
	"AF_XDP l2fwd pps, zero-copy / copy|ronic zc / ronic copy|>= 1.5|plain xsk_l2fwd ronic-zc plain xsk_l2fwd ronic-copy"
	"AF_XDP l2fwd pps, 2 vCPUs|ronic zc / igb copy|>= 1.5|plain xsk_l2fwd ronic-zc plain xsk_l2fwd igb-copy"
	"AF_XDP rxdrop pps, copy mode|ronic copy / igb copy|>= 1.0|plain xsk_rxdrop ronic-copy plain xsk_rxdrop igb-copy"
	"XDP_TX pps, locked (72) / lock-free (2)|ronic 72 / ronic 2|igb's 72 / 2 below|smp xdp_tx ronic plain xdp_tx ronic"
	"XDP_TX pps, 72 / 2 vCPUs, igb|igb 72 / igb 2|(the boot's own cost)|smp xdp_tx igb plain xdp_tx igb"
	"XDP_DROP pps, multi-buffer 9000-byte / 64-byte frames|ronic / ronic|(igb has no multi-buffer XDP)|plain xdp_drop_frags ronic plain xdp_drop_60 ronic"
	"XDP_TX pps, one shared locked ring / a ring per CPU|ronic cap 1 / cap 0|about 1|plain xdp_tx_cap1 ronic plain xdp_tx_cap0 ronic"
	"TCP tx, pci_ro_read on|ronic / flags off|about 1|plain ro_read_on_write_off ronic plain ro_read_off_write_off ronic"
	"TCP tx, pci_ro_write on|ronic / flags off|about 1|plain ro_read_off_write_on ronic plain ro_read_off_write_off ronic"
	"TCP tx, both flags on|ronic / flags off|about 1|plain ro_read_on_write_on ronic plain ro_read_off_write_off ronic"
)

qemu_ver=$(qemu-system-x86_64 --version | head -1 | sed 's/^QEMU emulator version //')
report=$out/report.md
table=$run/ratios.tsv
: > "$table"
{
	echo "# ronic benchmark report"
	echo
	echo "Run $started on $(nproc) host cores ($(uname -m)), QEMU $qemu_ver (TCG),"
	echo "guest kernel $kver, ronic $(cat "$top/VERSION")," \
		"$(cat "$run/commit" 2>/dev/null || echo "unknown commit")."
	echo "Host CPU: $(cat "$run/host-cpu" 2>/dev/null || echo unknown); load average" \
		"(1, 5, 15 min) $(cat "$run/load-start" 2>/dev/null || echo ?) at the start," \
		"$(cat "$run/load-end" 2>/dev/null || echo ?) at the end."
	echo "Rounds: ${RONIC_BENCH_ROUNDS:-5} of ${RONIC_BENCH_SECONDS:-10} s per case," \
		"drivers taking turns in each boot. Reproduce: \`make bench\`."
	echo
	echo "The primary figures are the instruction counts (QEMU plugin"
	echo "\`scripts/qemu-plugin/insn_count.c\`): guest instructions per unit of"
	echo "work do not move with the host's load the way rates do. Both ports run"
	echo "the driver under test there (ronic<->ronic against igb<->igb). The frame"
	echo "cases (UDP, XDP) offer ${RONIC_BENCH_INSN_PPS:-50000} frames a second, which both drivers carry,"
	echo "and count per frame that reached the far end: under a flood, the frames"
	echo "each driver lost would be counted as the sender's work alone."
	echo
	echo "| Case | Compared | ronic | reference | ratio (per-round range) | target |"
	echo "|---|---|---:|---:|---|---|"
	for row in "${rows[@]}"; do
		IFS='|' read -r label what target args <<< "$row"
		# shellcheck disable=SC2086 # six words
		read -r mx my q lo hi <<< "$(ratio $args)" || true
		if [ -z "${q:-}" ]; then
			echo "| $label | $what | - | - | not measured | $target |"
			continue
		fi
		echo "| $label | $what | $mx | $my | **$q** ($lo-$hi) | $target |"
		printf '%s\t%s\n' "$label" "$q" >> "$table"
		q=
	done
	echo
	# DMA maps per frame are exact counts: medians, no ratio.
	maps=$(awk -F'\t' '
		NR > 1 && $2 == "udp" && $3 ~ /^maps_/ { v[$1 " " $3 " " $4] = v[$1 " " $3 " " $4] " " $6 }
		function med(s,    a, n, i, j, t) {
			n = split(s, a, " ")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		END {
			split("plain iommu", boots, " ")
			split("maps_rx maps_tcp_tx maps_tx_small", keys, " ")
			split("received frame|TCP frame sent|small tx frame", what, "|")
			split("<= 0.05|below igb|0", want, "|")
			for (b = 1; b <= 2; b++) for (c = 1; c <= 3; c++) {
				k = keys[c]
				if (!((boots[b] " " k " ronic") in v)) continue
				printf "| %s, %s | %s | %s | %s |\n", what[c],
					(b == 1 ? "2 vCPUs" : "IOMMU strict"), med(v[boots[b] " " k " ronic"]),
					med(v[boots[b] " " k " igb"]), want[c]
			}
		}' "$data")
	if [ -n "$maps" ]; then
		echo "DMA map calls per frame (kprobes on \`dma_map_page_attrs\` and"
		echo "\`dma_map_sg_attrs\` keyed by device; medians of the rounds):"
		echo
		echo "| Per | ronic | igb | target (ronic) |"
		echo "|---|---:|---:|---|"
		echo "$maps"
		echo
	fi
	echo "TCP in Mbit/s (iperf3; one stream unless the case says), UDP and XDP in"
	echo "frames per second (pktgen"
	echo "64-byte frames from an igb peer; XDP_DROP counted by the program, XDP_TX"
	echo "as frames back at the peer); netperf's request/response rates in"
	echo "transactions a second and its P50 and P99 latencies in microseconds"
	echo "(lower is better: a latency ratio below 1.0 is ronic answering faster)."
	echo "Under TCG every figure is CPU bound and"
	echo "single rounds swing by tens of percent: read the ratios, not the figures."
	echo "On x86 the relaxed-ordering flags change no host behaviour and QEMU's igb"
	echo "has its PCIe Relaxed Ordering Enable bit off, so those ratios measure noise."
	echo
	# The locked-ring case: proof that the lock was taken.
	locked=$(awk -F'\t' 'NR > 1 && $3 ~ /^xdp_locked_cap/ { s[$3] += $6; n[$3]++ }
		END { for (k in s) printf "%s %d\n", k, s[k] / n[k] }' "$data" | sort)
	if [ -n "$locked" ]; then
		echo "Frames ronic queued under an XDP ring's lock per round (mean):" \
			"$(echo "$locked" | sed 's/^xdp_locked_//' | paste -sd, | sed 's/,/, /g')."
		echo
	fi
	# The frame cases' losses: the counts hold only where these are small.
	loss=$(awk -F'\t' 'NR > 1 && $2 == "insn" && $3 ~ /_loss$/ {
			k = $1 " " substr($3, 1, length($3) - 5) " " $4
			if ($6 > worst[k]) worst[k] = $6; seen[k] = 1
		}
		END { for (k in seen) printf "| %s | %.1f%% |\n", k, worst[k] / 10 }' "$data" | sort)
	if [ -n "$loss" ]; then
		echo "Frames lost between the ends in the counted frame cases (worst round):"
		echo
		echo "| Boot, case, driver | lost |"
		echo "|---|---:|"
		echo "$loss"
		echo
	fi
	# Run-to-run agreement of the counts: each case's spread over rounds.
	spread=$(awk -F'\t' 'NR > 1 && $2 == "insn" && $3 !~ /_(driver|loss)$/ {
			k = $1 " " $3 " " $4
			if (!(k in lo) || $6 < lo[k]) lo[k] = $6
			if (!(k in hi) || $6 > hi[k]) hi[k] = $6
		}
		END { for (k in lo) if (lo[k] > 0) printf "| %s | %.1f%% |\n", k, (hi[k] / lo[k] - 1) * 100 }' \
		"$data" | sort)
	if [ -n "$spread" ]; then
		echo "Instruction counts, spread over the rounds (largest / smallest - 1):"
		echo
		echo "| Boot, case, driver | spread |"
		echo "|---|---:|"
		echo "$spread"
		echo
	fi
	# Each driver's settings as the plain boot found them.
	if [ -s "$run/plain/setup.txt" ]; then
		echo "Settings in the plain boot (the drivers' defaults):"
		echo
		sed 's/^/    /' "$run/plain/setup.txt"
		echo
	fi
	# A note on the run's conditions, when one was left in RUN/note.
	[ ! -s "$run/note" ] || { cat "$run/note"; echo; }
	echo "![ronic / igb](ratios.png)"
	echo
	echo "![flags and CPU count](other.png)"
	echo
	echo "Raw figures: [data.tsv](data.tsv), [data.json](data.json). Took $(((t1 - t0) / 60)) minutes."
} > "$report"

# Charts: ronic/igb per case with the IOMMU off and on, and the others.
awk -F'\t' '
	$1 ~ /, 2 vCPUs$/ { k = $1; sub(/, 2 vCPUs$/, "", k); off[k] = $2; ord[++n] = k }
	$1 ~ /, IOMMU strict$/ { k = $1; sub(/, IOMMU strict$/, "", k); on[k] = $2 }
	END { for (i = 1; i <= n; i++) printf "\"%s\"\t%s\t%s\n", ord[i], off[ord[i]], (ord[i] in on ? on[ord[i]] : "NaN") }
' "$table" > "$run/iommu.dat"
awk -F'\t' '$1 !~ /, (2 vCPUs|IOMMU strict)$/ { printf "\"%s\"\t%s\n", $1, $2 }' \
	"$table" > "$run/other.dat"
gnuplot <<EOF
set terminal pngcairo size 900,420 font "sans,10" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set ylabel "ratio"
set key top left
set output "$out/ratios.png"
set title "ronic / in-tree igb, same boot (1.0 = equal)"
plot "$run/iommu.dat" using 2:xtic(1) title "IOMMU off", \
     "" using 3 title "IOMMU strict", 1 with lines lw 2 dt 2 lc "black" notitle
set output "$out/other.png"
set title "ronic against igb on 72 vCPUs, and against itself: flags, locked rings"
set xtics rotate by -15
set bmargin 6
plot "$run/other.dat" using 2:xtic(1) title "ratio", 1 with lines lw 2 dt 2 lc "black" notitle
EOF
# The README shows the headline table of the committed report.
readme=$top/README.md
if [ "$out" = "$top/bench" ] && grep -q '^<!-- bench:start -->' "$readme"; then
	{
		sed '/^<!-- bench:start -->/q' "$readme"
		echo
		echo "From [bench/report.md](bench/report.md), $started, commit" \
			"$(cat "$run/commit" 2>/dev/null || echo unknown), host load" \
			"$(cut -d' ' -f1 "$run/load-start" 2>/dev/null || echo ?) at the start and" \
			"$(cut -d' ' -f1 "$run/load-end" 2>/dev/null || echo ?) at the end (\`make bench\`):"
		echo
		sed -n '/^| Case/,/^$/p' "$report" | grep -v '| not measured |'
		sed -n '/^<!-- bench:end -->/,$p' "$readme"
	} > "$readme.new" && mv "$readme.new" "$readme"
fi
echo "# bench.sh: $report ($((($(date +%s) - t0) / 60)) min); VM logs in $run"
sed -n '/^| Case/,/^$/p' "$report"
