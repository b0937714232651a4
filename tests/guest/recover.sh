#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-recover: the device goes away and comes back, under
# traffic, ronic on both NICs. Before the events NIC A gets settings of
# its own (rings of 512, rx-usecs 100 with adaptive moderation off) and
# an XDP program. Each event fires once 4 MB of a 192 MiB transfer each
# way over TCP (a 96 MiB file twice, sha_send) have reached A, and must
# find it still running;
# then:
#  - the transfer completes with both sha256 sums right (nothing lost);
#  - the kernel log has the event's own line (the recovery really ran);
#  - the settings are back in the device: RDLEN of queue 0 is 512
#    descriptors, EITR of vector 1 is 100 us (the registers, read by
#    ethtool -d), the XDP program is the same one and sees the traffic.
# The events:
#  - aer-nonfatal: an uncorrectable non-fatal error (UNSUP) injected by
#    QEMU's monitor at NIC A's root port: the AER driver calls ronic's
#    error_detected, slot_reset and resume ("AER: device recovery
#    successful");
#  - aer-correctable: a correctable error (Bad TLP, 0x40) at the same port:
#    logged, no recovery: the port must not even go down;
#  - function-reset: /sys/bus/pci/devices/<A>/reset (reset_prepare,
#    reset_done).
#  - sleep: NIC A alone through system sleep's device steps
#    (tests/modules/ronic_sleep.c: ronic's suspend, D3hot, D0, ronic's
#    resume), with Wake-on-LAN g armed in the registers at the power-down.
# Not the system's own sleep: this bed's root filesystem is virtio-9p,
# whose driver has no freeze/restore, so any system suspend (even
# pm_test=devices) leaves the guest without its root (tried: it hangs at
# the first file access after resume). Documentation/ronic.rst says so.
# Wake-on-LAN: ethtool -s wol g is kept and shown, an unsupported mode
# (s, SecureOn) is refused and changes nothing.
# Then the wire faults (tests/guest/wire.sh). Last, hot-unplug: QEMU's
# device_del of NIC A under a transfer with the XDP program attached and
# an AF_XDP zero-copy socket bound (the device and netdev go, the program
# is freed, the socket's application ends),
# then device_add of a new NIC at the same root port: ronic probes it and
# it carries a sha256-checked transfer.
# In the debug kernel (tests/guest/debug.sh, RONIC_DEBUG_ONLY=recover):
# RONIC_RECOVER_MB and _TIMES scale the transfers down to its pace, and
# RONIC_RECOVER_SKIP_AER (the reason) makes the non-fatal error's checks
# SKIP lines: 7.3's AER core also resets the link, which QEMU's root port
# does not complete.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 30

if ! pair_up ronic ronic; then
	fail "pair up ronic<->ronic" "pair_up failed"
	finish
fi
ethtool -G "$NIC_A" rx 512 tx 512
ethtool -C "$NIC_A" adaptive-rx off adaptive-tx off rx-usecs 100
if [ -n "${RONIC_XDP_OBJ:-}" ] &&
   ip link set dev "$NIC_A" xdpdrv obj "$RONIC_XDP_OBJ" program xdp_pass; then
	pass "NIC A: rings 512, rx-usecs 100, XDP program attached"
else
	fail "NIC A: rings 512, rx-usecs 100, XDP program attached" "no RONIC_XDP_OBJ or attach failed"
fi
prog=$(ip -j link show dev "$NIC_A" | jq -r '.[0].xdp.prog.id // empty')
MB=${RONIC_RECOVER_MB:-96} TIMES=${RONIC_RECOVER_TIMES:-2}
sha_file /tmp/recover.bin "$MB"

# settings_kept: the rings, the interval and the program, in the device.
settings_kept() {
	local rdlen eitr now
	rdlen=$((0x$(dca_txctrl 0 2)))
	eitr=$((0x$(dca_txctrl 1 16) & 0x7FFC))
	now=$(ip -j link show dev "$NIC_A" | jq -r '.[0].xdp.prog.id // empty')
	if [ "$rdlen" = $((512 * 16)) ] && [ "$eitr" = 400 ] && [ "$now" = "$prog" ]; then
		return 0
	fi
	echo "RDLEN(0) $rdlen, EITR(1) $eitr, XDP program '$now' (was '$prog')"
	return 1
}

