#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The DUT on a guest with many CPUs (RONIC_SMP, 72): more than queues and
# vectors. The boot alone takes about 100 s under TCG.
#
# 72 TCG vCPUs on two host cores hang now and then in generic code
# (rcu_barrier under "ip link set netns", before any ronic traffic). A
# hang (no output for 420 s, no script output 360 s after the start, a
# hung-task report, or the time limit) gets a second attempt only under
# the bed-hang rule (scripts/bed-hang.sh): the first attempt is then a
# SKIP line, and its output is kept, commented out.
#
# run.sh: alone (72 vCPUs on the host's two cores)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RONIC_XDP_OBJ=$("$top/tests/xdp/build.sh") || exit 1
export RONIC_XDP_OBJ
results=${RONIC_RESULTS_DIR:-$top/results/smp-$(date +%Y%m%d-%H%M%S)}

# shellcheck source=scripts/bed-hang.sh
. "$top/scripts/bed-hang.sh"
ronic_vm_retry_bed_hang "$results" --name smp --timeout 1200 --idle-timeout 420 \
	--boot-timeout 360 --stop-on-hung-task --smp "${RONIC_SMP:-72}" \
	-- "$top/tests/guest/smp.sh"
