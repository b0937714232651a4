#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of tests/run-debug.sh, in the debug kernel
# (scripts/debug-kernel.sh: KASAN, UBSAN, lockdep, DMA-API debug,
# kmemleak), for the driver under test ($RONIC_DUT):
#  1. the DUT on both NICs: link, IPv4 and IPv6 ping both ways, a short
#     iperf3 each way;
#  2. rmmod under iperf3 traffic, modprobe again, ping; then allocation
#     failures injected into up, -G, -L and probe (tests/guest/faults.sh;
#     RONIC_DEBUG_FAULTS=0 skips them);
#  2c. the lifecycle table (tests/guest/lifecycle.sh, tests/lifecycle.tsv),
#      then multi-buffer XDP (xdp.sh, RONIC_XDP_PART=frags) and AF_XDP
#      (xsk.sh, RONIC_XDP_PART=xsk);
#  2d. the kernel tree's driver selftests, igb (the reference) then the
#      DUT (tests/guest/hwselftests.sh), and NAPI instances and their
#      napi-set settings across reconfiguration (tests/guest/napi.sh);
#  3. RONIC_DEBUG_CYCLES (5) load/unload cycles, both NICs with carrier;
#  4. with the DUT unloaded: DMA-API debug counted no error and holds no
#     mapping of the NICs, a kmemleak scan reports nothing (nor did one
#     with the DUT loaded, after step 2), lockdep is still on, the kernel
#     is not tainted (but for the out-of-tree module), and with the IOMMU
#     (RONIC_VM_IOMMU=1) the NICs sat behind DMAR and no DMAR fault was
#     logged;
#  5. the planted bugs (tests/guest/planted.sh) when tests/run-debug.sh
#     built them ($RONIC_PLANTED_KO): each caught by its own detector.
# Before step 1, the KUnit suites of ronic_kunit.ko (tests/guest/kunit.sh).
# RONIC_DEBUG_ONLY=kunit stops after them (a quick check of the KUnit
# part); RONIC_DEBUG_ONLY=planted runs step 5 alone (make planted-bugs),
# RONIC_DEBUG_ONLY=hwselftests or napi a part of step 2d alone, RONIC_DEBUG_ONLY=xdp step
# 2c' alone, RONIC_DEBUG_ONLY=xsk step 2c'' alone,
# RONIC_DEBUG_ONLY=lifecycle step 2c alone, RONIC_DEBUG_ONLY=fuzz the control-plane fuzzer
# (tests/guest/fuzz.sh: make fuzz SEED=N OPS=N), RONIC_DEBUG_ONLY=recover
# t-recover's faults and rx allocation failures (t-recover-debug),
# RONIC_DEBUG_ONLY=rxalloc those failures alone (tests/guest/rxalloc.sh),
# RONIC_DEBUG_ONLY=selftests step 2d (t-hwselftests); RONIC_DEBUG_SELFTESTS=0
# leaves step 2d out (t-debug).
# scripts/vm.sh checks the whole kernel log afterwards (KASAN, UBSAN,
# lockdep, DMA-API, WARNING, BUG, ...). Full reports (kmemleak, DMA-API
# dump lines) go to stderr, which is this script's output too, and to
# /results/kmemleak-loaded.txt and /results/kmemleak.txt.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
# (and kunit.sh, faults.sh, lifecycle.sh and planted.sh theirs); step 0's
# alone when RONIC_DEBUG_ONLY (kunit, planted or hwselftests) stops it
# early.
dut=$RONIC_DUT
# The reference driver, loaded in this boot by the 7.3 driver selftests.
ref_driver=igb
cycles=${RONIC_DEBUG_CYCLES:-5}
pings=${RONIC_PINGS:-10}
iommu=${RONIC_VM_IOMMU:-0}
only=${RONIC_DEBUG_ONLY:-}
if [ -n "$only" ]; then plan $((2 + iommu)); else plan $((21 + 2 * iommu)); fi
dbg=/sys/kernel/debug
mapfile -t bdfs < <(nic_bdfs)