# survive NAME LOGLINE CMD...: run CMD a second into a sha256 transfer
# both ways; the checks above.
survive() {
	local name=$1 logline=$2 mark xdp0 xdp1 out rx0
	shift 2
	mark=$(dmesg_lines)
	rx0=$(cat "/sys/class/net/$NIC_A/statistics/rx_bytes")
	xdp0=$(stat_of xdp_pass)
	sha_send /tmp/recover.bin 5301 120 "$TIMES" &
	local sha=$!
	# Once data flows (A has received some of it), so the event lands
	# inside the transfer; still running after it, or the event missed.
	wait_until 10 test "$(cat "/sys/class/net/$NIC_A/statistics/rx_bytes")" -gt $((rx0 + 4000000))
	if out=$("$@" 2>&1) && kill -0 "$sha" 2>/dev/null; then
		pass "$name: fired during the transfer"
	else
		fail "$name: fired during the transfer" "${out:-the transfer had already ended}"
	fi
	if wait "$sha"; then
		pass "$name: $((MB * TIMES)) MiB each way across it, sha256 right"
	else
		fail "$name: $((MB * TIMES)) MiB each way across it" "sha256 wrong or transfer failed"
	fi
	if wait_until 10 sh -c "dmesg --color=never | tail -n +$((mark + 1)) | grep -qE '$logline'"; then
		pass "$name: the kernel log has /$logline/"
	else
		fail "$name: the kernel log has /$logline/" \
			"$(dmesg --color=never | tail -n +$((mark + 1)) | tail -5 | tr '\n' ' ')"
	fi
	xdp1=$(stat_of xdp_pass)
	if out=$(settings_kept) && [ "${xdp1:-0}" -gt "${xdp0:-0}" ]; then
		pass "$name: rings, interval and XDP program kept (xdp_pass $xdp0 -> $xdp1)"
	else
		fail "$name: settings kept" "$out; xdp_pass $xdp0 -> $xdp1"
	fi
	works || log "$name: no ping after the event"
}

# aer_inject ARGS...: QEMU's pcie_aer_inject_error ARGS; fails on the
# monitor's error message.
# shellcheck disable=SC2317 # called through survive
aer_inject() {
	local out
	out=$(vm_hmp pcie_aer_inject_error "$@") || return 1
	! grep -q "Error" <<< "$out" || { echo "$out" | tail -1; return 1; }
}

# NIC A sits behind root port rp0 (scripts/vm.sh: one port per NIC, in
# BDF order).
recoveries=1
if [ -n "${RONIC_RECOVER_SKIP_AER:-}" ]; then
	recoveries=0
	for c in "fired during the transfer" "the transfer across it" \
		 "the kernel log line" "settings kept" \
		 "the AER core says the recovery succeeded"; do
		skip "aer-nonfatal: $c" "$RONIC_RECOVER_SKIP_AER"
	done
else
	survive aer-nonfatal "ronic $BDF_A: recovered from the PCI error" \
		aer_inject rp0 UNSUP
	check "aer-nonfatal: the AER core says the recovery succeeded" \
		sh -c "dmesg | grep -q 'AER: device recovery successful'"
fi
mark=$(dmesg_lines)
survive aer-correctable "AER: Correct(ed|able) [Ee]rror" \
	aer_inject -c rp0 0x40
up=$(dmesg --color=never | tail -n +$((mark + 1)) | grep -c "ronic $BDF_A .*NIC Link is Up")
[ "$up" = 0 ] && pass "aer-correctable: the port never went down" ||
	fail "aer-correctable: the port never went down" "link came up $up times"
# The port went down and came back: its link comes up again.
survive function-reset "ronic $BDF_A .*NIC Link is Up" \
	sh -c "echo 1 > /sys/bus/pci/devices/$BDF_A/reset"
n=$(dmesg | grep -c "ronic $BDF_A: PCI error detected")
[ "$n" = "$recoveries" ] && pass "only the non-fatal error ran the recovery ($n)" ||
	fail "only the non-fatal error ran the recovery" "$n recoveries, $recoveries expected"

# Wake-on-LAN settings, then the device's own part of system sleep
# (tests/modules/ronic_sleep.c, as the guest cannot suspend: the driver's
# suspend, D3hot with PME armed, D0, the driver's resume) under the
# transfer: at the power-down the wake-up registers hold PME_EN (WUC bit
# 1) and the magic-packet filter (WUFC bit 1) that "wol g" chose, and
# after resume both are clear (ronic's resume clears them; on QEMU's model
# the device reset that follows would too, so this holds off a re-arm
# rather than proving the clear).
check "ethtool -s wol g" ethtool -s "$NIC_A" wol g
wake=$(ethtool "$NIC_A" | sed -n 's/^[[:space:]]*Wake-on: //p')
[ "$wake" = g ] && pass "Wake-on: g" || fail "Wake-on: g" "'$wake'"
mark=$(dmesg_lines)
survive sleep "ronic_sleep: back in D0, resume 0" device_sleep "$BDF_A"
out=$(dmesg --color=never | tail -n +$((mark + 1)) | grep -o 'ronic_sleep: .*')
if grep -q 'after suspend: WUC 0x00000002 WUFC 0x00000002' <<< "$out" &&
   grep -q 'asleep in D3 (0), wake-up armed' <<< "$out" &&
   grep -q 'after resume: WUC 0x00000000 WUFC 0x00000000' <<< "$out"; then
	pass "sleep: WUC.PME_EN and WUFC.MAG at the power-down, D3hot with wake-up armed, both cleared on resume"
