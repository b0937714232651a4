#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of t-oldkernel, on the oldest kernel ronic supports: the
# guest scripts of t-basic (link, ethtool -i, ping both ways, against
# itself and igb, link flap, devlink info), t-ethtool (the ethtool
# surface, the relaxed-ordering flags, sha256 transfers) and t-xdp (every
# action, errors, attach under traffic), each with its own plan. A check
# of a feature this kernel lacks ($RONIC_KERNEL_LACKS, see kernel_lacks)
# is a skip there.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 0

log "kernel $(uname -r); ronic built without: ${RONIC_KERNEL_LACKS:-nothing}"
# AF_XDP (nested in xdp.sh): its core cases at a quarter of its frames and
# half its bytes; the compat paths are what this boot is for.
export RONIC_XSK_FRAMES=5000 RONIC_XSK_MIB=4 RONIC_XSK_QUICK=1
for script in basic ethtool xdp; do
	nested "$RONIC_TOP/tests/guest/$script.sh"
	pair_down
done
finish