# Kernel log lines since boot, uncoloured.
klog() {
	dmesg --color=never 2>/dev/null
}

# phase NAME: log how long the previous phase took.
phase_t=$SECONDS
phase() {
	log "phase $1 done in $((SECONDS - phase_t)) s"
	phase_t=$SECONDS
}

# kmemleak_scan: objects must be older than kmemleak's minimum age (5 s)
# to be reported, and an object whose contents changed since the previous
# scan waits for the next one: wait, scan twice.
kmemleak_scan() {
	sleep 6
	echo scan > "$dbg/kmemleak"
	echo scan > "$dbg/kmemleak"
}

# kmemleak_blocks ref|dut: of the kmemleak report on stdin (blocks that
# start at "unreferenced object" lines), the objects whose allocation
# backtrace runs through the reference driver and not through the DUT
# (ref: logged as a finding about that driver, never counted), or all the
# others (dut: these fail).
kmemleak_blocks() {
	awk -v want="$1" -v dut="[$dut]" -v ref="[$ref_driver]" '
		function flush() {
			if (blk == "") return
			is_ref = index(blk, ref) && !index(blk, dut)
			if ((want == "ref") == is_ref) printf "%s", blk
			blk = ""
		}
		/^unreferenced object/ { flush() }
		{ blk = blk $0 "\n" }
		END { flush() }'
}

# kmemleak_report LEAKS SAVED-AS NAME: the check NAME passes when no object
# of LEAKS is the DUT's; the reference driver's objects are logged.
kmemleak_report() {
	local ours theirs
	ours=$(kmemleak_blocks dut <<< "$1")
	theirs=$(kmemleak_blocks ref <<< "$1")
	if [ -n "$theirs" ]; then
		log "reference: $ref_driver: $(grep -c '^unreferenced object' <<< "$theirs") unreferenced objects allocated by it (in $2, not counted against $dut):"
		head -30 <<< "$theirs" | indent
	fi
	if [ -z "$ours" ]; then
		pass "$3"
		return 0
	fi
	fail "$3" "$(grep -c '^unreferenced object' <<< "$ours") unreferenced objects (see $2)"
	indent <<< "$ours"
	return 1
}

# indent: a report into the log (stderr), as "#   " lines.
indent() {
	sed 's/^/#   /' >&2
}

# ---------------------------------------------------------- 0. the kernel
log "kernel $(uname -r); NICs: ${bdfs[*]}"
# grep -q on a here-string, not at the end of a pipe: it stops reading at
# the first match, and dmesg's next write then dies of SIGPIPE, which
# pipefail turns into a failure (it did once, under load).
lacks=
grep -q "KernelAddressSanitizer initialized" <<< "$(klog)" || lacks+=" KASAN"
[ -r "$dbg/dma-api/error_count" ] || lacks+=" DMA-API"
[ -e "$dbg/kmemleak" ] || lacks+=" kmemleak"
[ -r /proc/lockdep_stats ] || lacks+=" lockdep"
if [ -z "$lacks" ]; then
	pass "debug: KASAN, DMA-API debug, kmemleak and lockdep are on"
else
	fail "debug: KASAN, DMA-API debug, kmemleak and lockdep are on" \
		"kernel $(uname -r) lacks:$lacks"
fi
# run-debug.sh boots with no5lvl (a false KASAN report otherwise, see
# there): the kernel must run with 4-level paging, LA57 off.
if grep -qw no5lvl /proc/cmdline && ! grep -qw la57 /proc/cpuinfo; then
	pass "debug: 4-level paging (no5lvl, no la57 in /proc/cpuinfo)"
else
	fail "debug: 4-level paging (no5lvl, no la57 in /proc/cpuinfo)" \
		"cmdline: $(cat /proc/cmdline)"
