#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-unload, for the driver under test ($RONIC_DUT):
#  1. rmmod while iperf3 runs through it; modprobe again; traffic again.
#  2. RONIC_CYCLES (20) load/unload cycles, both NICs with carrier in each,
#     module refcount 0 before each rmmod, /sys/module/<dut> gone after;
#     memory in use after the cycles no more than RONIC_LEAK_MB (16 MB)
#     above before them.
#  3. Autoload: the device's modalias resolves to the DUT (modprobe -R,
#     --show-depends), and `modprobe <modalias>` with the other driver
#     blacklisted and no driver_override loads the DUT and binds it.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 13

dut=$RONIC_DUT
if [ "$dut" = igb ]; then other=ronic; else other=igb; fi
cycles=${RONIC_CYCLES:-20}
leak_mb=${RONIC_LEAK_MB:-16}
mapfile -t bdfs < <(nic_bdfs)

# ---------------------------------------------------------- 1. under load
iperf_long() {
	in_ns "$PEER_NS" iperf3 -s -1 -B "$ADDR_B4" > /tmp/unload-server.log 2>&1 &
	wait_until 10 iperf_listening "$PEER_NS" || return 1
	iperf3 -c "$ADDR_B4" -t 60 -i 0 > /tmp/unload-client.log 2>&1 &
	client=$!
}

if pair_up "$dut" "$dut"; then
	pass "unload: pair up $dut<->$dut"
	client=
	iperf_long || log "iperf3 server did not start"
	tx0=$(cat "/sys/class/net/$NIC_A/statistics/tx_bytes")
	sleep 4
	tx1=$(cat "/sys/class/net/$NIC_A/statistics/tx_bytes")
	if [ $((tx1 - tx0)) -gt 1000000 ]; then
		pass "unload: iperf3 traffic flows before rmmod"
	else
		fail "unload: iperf3 traffic flows before rmmod" \
			"$((tx1 - tx0)) bytes sent in 4 s"
	fi
	t0=$SECONDS
	if unload_driver "$dut" 60; then
		pass "unload: rmmod $dut during iperf3 ($((SECONDS - t0)) s)"
	else
		fail "unload: rmmod $dut during iperf3" "rmmod failed or hung"
	fi
	if [ ! -d "/sys/module/$dut" ] && [ -z "$(nic_driver "${bdfs[0]}")" ] &&
	   [ -z "$(nic_driver "${bdfs[1]}")" ]; then
		pass "unload: $dut gone and both NICs unbound"
	else
		fail "unload: $dut gone and both NICs unbound" \
			"$(ls -d "/sys/module/$dut" 2>/dev/null) drivers: '$(nic_driver "${bdfs[0]}")' '$(nic_driver "${bdfs[1]}")'"
	fi
	[ -z "$client" ] || kill "$client" 2>/dev/null
	pair_down
	wait 2>/dev/null
	if pair_up "$dut" "$dut"; then
		pass "unload: modprobe $dut again, link and ping"
		ping_check "unload: IPv4 ping after reload 20/20" root "$ADDR_B4" 20
		if m=$(iperf_tcp root "$PEER_NS" 3); then
			pass "unload: iperf3 after reload ($m Mbit/s)"
		else
			fail "unload: iperf3 after reload" "${m:-0} Mbit/s"
		fi
	else
		fail "unload: modprobe $dut again, link and ping" "pair_up failed"
	fi
	pair_down
else
	fail "unload: pair up $dut<->$dut" "pair_up failed"
fi

# ---------------------------------------------------------- 2. cycles
# used_kb: memory in use with the caches dropped.
used_kb() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	awk '/^MemTotal:/ { t = $2 } /^MemAvailable:/ { a = $2 }
	     END { print t - a }' /proc/meminfo
}
sunreclaim_kb() {
	awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo
}

# one_cycle N: load, both NICs up with carrier, refcount 0, unload.
one_cycle() {
	local i=$1 b n
	modprobe "$dut" || { echo "cycle $i: modprobe $dut failed"; return 1; }
	for b in "${bdfs[@]}"; do
		if ! wait_until 20 nic_netdev "$b" > /dev/null; then
			echo "cycle $i: $b has no netdev (driver '$(nic_driver "$b")')"
			return 1
		fi
		n=$(nic_netdev "$b")
		ip link set dev "$n" up
	done
	for b in "${bdfs[@]}"; do
		n=$(nic_netdev "$b")
		if ! wait_until 20 has_carrier "" "$n"; then
			echo "cycle $i: no carrier on $n: $(link_info "" "$n")"
			return 1
		fi
	done
	n=$(cat "/sys/module/$dut/refcnt")
	if [ "$n" != 0 ]; then
		echo "cycle $i: refcnt $n before rmmod"
		return 1
	fi
	if ! unload_driver "$dut" 60; then
		echo "cycle $i: rmmod $dut failed, hung or left /sys/module/$dut"
		return 1
	fi
}

