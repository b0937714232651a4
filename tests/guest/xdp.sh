#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-xdp: every XDP action on ronic (in the root netns, port
# A), driven by pings from the peer (port B), counted at the peer and in
# ronic's per-ring counters; a program attached while the port is down
# (kept, run at open); the errors a user meets (MTU too large); attach and
# detach under TCP traffic; and
# redirect into ronic from veth (ndo_xdp_xmit called by another driver).
# With more CPUs than XDP rings it checks that each CPU lands on ring
# cpu % rings. Multi-buffer frames at MTU 9000 (xdp.frags programs) and
# rx metadata (a device-bound program reading the RSS hash and VLAN tag);
# AF_XDP at the end (xsk.sh, nested);
# RONIC_XDP_PART=frags runs the multi-buffer cases alone (the debug boot),
# RONIC_XDP_PART=xsk the AF_XDP ones.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

OBJ=${RONIC_XDP_OBJ:?compiled test programs}
N=${RONIC_XDP_PINGS:-200}
# 2 ms; the debug kernel (KASAN under TCG) drains a ring too slowly for it
PING_INTERVAL=${RONIC_XDP_PING_INTERVAL:-0.002}

# sum_stat NS DEV REGEX: sum of the ethtool -S counters whose name matches.
sum_stat() {
	in_ns "$1" ethtool -S "$2" | awk -v re="^$3\$" \
		'{ n = $1; sub(":", "", n) } n ~ re { s += $2 } END { print s + 0 }'
}

tx_packets() {
	cat "/sys/class/net/$NIC_A/statistics/tx_packets"
}

peer_rx() {
	ip netns exec "$PEER_NS" cat "/sys/class/net/$NIC_B/statistics/rx_packets"
}

# peer_rx_reached N: the peer has counted at least N frames.
# shellcheck disable=SC2317 # called through wait_until
peer_rx_reached() {
	[ "$(peer_rx)" -ge "$1" ]
}

xdp_on() {
	ip link set dev "$NIC_A" xdpdrv obj "$OBJ" program "$1" 2>&1
}

xdp_off() {
	ip link set dev "$NIC_A" xdpdrv off
}

# Flood pings (of PING_SIZE bytes of data, 56) from the peer; print how
# many replies came back.
peer_pings() {
	ip netns exec "$PEER_NS" ping -q -c "$N" -s "${PING_SIZE:-56}" -i "$PING_INTERVAL" -W 1 \
		"$ADDR_A4" 2>/dev/null |
		sed -n 's/.* \([0-9]*\) received.*/\1/p'
}

# action_case PROG COUNTER EXPECT: run pings with PROG attached, check
# that COUNTER grew by N and what the peer saw (EXPECT: replies, none or
# echoed, the frames coming back to the peer as they were sent, and
# counted in the interface's tx_packets; refold: echoed, then new rings
# keep that count).
action_case() {
	local prog=$1 counter=$2 expect=$3 before after rx0 rx1 got out tx0 tx1
	before=$(sum_stat "" "$NIC_A" "$counter")
	tx0=$(tx_packets)
	rx0=$(peer_rx)
	if ! out=$(xdp_on "$prog"); then
		fail "$prog: attach" "$out"
		return
	fi
	got=$(peer_pings)
	rx1=$(peer_rx)
	xdp_off
	after=$(sum_stat "" "$NIC_A" "$counter")
	if [ $((after - before)) -ge "$N" ]; then
		pass "$prog: $counter counted $((after - before)) >= $N"
	else
		fail "$prog: $counter counted" "$((after - before)) < $N"
	fi
	case $expect in
	replies)
		[ "${got:-0}" -eq "$N" ] && pass "$prog: peer got $got/$N replies" ||
			fail "$prog: peer replies" "${got:-0}/$N"
		;;
	none)
		[ "${got:-0}" -eq 0 ] && pass "$prog: peer got no reply" ||
			fail "$prog: peer got no reply" "${got:-0} replies"
		;;
	echoed)
		# The echoed requests come back to the peer, not as replies.
		[ $((rx1 - rx0)) -ge "$N" ] &&
			pass "$prog: peer received $((rx1 - rx0)) frames back" ||
			fail "$prog: frames back at the peer" "$((rx1 - rx0)) < $N"
		# Sent by the XDP rings: the interface counts them as sent.
		tx1=$(tx_packets)
		[ $((tx1 - tx0)) -ge "$N" ] &&
			pass "$prog: tx_packets counted $((tx1 - tx0)) XDP frames" ||
			fail "$prog: tx_packets counts XDP frames" "grew by $((tx1 - tx0)) < $N"
		;;
	refold)
		# The same, and new rings (-G there and back) keep the count
		# (the XDP rings' counters are folded in, not lost).
		tx1=$(tx_packets)
		ethtool -G "$NIC_A" tx 128 && ethtool -G "$NIC_A" tx 256
		[ $((rx1 - rx0)) -ge "$N" ] && [ $((tx1 - tx0)) -ge "$N" ] &&
		[ "$(tx_packets)" -ge "$tx1" ] &&
			pass "$prog: tx_packets counted $((tx1 - tx0)) XDP frames, kept across -G" ||
			fail "$prog: tx_packets counts XDP frames, across -G" \
				"peer got $((rx1 - rx0)), grew by $((tx1 - tx0)) (< $N?), then $(tx_packets) (< $tx1?)"
		# The port's XDP totals in ethtool -S keep the old rings' counts.
		[ "$(sum_stat "" "$NIC_A" xdp_tx)" -ge $((after - before)) ] &&
		[ "$(sum_stat "" "$NIC_A" xdp_sent_packets)" -ge $((tx1 - tx0)) ] &&
			pass "$prog: ethtool -S xdp_tx and xdp_sent_packets kept across -G" ||
			fail "$prog: ethtool -S XDP totals kept across -G" \
				"xdp_tx $(sum_stat "" "$NIC_A" xdp_tx) < $((after - before)), or xdp_sent_packets $(sum_stat "" "$NIC_A" xdp_sent_packets) < $((tx1 - tx0))"
		wait_until 20 has_carrier "" "$NIC_A"
		;;
	esac
}