fi
if [ "$iommu" = 1 ]; then
	groups=0
	for b in "${bdfs[@]}"; do
		[ -e "/sys/bus/pci/devices/$b/iommu_group" ] && groups=$((groups + 1))
	done
	iommus=$(cd /sys/class/iommu 2>/dev/null && echo *)
	if [[ " $iommus " == *" dmar"* ]] && [ "$groups" -eq "${#bdfs[@]}" ]; then
		pass "iommu: DMAR on, both NICs in an IOMMU group"
	else
		fail "iommu: DMAR on, both NICs in an IOMMU group" \
			"iommus: '$iommus', NICs in a group: $groups"
	fi
fi

# xdp_frags: step 2c' (multi-buffer XDP), at a pace this kernel keeps up
# with: 50 pings 20 ms apart per case.
xdp_frags() {
	RONIC_XDP_PART=frags RONIC_XDP_PINGS=50 RONIC_XDP_PING_INTERVAL=0.02 \
		nested "$RONIC_TOP/tests/guest/xdp.sh"
}

# xdp_xsk: step 2c'' (AF_XDP), scaled to this kernel: 2000 frames a case,
# 2 MiB transfers, the core cases (RONIC_XSK_QUICK).
xdp_xsk() {
	RONIC_XDP_PART=xsk RONIC_XSK_FRAMES=2000 RONIC_XSK_MIB=2 RONIC_XSK_QUICK=1 \
		nested "$RONIC_TOP/tests/guest/xdp.sh"
}

# lifecycle_table: step 2c, the lifecycle table's quiet rows. On 7.3 the
# AER core also resets the link for a non-fatal error, which QEMU's root
# port never completes: the NIC is disconnected for the rest of the boot,
# as with a fatal error.
lifecycle_table() {
	RONIC_LIFECYCLE_VARIANTS=${RONIC_LIFECYCLE_VARIANTS:-quiet} \
	RONIC_LIFECYCLE_SKIP_STEP=aer \
	RONIC_LIFECYCLE_SKIP_WHY="the 7.3 AER core resets the link, which QEMU's root port does not complete" \
		nested "$RONIC_TOP/tests/guest/lifecycle.sh"
}

# recover: t-recover's faults (PCIe errors, function reset, the device's
# sleep, malformed frames from the wire, hot-unplug) under transfers
# scaled to this kernel's pace; the non-fatal PCIe error is a skip, as in
# the lifecycle table. Then rx buffers the page pool cannot give
# (rxalloc.sh: fail_function, which the stock kernel lacks).
recover() {
	RONIC_RECOVER_MB=16 RONIC_RECOVER_TIMES=1 \
	RONIC_RECOVER_SKIP_AER="the 7.3 AER core resets the link, which QEMU's root port does not complete" \
		nested "$RONIC_TOP/tests/guest/recover.sh"
	nested "$RONIC_TOP/tests/guest/rxalloc.sh"
}

# selftests: step 2d, the kernel tree's driver selftests and the NAPI
# instances (t-hwselftests runs it in a boot of its own, with nothing
# beside it: RONIC_DEBUG_SELFTESTS=0 leaves it out of t-debug's).
selftests() {
	[ -n "${RONIC_DEBUG_KSRC:-}" ] || return 0
	nested "$RONIC_TOP/tests/guest/hwselftests.sh"
	nested "$RONIC_TOP/tests/guest/napi.sh"
}

# ---------------------------------------------------------- 0b. KUnit
case "$only" in
selftests)
	selftests
	finish
	;;
recover)
	recover
	finish
	;;
lifecycle)
	lifecycle_table
	finish
	;;
planted|hwselftests|napi|fuzz|rxalloc)
	nested "$RONIC_TOP/tests/guest/$only.sh"
	finish
	;;
xdp)
	xdp_frags
	finish
	;;
