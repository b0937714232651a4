#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-selftests: the kernel's own driver selftests
# (tools/testing/selftests/drivers/net/ping.py and stats.py of
# linux-source-6.12, with that tree's lib/py and YNL) against ronic: the
# DUT is NIC A in the root netns, the remote NIC B in the netns "peer".
# Each KTAP line becomes a PASS:/FAIL: line (ktap in lib.sh).
#
# Results (6.12 guest, ronic on both ports), each run before and after
# -L 1 / -G 512 / -L 2 replaced the rings:
#   ping.py  test_v4, test_v6, test_tcp          ok
#   stats.py check_pause                         ok (get_pause_stats)
#            check_fec                           XFAIL, logged as skipped:
#                                                "FEC not supported by the
#                                                device" (copper 82576, no FEC)
#            pkt_byte_sum                        ok (qstats vs rtnl stats)
#            qstat_by_ifindex                    ok
#            check_down                          ok (nothing goes backwards)
# The 6.12 stats.py has no sleeping-read case; stats64 and qstats reads
# take only stats_lock (a spinlock) and u64_stats retries.
# pass and fail always succeed: "check && pass || fail" is if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
# Six checks of its own and one per ktap run (ktap declares the cases).
plan 9

ksrc=${RONIC_SELFTESTS:?RONIC_SELFTESTS names the extracted kernel tree}
tdir=$ksrc/tools/testing/selftests/drivers/net

# has_qstats: the netdev family's qstats dump reports the DUT, per queue,
# so a stats.py case that skips for want of qstats cannot pass unnoticed.
# shellcheck disable=SC2317 # called through check
has_qstats() {
	local ifindex

	ifindex=$(cat "/sys/class/net/$NIC_A/ifindex")
	python3 "$ksrc/tools/net/ynl/cli.py" \
		--spec "$ksrc/Documentation/netlink/specs/netdev.yaml" \
		--dump qstats-get --json '{"scope": "queue"}' > /tmp/qstats.out 2>&1
	sed 's/^/# /' /tmp/qstats.out >&2
	grep -q "'ifindex': $ifindex," /tmp/qstats.out &&
		grep -q "'rx-packets'" /tmp/qstats.out
}

if ! pair_up ronic ronic; then
	fail "pair up" "no link between the two ronic ports"
	finish
fi
check "qstats per queue for $NIC_A" has_qstats
ktap "$tdir" ping.py
ktap "$tdir" stats.py

# Rings replaced by -L and -G: what the old rings counted moves into the
# qstats base; stats.py again checks queues + base against rtnl stats.
max=$(ethtool -l "$NIC_A" | awk '/^Combined:/ { print $2; exit }')
check "ethtool -L combined 1" ethtool -L "$NIC_A" combined 1
check "ethtool -G rx 512 tx 512" ethtool -G "$NIC_A" rx 512 tx 512
check "traffic after -G" wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4"
check "ethtool -L combined $max" ethtool -L "$NIC_A" combined "$max"
check "traffic after -L" wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4"
ktap "$tdir" stats.py "after -L 1, -G 512, -L $max"
finish