# A program attached while the port is down is kept, and runs once it opens
# (as systemd-networkd or xdp-loader at boot expect).
check_attach_while_down() {
	local out before after
	ip link set dev "$NIC_A" down
	if ! out=$(xdp_on xdp_pass); then
		fail "attach on a down port is accepted" "$out"
		ip link set dev "$NIC_A" up
		return
	fi
	pass "attach on a down port is accepted"
	before=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_pass")
	ip link set dev "$NIC_A" up
	wait_until 20 has_carrier "" "$NIC_A"
	ping -q -c 5 -i 0.2 -W 1 "$ADDR_B4" > /dev/null
	after=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_pass")
	[ $((after - before)) -ge 5 ] &&
		pass "the program attached while down runs after the open: xdp_pass grew by $((after - before))" ||
		fail "the program attached while down runs after the open" "xdp_pass grew by $((after - before))"
	xdp_off
}

check_errors() {
	local out

	ip link set dev "$NIC_A" mtu 9000
	if out=$(xdp_on xdp_pass); then
		fail "attach with MTU 9000 is refused" "accepted"
		xdp_off
	else
		echo "$out" | grep -q "too large" &&
			pass "attach with MTU 9000 is refused: too large" ||
			fail "attach with MTU 9000: message" "$out"
	fi
	ip link set dev "$NIC_A" mtu 1500
	xdp_on xdp_pass > /dev/null
	if ip link set dev "$NIC_A" mtu 9000 2>/dev/null; then
		fail "MTU 9000 under an XDP program is refused" "accepted"
	else
		pass "MTU 9000 under an XDP program is refused"
	fi
	xdp_off
	wait_until 20 has_carrier "" "$NIC_A"
	check "port works after the refusals" wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4"
}

check_features() {
	local feats
	feats=$(python3 "$RONIC_TOP/scripts/guest/netdev-features.py" "$NIC_A" 2>&1)
	for f in basic redirect ndo-xmit rx-sg ndo-xmit-sg; do
		skip_lacking XDP_FEATURES "xdp-features has $f" && continue
		echo "$feats" | grep -qw "$f" && pass "xdp-features has $f" ||
			fail "xdp-features has $f" "$feats"
	done
}

peer_rx_bytes() {
	ip netns exec "$PEER_NS" cat "/sys/class/net/$NIC_B/statistics/rx_bytes"
}

# sized_case PROG COUNTER BYTES: action_case's echoed case with pings of
# 8000 bytes (8042-byte frames: four rx buffers), and the frames that
# came back to the peer must be BYTES long on average (within 2%: the
# whole frame went out, fragments included, or what the program left).
sized_case() {
	local prog=$1 bytes=$3 b0 p0 b1 p1 avg
	b0=$(peer_rx_bytes)
	p0=$(peer_rx)
	PING_SIZE=8000 action_case "$prog" "$2" echoed
	b1=$(peer_rx_bytes)
	p1=$(peer_rx)
	avg=$(( (b1 - b0) / ((p1 - p0) > 0 ? p1 - p0 : 1) ))
	[ $((avg * 100)) -ge $((bytes * 98)) ] && [ $((avg * 100)) -le $((bytes * 102)) ] &&
		pass "$prog: frames back at the peer are $avg bytes (want $bytes)" ||
		fail "$prog: length of the frames back at the peer" "$avg bytes, want $bytes"
}

