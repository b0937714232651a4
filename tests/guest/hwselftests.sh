#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel's own driver selftests (run by tests/guest/debug.sh;
# tools/testing/selftests/drivers/net of the same tree as the kernel, 7.3)
# on ronic, then on igb built from that tree, the reference, for the
# tests ronic failed; each driver on both NICs, the remote end in the
# peer netns. make test runs
#   stats.py     pause, FEC, qstats against rtnl stats, per queue and per
#                ifindex, nothing going backwards across down, /proc reads
#                under load and across down/up
#   queues.py    queue counts in netlink and sysfs, -L, down, an AF_XDP
#                socket's queue
#   napi_id.py   a socket's NAPI ID is the queue's
#   hw/irq.py    every NAPI instance reports its IRQ; affinity kept across
#                -L, an XDP attach and down/up
#   hw/csum.py   rx checksum results and tx checksum offload, IPv4 and IPv6
#                (36 s a driver)
#   hw/rss_ctx.py  RSS key and table, resize, hitless key update (22 s)
# and RONIC_HWSELFTESTS="ping.py stats.py queues.py napi_id.py hw/csum.py
# hw/rss_ctx.py hw/irq.py" (RONIC_DEBUG_ONLY=hwselftests tests/run-debug.sh)
# the whole list: ping.py (v4, v6, XDP generic and native, single and
# multi-buffer) alone takes 160 s a driver in this kernel, past make
# test's time budget. Documentation/ronic.rst gives the results case by
# case. The tests run with trixie's ethtool when the host has it
# (scripts/fetch-ethtool.sh): rss_ctx.py reads its JSON output.
# igb's results are logged ("# reference: ..."), not counted; ronic's are
# checks, and every case must pass or be skipped by the test itself.
# igb runs only the tests ronic failed (RONIC_HWSELFTESTS_REFERENCE=all
# runs it on every test, none on none): 190 s saved when ronic passes. igb
# fails irq.py's affinity cases on this 2-CPU guest (they write the mask
# 0x5 when igb's IRQ is already on both CPUs, and CPU 2 does not exist).
#
# Not hw/pp_alloc_fail.py: it wants 4000 rx packets a second of its
# iperf3 traffic before it injects anything, and this kernel (KASAN under
# TCG) carried 1779 (2026-12-07, trixie's ethtool); igb skips it (no
# rx-alloc-fail in qstats); tests/guest/rxalloc.sh checks what it checks
# at this bed's pace. The tree is $RONIC_DEBUG_KSRC; tests/run-debug.sh built the
# helpers the tests call into it.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"

read -ra tests <<< "${RONIC_HWSELFTESTS:-stats.py queues.py napi_id.py hw/irq.py hw/csum.py hw/rss_ctx.py}"
# ronic's pair-up and one check per test run (ktap declares the test's
# cases from its own KTAP plan); igb's pair-up when it runs.
plan $((1 + ${#tests[@]}))

# readdress: both ports up with their addresses, before each test. The
# tests take ports down and up, which drops their IPv6 addresses.
readdress() {
	ip link set dev "$NIC_A" up
	ip addr replace "$ADDR_A4/$PREFIX4" dev "$NIC_A"
	ip addr replace "$ADDR_A6/$PREFIX6" dev "$NIC_A" nodad
	ip -n "$PEER_NS" link set dev "$NIC_B" up
	ip -n "$PEER_NS" addr replace "$ADDR_B4/$PREFIX4" dev "$NIC_B"
	ip -n "$PEER_NS" addr replace "$ADDR_B6/$PREFIX6" dev "$NIC_B" nodad
	wait_until 20 has_carrier "" "$NIC_A"
}

tdir=${RONIC_DEBUG_KSRC:?RONIC_DEBUG_KSRC names the debug kernel tree}/tools/testing/selftests/drivers/net
# The tests' ethtool: trixie's when the host fetched it (its JSON output).
if [ -n "${RONIC_ETHTOOL_DIR:-}" ] && [ -x "$RONIC_ETHTOOL_DIR/ethtool" ]; then
	export PATH="$RONIC_ETHTOOL_DIR:$PATH"
	log "ethtool for the selftests: $(ethtool --version)"
fi
export RONIC_KTAP_TIMEOUT=300

# run_on DRV REFERENCE TEST...: the tests on DRV, both NICs; the tests
# that failed are appended to the file /tmp/hwselftests.failed.
run_on() {
	local drv=$1 reference=$2 t
	shift 2

	if ! pair_up "$drv" "$drv"; then
		fail "hw selftests: $drv on both NICs" "pair_up failed"
		return
	fi
	pass "hw selftests: $drv on both NICs"
	for t in "$@"; do
		readdress
		RONIC_KTAP_REFERENCE=$reference ktap "$tdir" "$t" "$drv" ||
			echo "$t" >> /tmp/hwselftests.failed
	done
	pair_down
}

: > /tmp/hwselftests.failed
run_on ronic 0 "${tests[@]}"
# The reference answers one question: does igb, on the same bed and
# kernel, pass what ronic failed? Only those tests run on it unless
# RONIC_HWSELFTESTS_REFERENCE=all (igb's results on every test, as the
# documentation's table gives them) or none.
case ${RONIC_HWSELFTESTS_REFERENCE:-failed} in
all) read -ra ref_tests <<< "${tests[*]}" ;;
none) ref_tests=() ;;
*) mapfile -t ref_tests < /tmp/hwselftests.failed ;;
esac
if [ "${#ref_tests[@]}" -gt 0 ]; then
	plan 1
	run_on igb 1 "${ref_tests[@]}"
else
	log "reference: igb not run (ronic failed none of: ${tests[*]})"
fi
finish
