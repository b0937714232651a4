#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of scripts/demo.sh.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 0

dut=$RONIC_DUT
show() {
	echo
	echo "\$ $*"
	"$@" 2>&1
}

echo "== both 82576 NICs on $dut"
show lspci -nn -d "$NIC_PCI_ID"
if ! pair_up "$dut" "$dut"; then
	echo "demo: the NICs did not come up on $dut; dmesg:"
	dmesg --color=never | tail -30
	exit 1
fi
show ethtool -i "$NIC_A"
show ip netns exec "$PEER_NS" ethtool -i "$NIC_B"
show ip -br addr show dev "$NIC_A"
show ip -n "$PEER_NS" -br addr show dev "$NIC_B"
show ethtool "$NIC_A"
echo
echo "== ping"
show ping -c 5 -i 0.2 "$ADDR_B4"
show ip netns exec "$PEER_NS" ping -6 -c 5 -i 0.2 "$ADDR_A6"
echo
echo "== iperf3 TCP, 5 s, root netns -> peer"
ip netns exec "$PEER_NS" iperf3 -s -1 -B "$ADDR_B4" > /dev/null 2>&1 &
wait_until 10 iperf_listening "$PEER_NS"
show iperf3 -c "$ADDR_B4" -t 5 -f m
wait
echo
echo "== driver messages"
dmesg --color=never | grep -E "$dut|$NIC_A|$NIC_B" | tail -15
pair_down