# check_multibuffer: MTU 9000 on both ports and programs that declare
# fragments (xdp.frags): attach, every action on frames of four buffers,
# a tail cut that frees fragments, a sha256-checked transfer through
# XDP_PASS; a program without fragments is refused there, in either order.
check_multibuffer() {
	local out file=/tmp/xdp-mb.bin p0 p1
	ip link set dev "$NIC_A" mtu 9000
	ip -n "$PEER_NS" link set dev "$NIC_B" mtu 9000
	wait_until 20 has_carrier "" "$NIC_A"
	wait_until 20 has_carrier "$PEER_NS" "$NIC_B"
	if out=$(xdp_on xdp_pass_frags); then
		pass "xdp.frags program attached at MTU 9000"
	else
		fail "xdp.frags program attached at MTU 9000" "$out"
	fi
	if out=$(ip -force link set dev "$NIC_A" xdpdrv obj "$OBJ" program xdp_pass 2>&1); then
		fail "a program without frags replacing one with them at MTU 9000 is refused" "accepted"
	else
		echo "$out" | grep -q "without frags" &&
			pass "a program without frags replacing one with them at MTU 9000 is refused: $(echo "$out" | grep -o 'MTU.*frags[^"]*' | head -1)" ||
			fail "a program without frags at MTU 9000: message" "$out"
	fi
	xdp_off
	PING_SIZE=8000 action_case xdp_pass_frags "rx[0-9]+_xdp_pass" replies
	PING_SIZE=8000 action_case xdp_drop_frags "rx[0-9]+_xdp_drop" none
	sized_case xdp_tx_back_frags "rx[0-9]+_xdp_tx" 8042
	# Before 6.3 (xdp_features) the core refuses XDP_REDIRECT of any
	# multi-buffer frame (-EOPNOTSUPP in xdp_do_redirect) for every driver.
	if kernel_lacks XDP_FEATURES; then
		for out in counted "frames back" tx_packets length; do
			skip "xdp_redirect_back_frags: $out" \
				"kernel $(uname -r) redirects no multi-buffer frame (before 6.3)"
		done
	else
		sized_case xdp_redirect_back_frags "rx[0-9]+_xdp_redirect" 8042
	fi
	sized_case xdp_trim_tx_frags "rx[0-9]+_xdp_tx" 6042
	xdp_on xdp_pass_frags > /dev/null
	sha_file "$file" 32
	p0=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_pass")
	sha_send "$file" 5400 120 &&
		pass "32 MiB each way at MTU 9000 through an xdp.frags XDP_PASS: sha256 matches" ||
		fail "32 MiB each way at MTU 9000 through an xdp.frags XDP_PASS" "sha256 differs"
	p1=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_pass")
	# 32 MiB in frames of at most 9000 bytes: at least 3728 of them.
	[ $((p1 - p0)) -ge 3728 ] &&
		pass "the transfer went through the program: xdp_pass grew by $((p1 - p0))" ||
		fail "the transfer went through the program" "xdp_pass grew by $((p1 - p0))"
	xdp_off
	rm -f "$file" "$file.sha256"
	ip link set dev "$NIC_A" mtu 1500
	xdp_on xdp_pass_frags > /dev/null
	if ip link set dev "$NIC_A" mtu 9000 2>/dev/null; then
		pass "MTU 9000 under an xdp.frags program is accepted"
	else
		fail "MTU 9000 under an xdp.frags program is accepted" "refused"
	fi
	xdp_off
	ip link set dev "$NIC_A" mtu 1500
	ip -n "$PEER_NS" link set dev "$NIC_B" mtu 1500
	check "port works after the multi-buffer cases" works
}