xsk)
	xdp_xsk
	finish
	;;
esac
nested "$RONIC_TOP/tests/guest/kunit.sh"
phase kunit
[ "$only" != kunit ] || finish

# ---------------------------------------------------------- 1. traffic
if pair_up "$dut" "$dut"; then
	pass "debug: $dut on both NICs, link up, first ping"
	ping_check "debug: IPv4 ping A->B $pings/$pings" root "$ADDR_B4" "$pings"
	ping_check "debug: IPv4 ping B->A $pings/$pings" "$PEER_NS" "$ADDR_A4" "$pings"
	ping_check "debug: IPv6 ping A->B $pings/$pings" root "$ADDR_B6" "$pings" -6
	ping_check "debug: IPv6 ping B->A $pings/$pings" "$PEER_NS" "$ADDR_A6" "$pings" -6
	for dir in "root $PEER_NS" "$PEER_NS root"; do
		read -r from to <<< "$dir"
		if m=$(iperf_tcp "$from" "$to" 5) && [ "${m%.*}" -gt 0 ]; then
			pass "debug: iperf3 TCP $from -> $to 5 s ($m Mbit/s)"
		else
			fail "debug: iperf3 TCP $from -> $to 5 s" "${m:-0} Mbit/s"
		fi
	done
else
	fail "debug: $dut on both NICs, link up, first ping" "pair_up failed"
fi
pair_down
phase traffic

# ---------------------------------------------------------- 2. rmmod under load
if pair_up "$dut" "$dut"; then
	in_ns "$PEER_NS" iperf3 -s -1 -B "$ADDR_B4" > /tmp/debug-server.log 2>&1 &
	client=
	if wait_until 10 iperf_listening "$PEER_NS"; then
		iperf3 -c "$ADDR_B4" -t 120 -i 0 > /tmp/debug-client.log 2>&1 &
		client=$!
	fi
	tx0=$(cat "/sys/class/net/$NIC_A/statistics/tx_bytes")
	sleep 3
	tx1=$(cat "/sys/class/net/$NIC_A/statistics/tx_bytes")
	if [ $((tx1 - tx0)) -gt 100000 ]; then
		pass "debug: iperf3 traffic flows before rmmod"
	else
		fail "debug: iperf3 traffic flows before rmmod" "$((tx1 - tx0)) bytes in 3 s"
	fi
	t0=$SECONDS
	if unload_driver "$dut" 90 &&
	   [ -z "$(nic_driver "${bdfs[0]}")" ] && [ -z "$(nic_driver "${bdfs[1]}")" ]; then
		pass "debug: rmmod $dut during iperf3 ($((SECONDS - t0)) s), both NICs unbound"
	else
		fail "debug: rmmod $dut during iperf3" \
			"rmmod failed or hung; drivers '$(nic_driver "${bdfs[0]}")' '$(nic_driver "${bdfs[1]}")'"
	fi
	[ -z "$client" ] || kill "$client" 2>/dev/null
	pair_down
	wait 2>/dev/null
	if pair_up "$dut" "$dut"; then
		pass "debug: modprobe $dut again, link and ping"
		ping_check "debug: IPv4 ping after reload $pings/$pings" root "$ADDR_B4" "$pings"
		ping_check "debug: IPv6 ping after reload $pings/$pings" root "$ADDR_B6" "$pings" -6
	else
		fail "debug: modprobe $dut again, link and ping" "pair_up failed"
	fi
	pair_down
	# A kmemleak scan with the DUT still loaded: its frames in a report
	# are symbolized only while it is (the final scan comes after rmmod).
	if [ -d "/sys/module/$dut" ]; then
		kmemleak_scan
		leaks=$(cat "$dbg/kmemleak")
		echo "$leaks" > "$RONIC_RESULTS/kmemleak-loaded.txt"
		kmemleak_report "$leaks" kmemleak-loaded.txt \
			"kmemleak: nothing of $dut's reported with it loaded, after traffic and a reload"
	fi