unload_driver "$dut"
for b in "${bdfs[@]}"; do set_override "$b" "$dut"; unbind_nic "$b"; done
# A warm-up cycle first: the first load allocates things that stay.
warm=$(one_cycle 0)
used0=$(used_kb); slab0=$(sunreclaim_kb)
err=
t0=$SECONDS
for i in $(seq 1 "$cycles"); do
	if ! err=$(one_cycle "$i"); then
		break
	fi
	err=
done
used1=$(used_kb); slab1=$(sunreclaim_kb)
if [ -z "$warm" ] && [ -z "$err" ]; then
	pass "unload: $cycles load/unload cycles with carrier, refcnt 0, module gone ($((SECONDS - t0)) s)"
else
	fail "unload: $cycles load/unload cycles with carrier, refcnt 0, module gone" "$warm$err"
fi
delta=$(((used1 - used0) / 1024)); dslab=$(((slab1 - slab0) / 1024))
log "memory in use: $((used0 / 1024)) -> $((used1 / 1024)) MB ($delta MB); SUnreclaim $((slab0 / 1024)) -> $((slab1 / 1024)) MB"
echo "cycles=$cycles used_kb_before=$used0 used_kb_after=$used1 sunreclaim_kb_before=$slab0 sunreclaim_kb_after=$slab1" \
	> "$RONIC_RESULTS/unload-memory.txt"
if [ "$delta" -le "$leak_mb" ] && [ "$dslab" -le "$leak_mb" ]; then
	pass "unload: memory after $cycles cycles within $leak_mb MB (+$delta MB, slab +$dslab MB)"
	held "unload: $cycles rmmod/modprobe cycles, memory +$delta MB, slab +$dslab MB"
else
	fail "unload: memory after $cycles cycles within $leak_mb MB" "+$delta MB, unreclaimable slab +$dslab MB"
fi

# ---------------------------------------------------------- 3. autoload
unload_driver "$dut"
unload_driver "$other"
for b in "${bdfs[@]}"; do set_override "$b" ""; done
[ "$dut" != ronic ] || ronic_install
alias=$(cat "/sys/bus/pci/devices/${bdfs[0]}/modalias")
log "modalias of ${bdfs[0]}: $alias"
resolved=$(modprobe -R "$alias" 2>&1 | tr '\n' ' ')
log "modprobe -R: $resolved"
if echo " $resolved " | grep -q " $dut "; then
	pass "autoload: modprobe -R <modalias> lists $dut"
else
	fail "autoload: modprobe -R <modalias> lists $dut" "resolves to: $resolved"
fi
if modprobe --show-depends "$alias" 2>&1 | grep -Eq "/$dut\\.ko(\\.[a-z]+)? *\$"; then
	pass "autoload: modprobe --show-depends <modalias> names $dut.ko"
else
	fail "autoload: modprobe --show-depends <modalias> names $dut.ko" \
		"$(modprobe --show-depends "$alias" 2>&1 | tr '\n' ' ')"
fi
# The in-tree igb matches the same ID: blacklist the other driver, which
# only affects loading by alias, so this load can come from the DUT's own
# ID table only.
echo "blacklist $other" > /etc/modprobe.d/ronic-test-autoload.conf
if modprobe "$alias" && [ -d "/sys/module/$dut" ] &&
   wait_until 20 test "$(nic_driver "${bdfs[0]}")" = "$dut" &&
   wait_until 20 nic_netdev "${bdfs[0]}" > /dev/null; then
	pass "autoload: modprobe <modalias> loads $dut, which binds ${bdfs[0]} without driver_override"
else
	fail "autoload: modprobe <modalias> loads $dut, which binds ${bdfs[0]} without driver_override" \
		"module: $(ls -d "/sys/module/$dut" 2>/dev/null), driver: '$(nic_driver "${bdfs[0]}")'"
fi
if [ ! -d "/sys/module/$other" ]; then
	pass "autoload: the blacklisted $other stayed out"
else
	fail "autoload: the blacklisted $other stayed out" "/sys/module/$other exists"
fi
rm -f /etc/modprobe.d/ronic-test-autoload.conf
unload_driver "$dut"

finish