# rx metadata (bpf_xdp_metadata_rx_hash, _rx_vlan_tag): tests/xdp/ronic_meta
# keeps the driver's answers for the last TCP (port 5500), UDP (5501) and
# ICMP frame; each hash must be the Toeplitz hash of the flow under the
# port's key (ethtool -x), its type the flow's; with rxhash or rxvlan off
# the answer is -ENODATA.
META_DIR=${OBJ%/*}
ENODATA=61

# meta KIND FIELD: the program's record (0 TCP, 1 UDP, 2 ICMP).
meta() {
	bpftool -j map dump id "$META_MAP" |
		jq -r --argjson k "$1" ".[] | select(.formatted.key == \$k) | .formatted.value.$2"
}

# meta_seen_above KIND N: the program has seen more than N frames of KIND.
# shellcheck disable=SC2317 # called through wait_until
meta_seen_above() {
	[ "$(meta "$1" seen)" -gt "$2" ]
}

# meta_after KIND CMD...: run CMD (frames of KIND to A); true if the
# program saw at least one more frame of KIND.
meta_after() {
	local kind=$1 seen
	shift
	seen=$(meta "$kind" seen)
	"$@" > /dev/null 2>&1
	wait_until 5 meta_seen_above "$kind" "$seen"
}

# tcp_to_a SPORT, udp_to_a SPORT: a short flow from the peer's port SPORT
# to A's port 5500 (TCP) or 5501 (UDP).
# shellcheck disable=SC2317 # called through meta_after
tcp_to_a() {
	local listener
	timeout 10 socat -u "TCP-LISTEN:5500,reuseaddr,bind=$ADDR_A4" /dev/null &
	listener=$!
	wait_until 5 sh -c "ss -Hltn 'sport = :5500' | grep -q ."
	echo x | in_ns "$PEER_NS" timeout 5 socat -u - \
		"TCP:$ADDR_A4:5500,sourceport=$1,reuseaddr"
	wait "$listener"
}

# shellcheck disable=SC2317 # called through meta_after
udp_to_a() {
	echo x | in_ns "$PEER_NS" socat -u - "UDP:$ADDR_A4:5501,sourceport=$1"
}

# hash_case NAME KIND TYPE SPORT DPORT CMD...: the hash and type of KIND
# after CMD are the flow's Toeplitz hash and TYPE.
hash_case() {
	local name=$1 kind=$2 type=$3 sport=$4 dport=$5 key want got
	shift 5
	key=$(ethtool -x "$NIC_A" | sed -n '/RSS hash key/{n;p}')
	want=$(python3 "$RONIC_TOP/scripts/guest/rss_hash.py" "$key" "$ADDR_B4" "$ADDR_A4" "$sport" "$dport")
	if ! meta_after "$kind" "$@"; then
		fail "$name: the program saw the flow"
		return
	fi
	got="$(meta "$kind" hash_rc) $(meta "$kind" hash)"
	[ "$got" = "0 $want" ] &&
		pass "$name: rx_hash $want, the flow's Toeplitz hash under the port's key" ||
		fail "$name: rx_hash is the flow's Toeplitz hash" "rc and hash '$got', want '0 $want'"
	got=$(meta "$kind" type)
	[ "$got" = "$type" ] && pass "$name: hash type $type" ||
		fail "$name: hash type" "$got, want $type"
}

check_rx_metadata() {
	local out prog udp4 got
	if skip_lacking XDP_METADATA_OPS "rx metadata: device-bound program attached"; then
		for out in "TCP hash" "TCP type" "UDP hash" "UDP type" "rxhash off" \
			"VLAN tag" "rxvlan off"; do
			skip "rx metadata: $out" "kernel $(uname -r) has no XDP_METADATA_OPS"
		done
		return
	fi
	if ! out=$("$META_DIR/devbound_load" "$META_DIR/ronic_meta.o" xdp_meta "$NIC_A" 2>&1); then
		fail "rx metadata: device-bound program attached" "$out"
		return
	fi
	pass "rx metadata: device-bound program attached"
	prog=$(ip -j link show dev "$NIC_A" | jq -r '.[0].xdp.prog.id // empty')
	META_MAP=$(bpftool -j prog show id "${prog:-0}" | jq -r '.map_ids[0] // empty')
	# XDP_RSS_TYPE_L4_IPV4_TCP: L3_IPV4 | L4 | L4_TCP; _UDP: L3_IPV4 | L4 | L4_UDP
	hash_case "rx metadata: TCP" 0 25 40000 5500 tcp_to_a 40000
	udp4=$(ethtool -n "$NIC_A" rx-flow-hash udp4)
	ethtool -N "$NIC_A" rx-flow-hash udp4 sdfn
	hash_case "rx metadata: UDP" 1 41 40001 5501 udp_to_a 40001
	echo "$udp4" | grep -q "L4 bytes 0 & 1" || ethtool -N "$NIC_A" rx-flow-hash udp4 sd
	ethtool -K "$NIC_A" rxhash off
	meta_after 0 tcp_to_a 40002
	got=$(meta 0 hash_rc)
	[ "$got" = "-$ENODATA" ] && pass "rx metadata: rxhash off: rx_hash says -ENODATA" ||
		fail "rx metadata: rxhash off: rx_hash says -ENODATA" "rc $got"
	ethtool -K "$NIC_A" rxhash on
	if skip_lacking XMO_RX_VLAN_TAG "rx metadata: VLAN tag"; then
		skip "rx metadata: rxvlan off" "kernel $(uname -r) has no XMO_RX_VLAN_TAG"
	else
		ip link add link "$NIC_A" name mv100 type vlan id 100
		ip addr add 10.100.0.1/24 dev mv100
		ip link set mv100 up
		ip -n "$PEER_NS" link add link "$NIC_B" name mv100 type vlan id 100
		ip -n "$PEER_NS" addr add 10.100.0.2/24 dev mv100
		ip -n "$PEER_NS" link set mv100 up
		meta_after 2 in_ns "$PEER_NS" ping -c 3 -i 0.2 -W 1 10.100.0.1
		got="$(meta 2 vlan_rc) $(meta 2 vlan_proto) $(( $(meta 2 vlan_tci) & 4095 ))"
		[ "$got" = "0 33024 100" ] &&
			pass "rx metadata: the stripped tag: proto 0x8100, VLAN 100" ||
			fail "rx metadata: the stripped tag" "rc, proto, VLAN '$got', want '0 33024 100'"
		ethtool -K "$NIC_A" rxvlan off
		meta_after 2 in_ns "$PEER_NS" ping -c 3 -i 0.2 -W 1 10.100.0.1
		got=$(meta 2 vlan_rc)
		[ "$got" = "-$ENODATA" ] && pass "rx metadata: rxvlan off: rx_vlan_tag says -ENODATA" ||
			fail "rx metadata: rxvlan off: rx_vlan_tag says -ENODATA" "rc $got"
		ethtool -K "$NIC_A" rxvlan on
		ip link del mv100
		ip -n "$PEER_NS" link del mv100
	fi
	xdp_off
}

# Attach and detach while TCP runs from the peer: the stream survives.
check_swap_under_traffic() {
	local i out rc=0 log=/tmp/iperf-swap.json
	iperf3 -s -1 -B "$ADDR_A4" -p 5202 > /dev/null 2>&1 &
	wait_until 10 iperf_listening root 5202
	ip netns exec "$PEER_NS" iperf3 -c "$ADDR_A4" -p 5202 -t 8 -J > "$log" 2>&1 &
	local cpid=$!
	for i in $(seq 1 20); do
		out=$(xdp_on xdp_pass) || { rc=1; log "attach $i: $out"; }
		sleep 0.1
		xdp_off || rc=1
		sleep 0.1
	done
	wait "$cpid" || rc=1
	local mbps
	mbps=$(jq -r '(.end.sum_received.bits_per_second // 0) / 1e6 | floor' "$log" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "${mbps:-0}" -gt 0 ]; then
		pass "20 attach/detach under TCP: stream survived ($mbps Mbit/s)"
	else
		fail "20 attach/detach under TCP" "rc $rc, ${mbps:-0} Mbit/s"
	fi
}

# check_channels_under_xdp: ethtool -L with a program attached, under TCP:
# the stream survives, the program stays and keeps seeing the traffic.
check_channels_under_xdp() {
	local ch out rc=0 log=/tmp/iperf-ch.json mbps before after orig max
	orig=$(ethtool -l "$NIC_A" | awk '/^Current/ { c = 1 } c && /^Combined:/ { print $2 }')
	max=$(ethtool -l "$NIC_A" | awk '/^Combined:/ { print $2; exit }')
	if ! out=$(xdp_on xdp_pass); then
		fail "ethtool -L under XDP: attach" "$out"
		return
	fi
	iperf3 -s -1 -B "$ADDR_A4" -p 5203 > /dev/null 2>&1 &
	wait_until 10 iperf_listening root 5203
	ip netns exec "$PEER_NS" iperf3 -c "$ADDR_A4" -p 5203 -t 8 -J > "$log" 2>&1 &
	local cpid=$!
	sleep 1
	for ch in 1 "$max" 1 "$max" "$orig"; do
		ethtool -L "$NIC_A" combined "$ch" || { rc=1; log "-L combined $ch failed"; }
		sleep 0.5
	done
	wait "$cpid" || rc=1
	mbps=$(jq -r '(.end.sum_received.bits_per_second // 0) / 1e6 | floor' "$log" 2>/dev/null)
	[ "$rc" -eq 0 ] && [ "${mbps:-0}" -gt 0 ] &&
		pass "ethtool -L 1/$max/1/$max/$orig under TCP with XDP attached: stream survived ($mbps Mbit/s)" ||
		fail "ethtool -L under TCP with XDP attached" "rc $rc, ${mbps:-0} Mbit/s"
	before=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_pass")
	ping -q -c 5 -i 0.2 "$ADDR_B4" > /dev/null
	after=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_pass")
	ip -j link show dev "$NIC_A" | jq -e '.[0].xdp.prog.id' > /dev/null &&
	[ $((after - before)) -ge 5 ] &&
		pass "program still attached and running after the channel changes" ||
		fail "program still attached and running after the channel changes" \
			"xdp_pass grew by $((after - before))"
	xdp_off
	wait_until 20 has_carrier "" "$NIC_A"
}

# veth_up / veth_down: a veth pair vx0 (root) / vx1 (netns vs) whose
# frames a program on vx0 redirects into NIC_A (ndo_xdp_xmit). Frames from
# vx1 go to the peer's MAC; xdp_redirect_map on vx0 sends them on through
# NIC_A unchanged (tx_port[0] = NIC_A), so the peer counts them. (Not
# xdp-bench redirect: it also loads a program on the target port, which
# fails when NIC_A already runs one.) The peer is promiscuous in case a
# frame is ever rewritten. vx1 sends nothing but what a case sends.
veth_up() {
	local mac_b
	mac_b=$(ip netns exec "$PEER_NS" cat "/sys/class/net/$NIC_B/address")
	ip netns add vs
	# No IPv6 in vs: its router solicitations and reports go out from
	# kworkers on any CPU, through the veth's NAPI there, to another ring.
	ip netns exec vs sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
	ip link add vx0 type veth peer name vx1
	ip link set vx1 netns vs
	ip addr add 10.9.9.1/24 dev vx0
	ip link set vx0 up
	ip -n vs addr add 10.9.9.2/24 dev vx1
	ip -n vs link set vx1 up
	ip -n vs link set lo up
	ip -n vs neigh add 10.9.9.1 lladdr "$mac_b" dev vx1
	ip -n "$PEER_NS" link set dev "$NIC_B" promisc on
	local out prog map idx
	if ! out=$(ip link set dev vx0 xdpdrv obj "$OBJ" program xdp_redirect_map 2>&1); then
		log "veth: attach xdp_redirect_map on vx0: $out"
		return 1
	fi
	prog=$(ip -j link show dev vx0 | jq -r '.[0].xdp.prog.id // empty')
	map=$(bpftool -j prog show id "${prog:-0}" | jq -r '.map_ids[0] // empty')
	idx=$(cat "/sys/class/net/$NIC_A/ifindex")
	# shellcheck disable=SC2046 # four bytes, little endian
	bpftool map update id "${map:-0}" key 0 0 0 0 value \
		$(printf '%d %d %d %d' $((idx & 255)) $((idx >> 8 & 255)) $((idx >> 16 & 255)) $((idx >> 24))) ||
		{ log "veth: cannot set tx_port (prog ${prog:-none}, map ${map:-none})"; return 1; }
	sleep 1
}

veth_down() {
	ip link set dev vx0 xdpdrv off 2>/dev/null
	ip link del vx0
	ip netns del vs
	ip -n "$PEER_NS" link set dev "$NIC_B" promisc off
}

# veth_pings CPU: N pings from vx1 with the sender pinned to CPU.
veth_pings() {
	# -W 1: nothing answers these, and ping would linger 10 s for replies.
	ip netns exec vs taskset -c "$1" ping -q -c "$N" -i 0.002 -W 1 10.9.9.1 > /dev/null 2>&1
}

# check_veth_redirect: with RONIC_XDP_CPUS given, the sender is pinned to
# each CPU in turn and the XDP ring it used must be cpu % rings.
check_veth_redirect() {
	local rings cpu ring before after rx0 rx1
	veth_up
	rings=$(ethtool -S "$NIC_A" | grep -c '^ *xdp[0-9]*_xdp_xmit:')
	log "$NIC_A has $rings XDP rings for $(nproc) CPUs"
	for cpu in ${RONIC_XDP_CPUS:-0}; do
		ring=$((cpu % rings))
		before=$(sum_stat "" "$NIC_A" "xdp${ring}_xdp_xmit")
		rx0=$(peer_rx)
		veth_pings "$cpu"
		rx1=$(peer_rx)
		after=$(sum_stat "" "$NIC_A" "xdp${ring}_xdp_xmit")
		if [ $((after - before)) -ge "$N" ] && [ $((rx1 - rx0)) -ge "$N" ]; then
			pass "veth->ronic redirect from CPU $cpu: ring $ring sent $((after - before)), peer got $((rx1 - rx0))"
		else
			fail "veth->ronic redirect from CPU $cpu on ring $ring" \
				"ring counted $((after - before)), peer got $((rx1 - rx0)) of $N"
		fi
	done
	veth_down
}

# queue_irqs DEV: "IRQ QUEUE" for each of DEV's queue vectors.
queue_irqs() {
	sed -En "s/^ *([0-9]+):.* $1-TxRx-([0-9]+)\$/\1 \2/p" /proc/interrupts
}

# check_tx_on_high_cpus: A's queue vector q pinned to CPU 64 + (q + 1) % 8,
# so XDP_TX from rx queue q must land on XDP ring (64 + (q + 1) % 8) % rings
# (not ring q, which a selector ignoring the CPU would pick), under the
# ring lock; at the same time a veth redirect into A from CPU 0 (ring 0,
# shared with the CPU of one rx queue). Every frame of both must reach the
# peer.
check_tx_on_high_cpus() {
	local rings irq q cpu rxq want before_tx after_tx rx0 rx1 got_rxq=-1 d lk0 lk1 out
	local x0 x1 vpid sent
	rings=$(ethtool -S "$NIC_A" | grep -c '^ *xdp[0-9]*_xdp_xmit:')
	while read -r irq q; do
		cpu=$((64 + (q + 1) % 8))
		echo "$cpu" > "/proc/irq/$irq/smp_affinity_list" ||
			fail "pin IRQ $irq (queue $q) to CPU $cpu"
	done < <(queue_irqs "$NIC_A")
	log "$NIC_A queue IRQs: $(queue_irqs "$NIC_A" | while read -r irq q; do
		printf '%s->%s ' "$q" "$(cat "/proc/irq/$irq/effective_affinity_list")"; done)"
	if ! out=$(xdp_on xdp_tx_back); then
		fail "xdp_tx_back attach" "$out"
	fi
	declare -A before_rx=() before_ring=()
	for ((q = 0; q < rings; q++)); do
		before_ring[$q]=$(sum_stat "" "$NIC_A" "xdp${q}_packets")
	done
	for rxq in $(ethtool -S "$NIC_A" | sed -En 's/^ *rx([0-9]+)_xdp_tx:.*/\1/p'); do
		before_rx[$rxq]=$(sum_stat "" "$NIC_A" "rx${rxq}_xdp_tx")
	done
	veth_up
	lk0=$(sum_stat "" "$NIC_A" "xdp[0-9]+_xdp_locked")
	before_tx=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_tx")
	x0=$(sum_stat "" "$NIC_A" "xdp[0-9]+_xdp_xmit")
	rx0=$(peer_rx)
	veth_pings 0 &
	vpid=$!
	peer_pings > /dev/null
	wait "$vpid"
	sleep 1
	after_tx=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_tx")
	x1=$(sum_stat "" "$NIC_A" "xdp[0-9]+_xdp_xmit")
	lk1=$(sum_stat "" "$NIC_A" "xdp[0-9]+_xdp_locked")
	sent=$((after_tx - before_tx + x1 - x0))
	# 72 vCPUs on two host cores: the peer's last interrupt can be late.
	wait_until 10 peer_rx_reached $((rx0 + sent))
	rx1=$(peer_rx)
	[ $((rx1 - rx0)) -ge "$sent" ] ||
		log "peer $NIC_B: $(ip netns exec "$PEER_NS" ip -s link show dev "$NIC_B" | tr -s ' \n' ' ')"
	veth_down
	xdp_off
	[ $((x1 - x0)) -ge "$N" ] &&
		pass "veth redirect from CPU 0 during XDP_TX on CPUs 64-71: $((x1 - x0)) frames sent" ||
		fail "veth redirect from CPU 0 during XDP_TX on CPUs 64-71" "$((x1 - x0)) of $N sent"
	for rxq in "${!before_rx[@]}"; do
		d=$(( $(sum_stat "" "$NIC_A" "rx${rxq}_xdp_tx") - before_rx[$rxq] ))
		[ "$d" -ge "$N" ] && got_rxq=$rxq
	done
	if [ "$got_rxq" -ge 0 ]; then
		want=$(( (64 + (got_rxq + 1) % 8) % rings ))
		d=$(( $(sum_stat "" "$NIC_A" "xdp${want}_packets") - before_ring[$want] ))
		[ "$d" -ge "$N" ] &&
			pass "XDP_TX from rx queue $got_rxq on CPU $((64 + (got_rxq + 1) % 8)) went out on XDP ring $want ($d frames)" ||
			fail "XDP_TX from rx queue $got_rxq on ring $want" "ring sent $d"
	else
		fail "XDP_TX on CPUs 64-71" "no rx queue counted $N xdp_tx"
	fi
	[ $((rx1 - rx0)) -ge "$sent" ] && [ $((after_tx - before_tx)) -ge "$N" ] &&
		pass "peer got every frame: $((rx1 - rx0)) >= $sent sent by XDP_TX and the redirect" ||
		fail "peer got every frame" "$((rx1 - rx0)) of $sent sent by XDP_TX and the redirect"
	[ $((lk1 - lk0)) -ge "$N" ] &&
		pass "the locking path is in use: xdp_locked grew by $((lk1 - lk0))" ||
		fail "the locking path is in use" "xdp_locked grew by $((lk1 - lk0))"
}

