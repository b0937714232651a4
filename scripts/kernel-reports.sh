# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What counts as a kernel report in a test bed kernel log, for the host
# (scripts/vm.sh, over a whole boot) and the guest (scripts/guest/lib.sh,
# over the lines one step added). Source it; it sets two variables and
# defines ronic_kernel_reports.
#
# RONIC_REPORT_RE: an extended regex matching the first line of a report.
# RONIC_BENIGN_RE: informational lines of debug options that match it.

RONIC_REPORT_RE='WARNING:|BUG:|Oops|KASAN|UBSAN|DMA-API|possible circular locking'
RONIC_REPORT_RE+='|inconsistent lock state|suspicious RCU|possible recursive locking'
RONIC_REPORT_RE+='|hung task|blocked for more than|refcount_t:|unreferenced object'
# Not kmemleak's "N new suspected memory leaks" after a scan: the debug
# kernel scans only when tests/guest/debug.sh asks, and that script reads
# the objects and fails on any whose backtrace is not the reference
# driver's (igb 7.3 leaves objects of its own). Its verbose mode's
# "unreferenced object" lines stay reports.
RONIC_REPORT_RE+='|DMAR: DRHD: handling fault|DMAR:.*fault'
RONIC_REPORT_RE+='|Kernel panic|general protection fault|list_(add|del) corruption'
# lockdep's own INFO lines that switch it off (an uninitialised lock, say)
RONIC_REPORT_RE+='|turning off the locking correctness validator'
# a page_pool whose pages never all came back
RONIC_REPORT_RE+='|stalled pool shutdown'
# the stack's tx watchdog (a test that forces one declares it: scripts/vm.sh)
RONIC_REPORT_RE+='|NETDEV WATCHDOG|transmit queue [0-9]+ timed out'
RONIC_BENIGN_RE='DMA-API: (preallocated|debugging (enabled|disabled))'
# shellcheck disable=SC2034 # used by the scripts that source this one
readonly RONIC_REPORT_RE RONIC_BENIGN_RE

# ronic_kernel_reports LOG...: the report lines of the logs (the same line
# in two logs once, carriage returns dropped), and one line for each RCU
# stall report whose next 100 lines have a frame of the driver ([ronic]):
# a stall alone is this bed's starved vCPU, a stall inside ronic is a bug.
ronic_kernel_reports() {
	local f
	for f in "$@"; do
		[ -s "$f" ] || continue
		tr -d '\r' < "$f" | grep -aE "$RONIC_REPORT_RE" | grep -avE "$RONIC_BENIGN_RE"
		tr -d '\r' < "$f" | awk '
			/rcu: INFO: .*detected stall|self-detected stall/ { stall = $0; left = 100; next }
			left > 0 && /\[ronic\]/ { print stall " (with a ronic frame: " $0 ")"; left = 0; next }
			left > 0 { left-- }'
	done | sort -u
}
