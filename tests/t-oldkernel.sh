#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The oldest kernel ronic supports, Debian 12's own (RONIC_OLD_KSERIES in
# scripts/kernel-version.sh; scripts/setup.sh installs it): ronic.ko
# built against its headers in a scratch copy (W=1, no warning), then
# booted in the bed on that kernel, where tests/guest/oldkernel.sh runs
# the core of the suite (t-basic's, t-ethtool's and t-xdp's guest
# scripts). The features that kernel lacks (the RONIC_HAVE_* probes of
# scripts/gen-compat.sh that found nothing) go to the guest as
# RONIC_KERNEL_LACKS: there the checks of those features are skips.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"

kver=$(ronic_old_kver)
if [ -z "$kver" ] || [ ! -d "/lib/modules/$kver/build" ] || [ ! -r "/boot/vmlinuz-$kver" ]; then
	echo "FAIL: oldkernel: the $RONIC_OLD_KSERIES kernel and its headers are installed (scripts/setup.sh): '${kver:-none}'"
	exit 1
fi

results=${RONIC_RESULTS_DIR:-$top/results/oldkernel-$(date +%Y%m%d-%H%M%S)}
build=$results/build
rm -rf "$build"
mkdir -p "$build"
"$top/scripts/copy-driver.sh" "$build"
find "$build" \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' \) -delete
if nice -n 10 make -C "/lib/modules/$kver/build" M="$build" W=1 \
	-j"${RONIC_JOBS:-$(nproc)}" modules > "$build/build.log" 2>&1 &&
   [ -f "$build/ronic.ko" ] && ! grep -q 'warning:' "$build/build.log"; then
	echo "PASS: oldkernel: ronic.ko builds against $kver with W=1, no warning"
else
	grep -E -A3 'warning:|error:' "$build/build.log" | head -40
	echo "FAIL: oldkernel: ronic.ko builds against $kver with W=1, no warning (see $build/build.log)"
	exit 1
fi

RONIC_KERNEL_LACKS=$(sed -n 's|^/\* RONIC_HAVE_\([A-Z0-9_]*\): not in .*|\1|p' \
	"$build/generated/ronic_compat_gen.h" | tr '\n' ' ')
export RONIC_KERNEL_LACKS
echo "# oldkernel: $kver lacks: ${RONIC_KERNEL_LACKS:-nothing}"

with_test_modules "$kver" "$results"
with_xdp_objs
RONIC_RESULTS_DIR=$results run_guest oldkernel --kver "$kver" --module "$build/ronic.ko"