# check_interleaved_cycles N: attach and detach on both ports in turn, N
# times, with a channel change (new rings: the key's reference dropped
# and taken again) every 20 cycles, under pings; both ports still work.
check_interleaved_cycles() {
	local n=$1 i rc=0 out ch t0=$SECONDS
	for ((i = 1; i <= n; i++)); do
		out=$(xdp_on xdp_pass) || { rc=1; log "A attach $i: $out"; }
		out=$(ip -n "$PEER_NS" link set dev "$NIC_B" xdpdrv obj "$OBJ" program xdp_pass 2>&1) ||
			{ rc=1; log "B attach $i: $out"; }
		xdp_off || rc=1
		ip -n "$PEER_NS" link set dev "$NIC_B" xdpdrv off || rc=1
		if [ $((i % 20)) -eq 0 ]; then
			ch=$(( (i / 20) % 2 ? 4 : 8 ))
			ethtool -L "$NIC_A" combined "$ch" || rc=1
			in_ns "$PEER_NS" ethtool -L "$NIC_B" combined "$ch" || rc=1
		fi
	done
	wait_until 20 has_carrier "" "$NIC_A"
	log "$n interleaved cycles took $((SECONDS - t0)) s"
	[ "$rc" -eq 0 ] && held "XDP: $n interleaved attach/detach cycles on both ports, $(nproc) CPUs"
	[ "$rc" -eq 0 ] && pass "$n interleaved attach/detach cycles on both ports" ||
		fail "$n interleaved attach/detach cycles on both ports" "a step failed"
	check "both ports carry pings after the cycles" wait_until 20 ping -q -c 3 -i 0.2 -W 1 "$ADDR_B4"
}

