#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-perf: a functional floor, not a benchmark. iperf3 TCP
# both directions of the DUT against itself (dut-dut) and against igb
# (dut-igb: the DUT in the root netns), each compared with the mean of the
# igb-igb runs just before and after it in the same boot; the DUT must
# carry at least RONIC_PERF_MIN_RATIO (0.5) of igb's throughput. That
# catches a collapse (a stalled queue, a moderation bug, the device
# walking zeroed descriptors), not a few percent: this bed's single runs
# swing by +-40%, so the ratio targets and their rounds and medians live
# in the benchmark (make bench, scripts/bench.sh).
# RONIC_PERF_ROUNDS (1) rounds of RONIC_PERF_SECONDS (5) per direction,
# the set-ups taking turns (igb-igb, then each round dut-dut and dut-igb in
# alternating order, then igb-igb). tx is A (root netns) sending to B
# (peer), rx the other way.
# Figures: the output, $RONIC_RESULTS/perf.tsv (every run), perf.json.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 5

rounds=${RONIC_PERF_ROUNDS:-1}
secs=${RONIC_PERF_SECONDS:-5}
min_ratio=${RONIC_PERF_MIN_RATIO:-0.5}
dut=$RONIC_DUT
tsv=$RONIC_RESULTS/perf.tsv

declare -A setup=([igb-igb]="igb igb" [dut-dut]="$dut $dut" [dut-igb]="$dut igb")
# runs[SETUP-DIR]: the figures in order; seq[SETUP-DIR]: the sequence
# number of each, to find a DUT run's neighbouring igb-igb runs.
declare -A runs=() seqs=()
nseq=0
nruns=0
failed_runs=0

# measure LABEL SETUP: one pair_up and a run each way.
measure() {
	local r=$1 s=$2 a b dir m
	read -r a b <<< "${setup[$s]}"
	nseq=$((nseq + 1))
	if ! pair_up "$a" "$b"; then
		log "round $r $s: pair_up $a $b failed"
		nruns=$((nruns + 2)) failed_runs=$((failed_runs + 2))
		return
	fi
	for dir in tx rx; do
		nruns=$((nruns + 1))
		if [ "$dir" = tx ]; then
			m=$(iperf_tcp root "$PEER_NS" "$secs")
		else
			m=$(iperf_tcp "$PEER_NS" root "$secs")
		fi || { failed_runs=$((failed_runs + 1)); continue; }
		log "round $r $s ($a<->$b) $dir: $m Mbit/s"
		printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$s" "$a-$b" "$dir" "$m" >> "$tsv"
		runs[$s-$dir]+="$m "
		seqs[$s-$dir]+="$nseq "
	done
}

# figure best|median KEY
figure() {
	local v
	read -ra v <<< "${runs[$2]:-0}"
	"$1" "${v[@]}"
}

ratio() {
	awk -v x="$1" -v y="$2" 'BEGIN { printf "%.3f", (y > 0 ? x / y : 0) }'
}

ratio_ok() {
	awk -v r="$1" -v m="$min_ratio" 'BEGIN { exit !(r >= m) }'
}

# ratios KEY: each DUT run of KEY (e.g. dut-dut-tx) divided by the mean of
# the igb-igb runs of the same direction next to it in time.
ratios() {
	local key=$1 dir=${1##*-} v q iv iq i j before after ref out=()
	read -ra v <<< "${runs[$key]:-}"
	read -ra q <<< "${seqs[$key]:-}"
	read -ra iv <<< "${runs[igb-igb-$dir]:-}"
	read -ra iq <<< "${seqs[igb-igb-$dir]:-}"
	for i in "${!v[@]}"; do
		before='' after=''
		for j in "${!iq[@]}"; do
			if [ "${iq[$j]}" -lt "${q[$i]}" ]; then
				before=${iv[$j]}
			elif [ -z "$after" ]; then
				after=${iv[$j]}
			fi
		done
		ref=$(awk -v b="${before:-$after}" -v a="${after:-$before}" \
			'BEGIN { print (a + b) / 2 }')
		out+=("$(ratio "${v[$i]}" "$ref")")
	done
	echo "${out[*]}"
}

printf 'round\tsetup\tdrivers\tdirection\tmbps\n' > "$tsv"
measure 0 igb-igb
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then
		measure "$r" dut-dut; measure "$r" dut-igb
	else
		measure "$r" dut-igb; measure "$r" dut-dut
	fi
	measure "$r" igb-igb
done
pair_down

if [ "$failed_runs" -eq 0 ]; then
	pass "perf: all $nruns iperf3 runs carried traffic"
else
	fail "perf: all $nruns iperf3 runs carried traffic" "$failed_runs failed"
fi

json="{\"dut\":\"$dut\",\"seconds\":$secs,\"min_ratio\":$min_ratio,\"results\":{"
sep=
echo "perf: iperf3 TCP, ${secs}s runs, Mbit/s (tx: root netns -> peer, rx: peer -> root):"
for s in igb-igb dut-dut dut-igb; do
	for dir in tx rx; do
		k=$s-$dir
		b=$(figure best "$k") md=$(figure median "$k")
		echo "perf:   $s $dir: best $b, median $md (runs: ${runs[$k]:-none})"
		read -ra v <<< "${runs[$k]:-}"
		json+="$sep\"$k\":{\"drivers\":\"${setup[$s]/ /-}\",\"best\":$b,\"median\":$md,\"runs\":[$(IFS=,; echo "${v[*]}")]"
		if [ "$s" != igb-igb ]; then
			read -ra rr <<< "$(ratios "$k")"
			mr=$(median "${rr[@]:-0}")
			json+=",\"ratios\":[$(IFS=,; echo "${rr[*]}")],\"median_ratio\":$mr"
			json+=",\"best_ratio\":$(ratio "$b" "$(figure best "igb-igb-$dir")")"
			json+=",\"mean_ratio\":$(ratio "$(figure mean "$k")" "$(figure mean "igb-igb-$dir")")"
		fi
		json+="}"
		sep=,
	done
done
json+="}}"
echo "$json" | jq . > "$RONIC_RESULTS/perf.json" 2>/dev/null ||
	echo "$json" > "$RONIC_RESULTS/perf.json"

for s in dut-dut dut-igb; do
	for dir in tx rx; do
		k=$s-$dir
		read -ra rr <<< "$(ratios "$k")"
		mr=$(median "${rr[@]:-0}")
		name="perf: $s $dir ($dut) >= ${min_ratio} x igb-igb"
		msg="median ratio $mr of ${rr[*]:-none}; best $(figure best "$k") vs igb-igb $(figure best "igb-igb-$dir") Mbit/s"
		echo "perf: $k: $msg"
		if [ "${#rr[@]}" -gt 0 ] && ratio_ok "$mr"; then
			pass "$name"
		else
			fail "$name" "$msg"
		fi
	done
done
finish
