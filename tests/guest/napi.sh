#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NAPI instances through netdev netlink (run by tests/guest/debug.sh in
# the 7.3 debug kernel, with that tree's YNL, $RONIC_DEBUG_KSRC), on ronic
# against itself:
#  - one instance per queue pair in napi-get, each naming its IRQ;
#  - settings made with napi-set (GRO flush timeout, deferred hard IRQs),
#    different for each instance, are kept with the instance's NAPI ID
#    across down/up, -L 1 and back, and an XDP attach and detach (6.13's
#    per-instance config slots, netif_napi_add_config). Before 6.13 napi-set
#    does not exist; this runs in the 7.3 boot only.
# igb from the same tree first, as the reference: its results are logged,
# not counted.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 5

KSRC=${RONIC_DEBUG_KSRC:?RONIC_DEBUG_KSRC names the debug kernel tree}
OBJ=${RONIC_XDP_OBJ:?compiled test programs}
REFERENCE=0

ynl() {
	python3 "$KSRC/tools/net/ynl/pyynl/cli.py" \
		--spec "$KSRC/Documentation/netlink/specs/netdev.yaml" --output-json "$@"
}

# napi_state: port A's NAPI instances, one "ID GRO_FLUSH DEFER" line each,
# sorted by ID.
napi_state() {
	local ifindex
	read -r ifindex < "/sys/class/net/$NIC_A/ifindex"
	ynl --dump napi-get --json "{\"ifindex\": $ifindex}" |
		jq -r '.[] | "\(.id) \(."gro-flush-timeout" // 0) \(."defer-hard-irqs" // 0)"' | sort -n
}

# result NAME OK WHY: a check, or only a log line in igb's reference run.
result() {
	if [ "$REFERENCE" = 1 ]; then
		log "reference: $DRV: $1: $([ "$2" = 0 ] && echo ok || echo "not ok ($3)")"
	elif [ "$2" = 0 ]; then
		pass "napi: $1"
	else
		fail "napi: $1" "$3"
	fi
}

# kept_across NAME CMD...: CMD, the port back up, then the instances as
# they were before it.
kept_across() {
	local name=$1 now
	shift
	"$@" > /dev/null 2>&1
	wait_until 20 has_carrier "" "$NIC_A"
	now=$(napi_state)
	[ "$now" = "$BEFORE" ]
	result "IDs and napi-set settings kept across $name" $? \
		"before: $(echo "$BEFORE" | tr '\n' ','); after: $(echo "$now" | tr '\n' ',')"
}

# down_up: the port down and up again.
# shellcheck disable=SC2317 # called through kept_across
down_up() {
	ip link set dev "$NIC_A" down && ip link set dev "$NIC_A" up
}

# cycle_channels: -L 1, then back to every queue pair.
# shellcheck disable=SC2317 # called through kept_across
cycle_channels() {
	ethtool -L "$NIC_A" combined 1 && ethtool -L "$NIC_A" combined "$MAXQ"
}

# xdp_cycle: a program attached and detached.
# shellcheck disable=SC2317 # called through kept_across
xdp_cycle() {
	ip link set dev "$NIC_A" xdpdrv obj "$OBJ" program xdp_pass &&
		ip link set dev "$NIC_A" xdpdrv off
}

for DRV in igb ronic; do
	REFERENCE=$([ "$DRV" = igb ] && echo 1 || echo 0)
	if ! pair_up "$DRV" "$DRV"; then
		[ "$REFERENCE" = 1 ] || { fail "napi: pair up $DRV" "pair_up failed"; finish; }
		continue
	fi
	MAXQ=$(ethtool -l "$NIC_A" | awk '/^Current/ { c = 1 } c && /^Combined:/ { print $2 }')
	state=$(napi_state)
	n=$(grep -c . <<< "$state")
	irqs=$(read -r i < "/sys/class/net/$NIC_A/ifindex" &&
		ynl --dump napi-get --json "{\"ifindex\": $i}" | jq '[.[] | select(.irq > 0)] | length')
	[ "$n" = "$MAXQ" ] && [ "$irqs" = "$n" ]
	result "one instance per queue pair ($MAXQ), each with its IRQ" $? \
		"$n instances, $irqs with an IRQ"
	rc=0
	while read -r id _; do
		ynl --do napi-set --json "{\"id\": $id, \"gro-flush-timeout\": $((20000 + id)), \"defer-hard-irqs\": $((id % 7 + 1))}" \
			> /dev/null || rc=1
	done <<< "$state"
	BEFORE=$(napi_state)
	[ "$rc" = 0 ] && ! grep -q ' 0 0$' <<< "$BEFORE"
	result "napi-set on every instance" $? "$(echo "$BEFORE" | tr '\n' ',')"
	kept_across "down/up" down_up
	kept_across "-L 1 and back" cycle_channels
	kept_across "an XDP attach and detach" xdp_cycle
	pair_down
done
finish