if ! pair_up ronic ronic; then
	fail "pair up ronic<->ronic"
	finish
fi

static_neighbours

# The debug boot's part: multi-buffer frames alone (not rx metadata: its
# kfuncs resolve through the kernel's BTF, which the debug kernel, built
# without DWARF, does not have).
# check_drop_reuse: XDP_DROP puts a frame's one buffer straight back on
# its ring (no trip through the pool): four rings' worth of pings dropped,
# every slot of the queue reused several times, then the same rings carry
# a sha256-checked transfer.
check_drop_reuse() {
	local before after n file=/tmp/xdp-reuse.bin
	n=$((4 * $(ring_size "$NIC_A" RX)))
	before=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_drop")
	if ! xdp_on xdp_drop > /dev/null; then
		fail "XDP_DROP buffer reuse: attach"
		return
	fi
	in_ns "$PEER_NS" ping -q -i 0.002 -c "$n" -W 1 "$ADDR_A4" > /dev/null
	xdp_off
	after=$(sum_stat "" "$NIC_A" "rx[0-9]+_xdp_drop")
	sha_file "$file" 8
	if [ $((after - before)) -ge "$n" ] && sha_send "$file" 5401 120; then
		pass "XDP_DROP reuses its buffers: $((after - before)) dropped (>= $n, four rings), then 8 MiB each way intact"
	else
		fail "XDP_DROP reuses its buffers" "$((after - before)) of $n dropped, or the transfer after them failed"
	fi
}

