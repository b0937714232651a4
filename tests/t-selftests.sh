#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's driver selftests ping.py and stats.py against ronic, from
# linux-source-6.12 extracted once (only the parts they need) into
# /var/cache/ronic/selftests-<tarball hash>: drivers/net selftests,
# net/lib/py, tools/net/ynl and Documentation/netlink (specs, schemas).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
hash=$(sha256sum "$tarball" | cut -c1-12)
ksrc=${RONIC_CACHE:-/var/cache/ronic}/selftests-$hash
if [ ! -f "$ksrc/Documentation/netlink/genetlink.yaml" ]; then
	mkdir -p "$ksrc.tmp"
	tar xJf "$tarball" -C "$ksrc.tmp" --strip-components=1 \
		linux-source-6.12/tools/testing/selftests/drivers/net \
		linux-source-6.12/tools/testing/selftests/net/lib/py \
		linux-source-6.12/tools/net/ynl \
		linux-source-6.12/Documentation/netlink
	rm -rf "$ksrc"
	mv "$ksrc.tmp" "$ksrc"
fi
export RONIC_SELFTESTS=$ksrc
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
run_guest selftests --timeout 600
