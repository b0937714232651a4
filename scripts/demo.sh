#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build ronic.ko for the guest kernel, boot the test bed, put
# ronic on both NICs (NIC B in the netns "peer"), and show ethtool -i, the
# addresses, a ping each way and a short iperf3 run, on the terminal.
#
#   scripts/demo.sh               RONIC_DUT=igb scripts/demo.sh (the same
#                                 with the in-tree driver)
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
kver=$(ronic_guest_kver)
export RONIC_DUT=${RONIC_DUT:-ronic}

if [ "$RONIC_DUT" = ronic ]; then
	echo "demo: building ronic.ko for $kver"
	make -C "$top" KDIR="/usr/src/linux-headers-$kver" modules
fi
echo "demo: booting the test bed (TCG, a few seconds)"
exec "$top/scripts/vm.sh" --name demo -- "$top/scripts/guest/demo.sh"