else
	fail "debug: pair up for rmmod under load" "pair_up failed"
fi
phase rmmod-under-load

# ---------------------------------------------------------- 2b. faults
# Allocation failures injected into up, -G, -L and probe (faults.sh); the
# leak and mapping checks of step 4 cover what they left behind.
if [ "$dut" = ronic ] && [ "${RONIC_DEBUG_FAULTS:-1}" = 1 ]; then
	nested "$RONIC_TOP/tests/guest/faults.sh"
	pair_down
fi
phase faults

# ---------------------------------------------------------- 2c. lifecycle
# The lifecycle table (tests/lifecycle.tsv), where KASAN, lockdep and
# DMA-API debug see what the stock kernel does not; its rows check for
# reports among the lines each row added. The quiet variant only by
# default (RONIC_LIFECYCLE_VARIANTS): both take 800 s here, and
# t-lifecycle runs both in the stock kernel.
if [ "$dut" = ronic ] && [ -n "${RONIC_XDP_OBJ:-}" ]; then
	lifecycle_table
	pair_down
elif [ "$dut" = ronic ]; then
	fail "debug: lifecycle table" "no RONIC_XDP_OBJ (tests/xdp/build.sh)"
fi
phase lifecycle

# ---------------------------------------------------------- 2c'. XDP frags
# Multi-buffer XDP (t-xdp's cases, RONIC_XDP_PART=frags): fragments built,
# sent, cut and freed where KASAN and DMA-API debug see.
if [ "$dut" = ronic ] && [ -n "${RONIC_XDP_OBJ:-}" ]; then
	xdp_frags
	pair_down
fi
phase xdp-frags

# ---------------------------------------------------------- 2c''. AF_XDP
# Zero-copy sockets (t-xdp's xsk.sh): pools mapped, buffers handed to
# the device and back, queue pairs switched, where KASAN, DMA-API debug
# and lockdep see.
if [ "$dut" = ronic ] && [ -n "${RONIC_XDP_OBJ:-}" ]; then
	xdp_xsk
	pair_down
fi
phase xdp-xsk

# ---------------------------------------------------------- 2d. selftests
# The kernel tree's hardware selftests on ronic, then on igb where
# ronic failed (hwselftests.sh).
if [ "$dut" = ronic ] && [ "${RONIC_DEBUG_SELFTESTS:-1}" = 1 ]; then
	selftests
	pair_down
fi
phase hw-selftests

# ---------------------------------------------------------- 3. cycles
# one_cycle N: load, both NICs up with carrier, refcount 0, unload.
one_cycle() {
	local i=$1 b n
	modprobe "$dut" || { echo "cycle $i: modprobe $dut failed"; return 1; }
	for b in "${bdfs[@]}"; do
		if ! wait_until 30 nic_netdev "$b" > /dev/null; then
			echo "cycle $i: $b has no netdev (driver '$(nic_driver "$b")')"
			return 1
		fi
		ip link set dev "$(nic_netdev "$b")" up
	done
	for b in "${bdfs[@]}"; do
		n=$(nic_netdev "$b")
		if ! wait_until 30 has_carrier "" "$n"; then
			echo "cycle $i: no carrier on $n: $(link_info "" "$n")"
			return 1
		fi
	done
	cat "/sys/module/$dut/sections/.text" > /tmp/debug-dut-text 2>/dev/null
	n=$(cat "/sys/module/$dut/refcnt")
	if [ "$n" != 0 ]; then
		echo "cycle $i: refcnt $n before rmmod"
		return 1
	fi
	if ! unload_driver "$dut" 90; then
		echo "cycle $i: rmmod $dut failed, hung or left /sys/module/$dut"
		return 1
	fi
}

