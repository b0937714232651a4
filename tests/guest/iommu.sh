#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-iommu (booted with --iommu: emulated Intel IOMMU, strict
# invalidation, interrupt remapping): the IOMMU translates for both NICs;
# the DUT against itself and against igb carries pings and iperf3; rmmod
# and a fresh modprobe under the IOMMU. vm.sh fails the run on any
# "DMAR: ... fault" in the kernel log, i.e. any DMA the driver did not map.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

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
done
pair_down

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
