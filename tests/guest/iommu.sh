#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-iommu (booted with --iommu: emulated Intel IOMMU, strict
# invalidation, interrupt remapping): the IOMMU translates for both NICs;
# the DUT against itself and against igb carries pings and iperf3 (and,
# DUT against DUT, 64 MiB each way checked by sha256); rmmod
# and a fresh modprobe under the IOMMU; DMA map calls per frame, rx and
# small tx, of the DUT and of igb. vm.sh fails the run on any
# "DMAR: ... fault" in the kernel log, i.e. any DMA the driver did not map.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 21

dut=$RONIC_DUT
mapfile -t bdfs < <(nic_bdfs)

units=$(find /sys/class/iommu -mindepth 1 -maxdepth 1 -printf '%f ' 2>/dev/null)
if [ -n "$units" ]; then
	pass "iommu: an IOMMU is registered ($units)"
else
	fail "iommu: an IOMMU is registered" "/sys/class/iommu is empty"
fi
for b in "${bdfs[@]}"; do
	g=/sys/bus/pci/devices/$b/iommu_group
	if [ -e "$g" ] && [ "$(cat "$g/type" 2>/dev/null)" = DMA ]; then
		pass "iommu: $b in a strict DMA translation domain"
	else
		fail "iommu: $b in a strict DMA translation domain" \
			"group type '$(cat "$g/type" 2>/dev/null)'"
	fi
done

SHA_MB=64
SHA_FILE=/tmp/iommu.bin
sha_file "$SHA_FILE" "$SHA_MB"

n=0
for pair in "$dut $dut" "$dut igb"; do
	read -r a b <<< "$pair"
	n=$((n + 1))
	tag="iommu: $n $a<->$b"
	if ! pair_up "$a" "$b"; then
		fail "$tag: link up and first ping" "pair_up failed"
		continue
	fi
	pass "$tag: link up and first ping"
	ping_check "$tag: IPv4 ping A->B 20/20" root "$ADDR_B4" 20
	ping_check "$tag: IPv6 ping B->A 20/20" "$PEER_NS" "$ADDR_A6" 20 -6
	for dir in tx rx; do
		if [ "$dir" = tx ]; then from=root to=$PEER_NS; else from=$PEER_NS to=root; fi
		if m=$(iperf_tcp "$from" "$to" 5); then
			pass "$tag: iperf3 $dir ($m Mbit/s)"
		else
			fail "$tag: iperf3 $dir" "${m:-0} Mbit/s"
		fi
	done
	# Every byte through the strict IOMMU, where frames map as one
	# scatterlist that the IOMMU may merge into fewer segments.
	if [ "$n" = 1 ]; then
		if sha_send "$SHA_FILE" 5321; then
			pass "$tag: ${SHA_MB} MiB each way at once, sha256 match"
		else
			fail "$tag: ${SHA_MB} MiB each way, sha256 match" "mismatch or transfer failed"
		fi
	fi
done
pair_down

# DMA map calls per packet on port A, the DUT and then igb, against an igb
# peer (dma_map_rates in lib.sh): rx under a TCP stream from B (page_pool
# pages stay mapped: at most 0.05 a frame), TCP tx (the DUT copies a TSO
# frame's headers and maps only its pages: fewer maps a frame than igb),
# and small tx frames (pktgen's 60 bytes, under the copybreak: none at
# all). With a strict IOMMU each map is an IOVA allocation and each unmap
# an IOTLB flush, so these counts are what the IOMMU costs; igb's own
# counts show that the probes see every map. What the maps cost in
# frames a second is the benchmark's (scripts/bench.sh, UDP 60-byte tx
# with the IOMMU strict), not a pass or fail here.
if dma_maps_start; then
	dut_pps=() igb_pps=()
	if dma_map_rates "$dut" 3 "rx ttx tx"; then
		dut_rx=$RX_RATE dut_ttx=$TCP_TX_RATE dut_tx=$TX_RATE dut_pps+=("$TX_PPS")
		awk -v r="$dut_rx" 'BEGIN { exit !(r <= 0.05) }' &&
			pass "iommu: $dut rx: $dut_rx DMA maps a frame (<= 0.05)" ||
			fail "iommu: $dut rx: DMA maps a frame <= 0.05" "$dut_rx"
		awk -v r="$dut_tx" 'BEGIN { exit !(r == 0) }' &&
			pass "iommu: $dut small tx: $dut_tx DMA maps a frame (copybreak)" ||
			fail "iommu: $dut small tx: no DMA map" "$dut_tx a frame"
	else
		fail "iommu: DMA maps a frame with $dut" "traffic failed"
	fi
	if dma_map_rates igb 3 "rx ttx tx"; then
		igb_rx=$RX_RATE igb_ttx=$TCP_TX_RATE igb_tx=$TX_RATE igb_pps+=("$TX_PPS")
		awk -v r="$igb_tx" 'BEGIN { exit !(r >= 0.5) }' &&
			pass "iommu: igb for reference: rx $igb_rx, TCP tx $igb_ttx, small tx $igb_tx DMA maps a frame (the probes count)" ||
			fail "iommu: igb small tx maps counted" "$igb_tx a frame"
		awk -v a="${dut_ttx:-99}" -v b="$igb_ttx" 'BEGIN { exit !(a < b) }' &&
			pass "iommu: TCP tx: $dut ${dut_ttx:-} DMA maps a frame, fewer than igb's $igb_ttx (headers copied, the rest mapped in one call)" ||
			fail "iommu: TCP tx: $dut maps fewer a frame than igb" "${dut_ttx:-none} against $igb_ttx"
	else
		fail "iommu: DMA maps a frame with igb" "traffic failed"
	fi
	printf 'driver\trx_maps_per_frame\ttcp_tx_maps_per_frame\tsmall_tx_maps_per_frame\tsmall_tx_pps\n%s\t%s\t%s\t%s\t%s\nigb\t%s\t%s\t%s\t%s\n' \
		"$dut" "${dut_rx:-}" "${dut_ttx:-}" "${dut_tx:-}" "${dut_pps[0]:-}" \
		"${igb_rx:-}" "${igb_ttx:-}" "${igb_tx:-}" "${igb_pps[0]:-}" \
		> "$RONIC_RESULTS/dma-maps.tsv"
	dma_maps_stop
else
	fail "iommu: DMA map probes" "kprobe events not available"
fi

if unload_driver "$dut" 60; then
	pass "iommu: rmmod $dut"
else
	fail "iommu: rmmod $dut" "failed or hung"
fi
if pair_up "$dut" "$dut"; then
	pass "iommu: modprobe $dut again, link and ping"
	ping_check "iommu: IPv4 ping after reload 20/20" root "$ADDR_B4" 20
else
	fail "iommu: modprobe $dut again, link and ping" "pair_up failed"
fi
pair_down
unload_driver "$dut" 60

finish