unload_driver "$dut"
for b in "${bdfs[@]}"; do set_override "$b" "$dut"; unbind_nic "$b"; done
err=
t0=$SECONDS
for i in $(seq 1 "$cycles"); do
	err=$(one_cycle "$i") || break
	err=
done
if [ -z "$err" ]; then
	pass "debug: $cycles load/unload cycles with carrier, refcnt 0 ($((SECONDS - t0)) s)"
	held "debug kernel: $cycles load/unload cycles under KASAN and lockdep"
else
	fail "debug: $cycles load/unload cycles" "$err"
fi
unload_driver "$dut"
for b in "${bdfs[@]}"; do set_override "$b" ""; done
phase cycles

# ---------------------------------------------------------- 4. checks
# DMA-API debug: no error counted; no mapping of the NICs left (the DUT
# was the only driver that ever bound them in this boot).
errs=$(cat "$dbg/dma-api/error_count" 2>/dev/null || echo "unreadable")
if [ "$errs" = 0 ]; then
	pass "dma-api: error_count is 0"
	held "DMA-API debug: 0 errors over the debug run"
else
	fail "dma-api: error_count is 0" "error_count $errs"
fi
if [ -r "$dbg/dma-api/dump" ]; then
	left=$(grep -F -e "${bdfs[0]}" -e "${bdfs[1]}" "$dbg/dma-api/dump")
	if [ -z "$left" ]; then
		pass "dma-api: no DMA mapping of the NICs left after rmmod $dut"
	else
		fail "dma-api: no DMA mapping of the NICs left after rmmod $dut" \
			"$(echo "$left" | wc -l) entries, first: $(echo "$left" | head -1)"
		head -40 <<< "$left" | indent
	fi
fi

# kmemleak after the last rmmod (frames of the DUT show as bare addresses:
# the last load's .text address is logged to decode them).
kmemleak_scan
leaks=$(cat "$dbg/kmemleak")
phase kmemleak-scan
echo "$leaks" > "$RONIC_RESULTS/kmemleak.txt"
if kmemleak_report "$leaks" kmemleak.txt "kmemleak: nothing of $dut's reported after rmmod $dut"; then
	held "kmemleak: 0 leaks of $dut's after the last rmmod"
else
	log "$dut .text was at $(cat /tmp/debug-dut-text 2>/dev/null) in the last cycle"
fi

if grep -Eq '^ *debug_locks: *1$' /proc/lockdep_stats; then
	pass "lockdep: still on at the end (debug_locks 1)"
else
	fail "lockdep: still on at the end" \
		"$(grep debug_locks /proc/lockdep_stats), turned off by an earlier report"
fi

# Taint: O (4096, out-of-tree module), E (8192, unsigned) and N (262144,
# a KUnit test ran: ronic_kunit) only.
taint=$(cat /proc/sys/kernel/tainted)
if [ $((taint & ~(4096 | 8192 | 262144))) -eq 0 ]; then
	pass "kernel not tainted (but for out-of-tree modules: $taint)"
else
	fail "kernel not tainted (but for out-of-tree modules)" "tainted $taint"
fi

if [ "$iommu" = 1 ]; then
	faults=$(klog | grep -aE 'DMAR: \[DMA (Read|Write)|DMAR: DRHD: handling fault|DMAR:.*[Ff]ault (addr|reason)|DMAR-IR: .*fault')
	if [ -z "$faults" ]; then
		pass "iommu: no DMAR fault logged"
	else
		fail "iommu: no DMAR fault logged" "$(echo "$faults" | head -1 | cut -c1-160)"
		head -40 <<< "$faults" | indent
	fi
fi

# ---------------------------------------------------------- 5. planted bugs
# Last (tests/guest/planted.sh says why): each planted bug must be caught
# by its own detector.
if [ "$dut" = ronic ] && [ -n "${RONIC_PLANTED_KO:-}" ]; then
	nested "$RONIC_TOP/tests/guest/planted.sh"
	phase planted
fi

finish
