#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own AF_XDP test program (tools/testing/selftests/bpf's
# xskxceiver, built from the debug kernel's tree by
# scripts/build-xskxceiver.sh) on ronic, in its physical-device mode: one
# port given as both ends, in loopback (ethtool -K loopback: what it sends
# comes back to it), one queue pair. Each test of its list runs in copy
# (drv) and zero-copy (zc) mode; its own SKIP is a skip here, never a pass.
# Not in make test yet: run by hand with
#   RONIC_XDP_PART=xskxceiver \
#   RONIC_XSKXCEIVER=$(scripts/build-xskxceiver.sh | tail -1) tests/run.sh t-xdp
# In this bed its receive loop times out even in copy mode (see
# Documentation/ronic.rst, AF_XDP).
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

X=${RONIC_XSKXCEIVER:?scripts/build-xskxceiver.sh}
MODES=${RONIC_XSKXCEIVER_MODES:-drv zc}
mapfile -t TESTS < <("$X" -l 2>&1 | sed -En 's/^ *([0-9]+)[:.) ]+ *([A-Z0-9_]+).*/\1 \2/p')
plan $((${#TESTS[@]} * $(wc -w <<< "$MODES")))

if ! pair_up ronic ronic; then
	fail "pair up ronic<->ronic" "pair_up failed"
	finish
fi
# A quiet port: the test checks every frame its socket receives against
# the sequence it sent, and in loopback the port also hears its own IPv6
# (MLD reports, router and neighbour solicitations) and ARP.
sysctl -qw "net.ipv6.conf.$NIC_A.disable_ipv6=1"
ip addr flush dev "$NIC_A"
ip link set dev "$NIC_A" arp off
ethtool -L "$NIC_A" combined 1
ethtool -K "$NIC_A" loopback on
ip link set dev "$NIC_A" promisc on
wait_until 20 has_carrier "" "$NIC_A"

# one MODE NUM NAME: test NUM in MODE, by its own verdict (TAP).
one() {
	local mode=$1 num=$2 name=$3 out t0=$SECONDS
	# Each test from the same state: a test that failed half-way, or one
	# whose program takes no multi-buffer frames, may leave its program or
	# its jumbo MTU behind, and the next test's MTU change is refused.
	ip link set dev "$NIC_A" xdp off 2>/dev/null
	ip link set dev "$NIC_A" mtu 1500
	out=$(timeout 300 "$X" -i "$NIC_A" -i "$NIC_A" -m "$mode" -t "$num" 2>&1)
	log "xskxceiver $mode $name: $((SECONDS - t0)) s"
	if grep -q '^ok .*# SKIP' <<< "$out"; then
		skip "xskxceiver $mode $name" "$(grep -m1 '# SKIP' <<< "$out" | sed 's/.*# SKIP *//')"
	elif grep -q '^ok ' <<< "$out" && ! grep -q '^not ok' <<< "$out"; then
		pass "xskxceiver $mode $name"
	else
		fail "xskxceiver $mode $name" "$(grep -m1 -E '^not ok|FAIL|ERROR|error' <<< "$out" | cut -c1-150)"
		echo "$out" | tail -15 >&2
	fi
}

for mode in $MODES; do
	for t in "${TESTS[@]}"; do
		one "$mode" "${t% *}" "${t#* }"
	done
done
ethtool -K "$NIC_A" loopback off
finish
