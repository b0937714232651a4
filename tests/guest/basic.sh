#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-basic: for the driver under test ($RONIC_DUT) against
# itself and against the in-tree igb (the DUT in the root netns, then in
# the peer netns): carrier, `ethtool -i` (driver, version, bus-info),
# IPv4 and IPv6 ping both ways with no loss. Then carrier follows the
# wire: QEMU's set_link (through vm.sh's monitor) takes NIC A's link down
# and up again. Then tests/guest/devlink.sh (devlink dev info).
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 32

PINGS=${RONIC_PINGS:-20}
dut=$RONIC_DUT

# ethtool_i_check TAG NS DEV BDF: driver is the DUT, a version, bus-info.
ethtool_i_check() {
	local tag=$1 ns=$2 dev=$3 bdf=$4 info drv ver bus
	info=$(in_ns "$ns" ethtool -i "$dev" 2>&1)
	printf '%s\n' "$info" | sed 's/^/#   /' >&2
	drv=$(echo "$info" | sed -n 's/^driver: //p')
	ver=$(echo "$info" | sed -n 's/^version: //p')
	bus=$(echo "$info" | sed -n 's/^bus-info: //p')
	if [ "$drv" = "$dut" ]; then
		pass "$tag: ethtool -i driver is $dut"
	else
		fail "$tag: ethtool -i driver is $dut" "driver: '$drv'"
	fi
	if [ -n "$ver" ]; then
		pass "$tag: ethtool -i has a version"
	else
		fail "$tag: ethtool -i has a version" "empty version"
	fi
	if [ "$bus" = "$bdf" ]; then
		pass "$tag: ethtool -i bus-info is the BDF"
	else
		fail "$tag: ethtool -i bus-info is the BDF" "'$bus' != '$bdf'"
	fi
}

n=0
for pair in "$dut $dut" "$dut igb" "igb $dut"; do
	read -r a b <<< "$pair"
	n=$((n + 1))
	# A is in the root netns, B in the peer one; the number keeps the
	# names apart when the DUT is igb.
	tag="$n $a<->$b"
	if ! pair_up "$a" "$b"; then
		fail "$tag: link up and first ping" "pair_up failed"
		pair_down
		continue
	fi
	pass "$tag: link up and first ping"
	if has_carrier "" "$NIC_A" && has_carrier "$PEER_NS" "$NIC_B"; then
		pass "$tag: carrier on both ends"
	else
		fail "$tag: carrier on both ends" \
			"$(link_info "" "$NIC_A") / $(link_info "$PEER_NS" "$NIC_B")"
	fi
	[ "$a" != "$dut" ] || ethtool_i_check "$tag: A" root "$NIC_A" "$BDF_A"
	[ "$b" != "$dut" ] || ethtool_i_check "$tag: B" "$PEER_NS" "$NIC_B" "$BDF_B"
	ping_check "$tag: IPv4 ping A->B $PINGS/$PINGS" root "$ADDR_B4" "$PINGS"
	ping_check "$tag: IPv4 ping B->A $PINGS/$PINGS" "$PEER_NS" "$ADDR_A4" "$PINGS"
	ping_check "$tag: IPv6 ping A->B $PINGS/$PINGS" root "$ADDR_B6" "$PINGS" -6
	ping_check "$tag: IPv6 ping B->A $PINGS/$PINGS" "$PEER_NS" "$ADDR_A6" "$PINGS" -6
	pair_down
done

# Link flap on the DUT (NIC A, QEMU's nic0) with a DUT peer.
if pair_up "$dut" "$dut"; then
	out=$(vm_hmp set_link nic0 off)
	if wait_until 15 lacks_carrier "" "$NIC_A"; then
		pass "link flap: carrier goes when the wire goes (set_link nic0 off)"
	else
		fail "link flap: carrier goes when the wire goes (set_link nic0 off)" \
			"$(link_info "" "$NIC_A"); monitor: $out"
	fi
	vm_hmp set_link nic0 on > /dev/null
	if wait_until 20 has_carrier "" "$NIC_A" &&
	   wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4" > /dev/null; then
		pass "link flap: carrier and ping come back (set_link nic0 on)"
	else
		fail "link flap: carrier and ping come back (set_link nic0 on)" \
			"$(link_info "" "$NIC_A")"
	fi
else
	fail "link flap: pair up" "pair_up failed"
fi
pair_down

# devlink dev info, in this boot rather than a VM of its own.
nested "$RONIC_TOP/tests/guest/devlink.sh"

finish
