#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rx buffers the page pool cannot give, in the hot path: the kernel's
# hw/pp_alloc_fail.py at this bed's pace (that test wants 4,000 frames a
# second before it injects anything, and the debug kernel under TCG
# carries under 2,000). fail_function makes page_pool_alloc_netmems return
# NULL; ronic is on NIC A and igb on the peer (igb has no page pool, so
# only A's refills fail). Run by tests/guest/debug.sh's recover part
# (t-recover-debug).
#  - sparse failures, one new page in 16: a transfer each way is intact,
#    A's alloc_failed counters moved, and netdev qstats' rx-alloc-fail is
#    their sum;
#  - ethtool -G under them: it works (or fails and keeps the old size),
#    and a transfer after it is intact;
#  - starvation: every allocation fails while the peer sends more frames
#    than A's ring of 64 holds, so the ring runs dry (pings from the peer
#    go unanswered); the failures stop, and nothing else happens (the
#    peer's pings cannot raise an interrupt on a dry ring): rx must resume
#    within 10 s, by the watchdog's kick of the queue interrupts (every
#    2 s), whose poll refills the ring. A transfer after it is intact.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 9

ff=/sys/kernel/debug/fail_function
target=page_pool_alloc_netmems

# inject_every N: from now on every Nth call of the page pool's
# allocation fails (returns NULL).
inject_every() {
	[ -e "$ff/$target" ] || echo "$target" > "$ff/inject"
	echo 0 > "$ff/verbose"
	echo "$1" > "$ff/interval"
	echo 100 > "$ff/probability"
	echo -1 > "$ff/times"
}

inject_none() {
	echo > "$ff/inject"
	echo 0 > "$ff/probability"
	echo 0 > "$ff/times"
}

alloc_failed() {
	stat_sum 'rx[0-9]+_alloc_failed'
}

# peer_pings: one ping from the peer to A comes back (through wait_until).
# shellcheck disable=SC2317
peer_pings() {
	in_ns "$PEER_NS" ping -q -c 1 -W 1 "$ADDR_A4" > /dev/null 2>&1
}

if [ ! -w "$ff/inject" ] || ! pair_up ronic igb; then
	fail "rxalloc: ronic <-> igb, $ff" "no fail_function or pair_up failed"
	finish
fi
pass "rxalloc: ronic <-> igb paired up"
static_neighbours
sha_file /tmp/rxalloc.bin 4

# ------------------------------------------------ sparse failures
f0=$(alloc_failed)
inject_every 16
sha_send /tmp/rxalloc.bin 5301 120 &&
	pass "rxalloc: 4 MiB each way intact, one page allocation in 16 failing" ||
	fail "rxalloc: 4 MiB each way intact, one page allocation in 16 failing"
inject_none
f1=$(alloc_failed)
[ "$f1" -gt "$f0" ] &&
	pass "rxalloc: alloc_failed counted $((f1 - f0)) failures" ||
	fail "rxalloc: alloc_failed counted the failures" "$f0 -> $f1"
q=$(python3 "$RONIC_TOP/scripts/guest/qstats.py" "$NIC_A" rx-alloc-fail)
[ "$q" = "$f1" ] &&
	pass "rxalloc: qstats rx-alloc-fail is $q, alloc_failed's sum" ||
	fail "rxalloc: qstats rx-alloc-fail is alloc_failed's sum" "qstats $q, ethtool -S $f1"

# ------------------------------------------------ -G under them
inject_every 16
if ethtool -G "$NIC_A" rx 512 2> /tmp/rxalloc-g.txt; then
	[ "$(ring_size "$NIC_A" RX)" = 512 ] &&
		pass "rxalloc: ethtool -G rx 512 under the failures" ||
		fail "rxalloc: ethtool -G rx 512 under the failures" "ring $(ring_size "$NIC_A" RX)"
else
	[ "$(ring_size "$NIC_A" RX)" = 256 ] &&
		pass "rxalloc: ethtool -G rx 512 refused under the failures, ring kept ($(head -1 /tmp/rxalloc-g.txt))" ||
		fail "rxalloc: ethtool -G refused and the ring kept" "ring $(ring_size "$NIC_A" RX)"
fi
works && sha_send /tmp/rxalloc.bin 5303 120 &&
	pass "rxalloc: after -G, 4 MiB each way intact under the failures" ||
	fail "rxalloc: after -G, 4 MiB each way intact under the failures"
inject_none

# ------------------------------------------------ starvation
ethtool -G "$NIC_A" rx 64
works || log "rxalloc: no ping after -G rx 64"
f0=$(alloc_failed)
inject_every 1
in_ns "$PEER_NS" ping -q -c 300 -i 0.005 -W 1 "$ADDR_A4" > /dev/null 2>&1
got=$(ping_count "$PEER_NS" "$ADDR_A4" 10)
f1=$(alloc_failed)
[ "${got:-0}" = 0 ] && [ "$f1" -gt "$f0" ] &&
	pass "rxalloc: every allocation failing, A's ring ran dry (0 of 10 pings answered)" ||
	fail "rxalloc: every allocation failing, A's ring ran dry" \
		"${got:-0} of 10 pings answered, alloc_failed $f0 -> $f1"
inject_none
t0=$SECONDS
wait_until 10 peer_pings &&
	pass "rxalloc: rx resumed $((SECONDS - t0)) s after the failures stopped" ||
	fail "rxalloc: rx resumed within 10 s after the failures stopped" \
		"$(ping_count "$PEER_NS" "$ADDR_A4" 5) of 5 pings answered; alloc_failed $(alloc_failed)"
sha_send /tmp/rxalloc.bin 5305 120 &&
	pass "rxalloc: after the starvation, 4 MiB each way intact" ||
	fail "rxalloc: after the starvation, 4 MiB each way intact"
ethtool -G "$NIC_A" rx 256
pair_down
finish