if [ "${RONIC_XDP_PART:-}" = frags ]; then
	plan 22
	check_multibuffer
	finish
fi
# The kernel's AF_XDP test program alone (RONIC_XDP_PART=xskxceiver).
if [ "${RONIC_XDP_PART:-}" = xskxceiver ]; then
	plan 0
	pair_down
	nested "$RONIC_TOP/tests/guest/xskxceiver.sh"
	finish
fi
# AF_XDP alone (RONIC_XDP_PART=xsk: the debug boot, and a quick run).
if [ "${RONIC_XDP_PART:-}" = xsk ]; then
	plan 0
	pair_down
	nested "$RONIC_TOP/tests/guest/xsk.sh"
	finish
fi

if [ "${RONIC_XDP_MANY_CPUS:-0}" = 1 ]; then
	plan 16
	rings=$(ethtool -S "$NIC_A" | grep -c '^ *xdp[0-9]*_xdp_xmit:')
	[ "$rings" -ge 1 ] && [ "$rings" -lt "$(nproc)" ] &&
		pass "$(nproc) CPUs share $rings XDP rings" ||
		fail "XDP rings for $(nproc) CPUs" "$rings rings"
	# The ring of CPU c is c % rings: the first CPU, the last with a ring
	# of its own, the first to share, one in the middle, the first of
	# the last wrap and the last CPU.
	RONIC_XDP_CPUS="0 7 8 40 64 71" check_veth_redirect
	action_case xdp_tx_back "rx[0-9]+_xdp_tx" echoed
	check_tx_on_high_cpus
	check_interleaved_cycles "${RONIC_XDP_CYCLES:-100}"
	finish