else
	fail "sleep: wake-up armed at the power-down" "$(echo "$out" | tr '\n' ' ')"
fi
if out=$(ethtool -s "$NIC_A" wol s 2>&1); then
	fail "ethtool -s wol s (SecureOn) is refused" "accepted"
else
	wake=$(ethtool "$NIC_A" | sed -n 's/^[[:space:]]*Wake-on: //p')
	[ "$wake" = g ] && pass "ethtool -s wol s (SecureOn) is refused, Wake-on stays g ($out)" ||
		fail "ethtool -s wol s (SecureOn) is refused, Wake-on stays g" "'$wake'"
fi
check "ethtool -s wol d" ethtool -s "$NIC_A" wol d

# Frames from the wire no Linux peer would send (its own pairing).
pair_down
nested "$RONIC_TOP/tests/guest/wire.sh"
pair_up ronic ronic || fail "pair up again after the wire faults" "pair_up failed"
ip -force link set dev "$NIC_A" xdpdrv obj "$RONIC_XDP_OBJ" program xdp_pass

# Hot-unplug: QEMU's device_del of NIC A (its root port's hotplug: the
# guest's pciehp removes the driver, then QEMU the device) with the XDP
# program attached, an AF_XDP zero-copy socket bound and a transfer
# running, then device_add of a new one
# at the same place.
progs0=$(xdp_progs)
# An AF_XDP zero-copy socket on queue 1 too (its tool's program replaces
# xdp_pass and passes the transfer).
"${RONIC_XDP_OBJ%/*}/xsk_tool" -i "$NIC_A" -q 1 -m rxdrop -z -t 120 > /tmp/xsk-unplug.out 2>&1 &
xsk=$!
wait_until 20 grep -q 'zero-copy mode' /tmp/xsk-unplug.out
sha_send /tmp/recover.bin 5301 30 > /dev/null 2>&1 &
sha=$!
wait_until 10 test "$(cat "/sys/class/net/$NIC_A/statistics/rx_bytes")" -gt 4000000
vm_hmp device_del nic0 > /dev/null
if wait_until 30 test ! -e "/sys/bus/pci/devices/$BDF_A"; then
	pass "device_del: NIC A is gone, with its netdev"
else
	fail "device_del: NIC A is gone" "$BDF_A still there: driver '$(nic_driver "$BDF_A")'"
fi
# The transfer cannot finish with A gone; its sockets would wait out
# their time limits.
pkill -x socat
wait "$sha" 2>/dev/null
kill "$xsk" 2>/dev/null
wait "$xsk"
grep -q 'zerocopy=1' /tmp/xsk-unplug.out &&
	pass "device_del with a zero-copy AF_XDP socket bound, its application ended" ||
	fail "device_del with a zero-copy AF_XDP socket bound" "$(tail -1 /tmp/xsk-unplug.out)"
progs1=$(xdp_progs)
[ "$progs1" -lt "$progs0" ] && pass "device_del: its XDP program was freed ($progs0 -> $progs1 loaded)" ||
	fail "device_del: its XDP program was freed" "$progs0 -> $progs1 loaded"
vm_hmp device_add igb,id=nic0,bus=rp0,netdev=hp0,mac=52:54:00:12:34:01 > /dev/null
if wait_until 30 test "$(nic_driver "$BDF_A")" = ronic &&
   NIC_A=$(wait_until 20 nic_netdev "$BDF_A" > /dev/null && nic_netdev "$BDF_A"); then
	pass "device_add: ronic probes the new NIC A ($NIC_A)"
	ip addr add "$ADDR_A4/$PREFIX4" dev "$NIC_A"
	ip link set dev "$NIC_A" up
	if works && sha_send /tmp/recover.bin 5301 120; then
		pass "device_add: the new port carries $MB MiB each way, sha256 right"
	else
		fail "device_add: the new port carries traffic" "no ping or the transfer failed"
	fi
else
	fail "device_add: ronic probes the new NIC A" "driver '$(nic_driver "$BDF_A")'"
	fail "device_add: the new port carries traffic" "no port"
fi
pair_down
finish
