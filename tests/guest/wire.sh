#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the wire faults (nested in recover.sh, the VM booted with
# vm.sh --injector): frames no Linux peer would send, written onto the
# wire from the host (scripts/inject-frames.py) to NIC A's address while a
# sha256-checked transfer runs between A and B. Then:
#  - the transfer is intact, and the port still works;
#  - no frame with a bad checksum was marked checksum-good: the stack
#    found every bad IPv4 header, TCP and UDP checksum itself (its
#    InCsumErrors counters grew by exactly the frames sent), and ronic's
#    rxN_csum_err by at least as many;
#  - the device counted every frame under 60 bytes (rx_undersize) and kept
#    the oversize ones out of the stack, the stack counted the truncated
#    ones (InTruncatedPkts);
#  - valid but unusual frames (IPv4 options, an IPv6 hop-by-hop header)
#    reached UDP (NoPorts), double-tagged ones the VLAN device of their
#    outer tag with stripping on and off, random bytes nothing at all;
#  - no kernel report (vm.sh reads the whole boot's log).
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 13

N=50
if ! pair_up ronic ronic; then
	fail "pair up ronic<->ronic" "pair_up failed"
	finish
fi

# snmp PROTO FIELD: a counter of /proc/net/snmp or /proc/net/netstat
# ("Tcp" "InCsumErrors", "IpExt" "InTruncatedPkts").
snmp() {
	awk -v p="$1:" -v f="$2" '$1 == p {
		if (!h) { for (i = 2; i <= NF; i++) idx[$i] = i; h = 1 }
		else print $idx[f] }' /proc/net/snmp /proc/net/netstat
}

snmp6() {
	awk -v f="$1" '$1 == f { print $2 }' /proc/net/snmp6
}

vlan_rx() {
	cat /sys/class/net/wv100/statistics/rx_packets
}

# inject KIND=COUNT...: frames to A from a made-up station.
inject() {
	vm_inject --dst "$(cat "/sys/class/net/$NIC_A/address")" \
		--src 02:00:00:00:00:99 --ip-dst "$ADDR_A4" --ip-src "$ADDR_B4" \
		--ip6-dst "$ADDR_A6" --ip6-src "$ADDR_B6" --seed 7 "$@"
}

# No ARP (42 bytes, a short frame) during the counts.
static_neighbours

# A VLAN device for the outer tag 100 of the double-tagged frames.
ip link add link "$NIC_A" name wv100 type vlan id 100
ip link set wv100 up

declare -A c0
snapshot() {
	c0[csum_err]=$(stat_sum "rx[0-9]+_csum_err")
	c0[ruc]=$(stat_of rx_undersize)
	c0[roc]=$(stat_of rx_oversize)
	c0[tcp_csum]=$(snmp Tcp InCsumErrors)
	c0[udp_csum]=$(snmp Udp InCsumErrors)
	c0[ip_csum]=$(snmp IpExt InCsumErrors)
	c0[ip_trunc]=$(snmp IpExt InTruncatedPkts)
	c0[udp_noports]=$(snmp Udp NoPorts)
	c0[udp6_noports]=$(snmp6 Udp6NoPorts)
	c0[vlan]=$(vlan_rx)
}

# grew KEY NOW: how much a snapshot counter grew.
grew() {
	echo $(($2 - c0[$1]))
}

# grew_by NAME KEY NOW WANT: a check that it grew by exactly WANT.
grew_by() {
	local d
	d=$(grew "$2" "$3")
	[ "$d" -eq "$4" ] && pass "$1: grew by $d" || fail "$1" "grew by $d, want $4"
}

sha_file /tmp/wire.bin 32
snapshot
sha_send /tmp/wire.bin 5600 120 > /tmp/wire-sha.out 2>&1 &
sha=$!
wait_until 10 test "$(cat "/sys/class/net/$NIC_A/statistics/rx_bytes")" -gt 2000000
out=$(inject runt=$N oversize=$N bad-ip-csum=$N bad-tcp-csum=$N bad-udp-csum=$N \
	ip-options=$N ipv6-ext=$N truncated=$N qinq=$N vlan-in-vlan=$N random=500)
rc=$?
log "injected: $(echo "$out" | tr '\n' ' ')"
[ "$rc" -eq 0 ] && pass "injector: $((10 * N + 500)) frames onto the wire during the transfer" ||
	fail "injector" "$out"
if wait "$sha"; then
	pass "transfer through the malformed frames: 32 MiB each way, sha256 right"
else
	fail "transfer through the malformed frames" "$(cat /tmp/wire-sha.out)"
fi
# ethtool -S has the MAC's counters (rx_undersize) as of the watchdog's
# last read, every 2 s: wait past the next one.
sleep 2.5

grew_by "bad TCP checksums, none marked good: TcpInCsumErrors" tcp_csum \
	"$(snmp Tcp InCsumErrors)" "$N"
grew_by "bad UDP checksums, none marked good: UdpInCsumErrors" udp_csum \
	"$(snmp Udp InCsumErrors)" "$N"
grew_by "bad IPv4 header checksums: IpExt InCsumErrors" ip_csum \
	"$(snmp IpExt InCsumErrors)" "$N"
d=$(grew csum_err "$(stat_sum "rx[0-9]+_csum_err")")
[ "$d" -ge $((3 * N)) ] && pass "ronic counted $d checksum errors (rxN_csum_err, >= $((3 * N)))" ||
	fail "ronic's rxN_csum_err" "grew by $d, want >= $((3 * N))"
# Every frame under 60 bytes the injector sent (the runts, the 54-byte
# SYNs, short random ones) and nothing else: the transfer's own frames
# carry TCP timestamps (66 bytes and more), the neighbours are static.
short=$(sed -n 's/^short //p' <<< "$out")
grew_by "frames under 60 bytes sent ($short): rx_undersize" ruc \
	"$(stat_of rx_undersize)" "${short:--1}"
grew_by "truncated IPv4: InTruncatedPkts" ip_trunc "$(snmp IpExt InTruncatedPkts)" "$N"
# Of the UDP frames to port 9 with good checksums, the IPv4-options ones
# alone may reach UDP: the 9500-byte ones must not (the device drops a
# frame over RLPML; QEMU's model does so without counting rx_oversize).
log "rx_oversize moved by $(grew roc "$(stat_of rx_oversize)")"
grew_by "oversize frames kept out of the stack, IPv4 options let in: Udp NoPorts" \
	udp_noports "$(snmp Udp NoPorts)" "$N"
grew_by "IPv6 hop-by-hop frames reached UDP: Udp6NoPorts" udp6_noports \
	"$(snmp6 Udp6NoPorts)" "$N"
# vlan-in-vlan (outer 802.1Q 100): the VLAN device; qinq (outer 802.1ad): not.
grew_by "double-tagged frames, stripping on, at the outer tag's VLAN device" vlan \
	"$(vlan_rx)" "$N"
ethtool -K "$NIC_A" rxvlan off
c0[vlan]=$(vlan_rx)
inject qinq=$N vlan-in-vlan=$N > /dev/null
sleep 2.5
grew_by "double-tagged frames, stripping off, at the outer tag's VLAN device" vlan \
	"$(vlan_rx)" "$N"
ethtool -K "$NIC_A" rxvlan on
ip link del wv100
rm -f /tmp/wire.bin /tmp/wire.bin.sha256
check "port works after the malformed frames" works
held "wire: $((12 * N + 500)) malformed or unusual frames injected under a sha256-checked transfer"
pair_down
finish