fi
plan 64

check_attach_while_down
check_errors
check_features
action_case xdp_pass "rx[0-9]+_xdp_pass" replies
action_case xdp_drop "rx[0-9]+_xdp_drop" none
check_drop_reuse
action_case xdp_aborted "rx[0-9]+_xdp_aborted" none
action_case xdp_tx_back "rx[0-9]+_xdp_tx" echoed
action_case xdp_tx_back "rx[0-9]+_xdp_tx" refold
action_case xdp_redirect_back "rx[0-9]+_xdp_redirect" echoed
check_multibuffer
check_rx_metadata
before=$(sum_stat "" "$NIC_A" "xdp[0-9]+_xdp_xmit")
[ "$before" -ge "$N" ] && pass "ndo_xdp_xmit counted $before frames" ||
	fail "ndo_xdp_xmit counted" "$before"
check_swap_under_traffic
check_channels_under_xdp
RONIC_XDP_CPUS="0 1" check_veth_redirect
locked=$(sum_stat "" "$NIC_A" "xdp[0-9]+_xdp_locked")
[ "$locked" -eq 0 ] &&
	pass "$(nproc) CPUs, a ring each: lock-free path (xdp_locked 0)" ||
	fail "$(nproc) CPUs, a ring each: lock-free path" "xdp_locked $locked"
check "port still carries pings" ping -q -c 5 -i 0.2 "$ADDR_B4"
pair_down
nested "$RONIC_TOP/tests/guest/xsk.sh"
finish
