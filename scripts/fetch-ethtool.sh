#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A newer ethtool for the 7.3 tree's driver selftests, and print the
# folder that holds its binary:
#
#   scripts/fetch-ethtool.sh      -> /var/cache/ronic/ethtool-<version>/sbin
#
# The selftests read ethtool's JSON output of -g, -x and -c (hw/rss_ctx.py,
# hw/pp_alloc_fail.py), which bookworm's ethtool 6.1 does not print. The
# package comes from $RONIC_ETHTOOL_SUITE (trixie) through a private apt
# configuration (scripts/private-apt.sh), never the system's sources.
# The binary package, not a build from source: the mirror here has no
# source of it (its .dsc and upstream tarball are missing), and the
# binary needs only libc6 >= 2.34 and libmnl0, both bookworm's. dpkg -x
# unpacks it into a private folder, from which only the binary is kept.
# Cache: ${RONIC_CACHE:-/var/cache/ronic}/ethtool-<version>/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/private-apt.sh
. "$here/private-apt.sh"
suite=${RONIC_ETHTOOL_SUITE:-trixie}
cache=${RONIC_CACHE:-/var/cache/ronic}

found=$(find "$cache" -maxdepth 3 -path "$cache/ethtool-*/sbin/ethtool" 2>/dev/null | sort -V | tail -1) || true
if [ -n "$found" ] && "$found" --version > /dev/null 2>&1; then
	dirname "$found"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/deb" "$work/x"
private_apt "$work" deb "$suite"
version=$(apt-cache "${apt_private[@]}" show ethtool 2>/dev/null |
	sed -n 's/^Version: //p' | sort -V | tail -1)
[ -n "$version" ] || { echo "fetch-ethtool: $suite has no ethtool" >&2; exit 1; }
(cd "$work/deb" && apt-get "${apt_private[@]}" download "ethtool=$version" > "$work/download.log" 2>&1) ||
	{ cat "$work/download.log" >&2; exit 1; }
dpkg -x "$work"/deb/*.deb "$work/x"
dest=$cache/ethtool-${version//[^A-Za-z0-9.+~-]/_}
mkdir -p "$dest/sbin"
install -m 755 "$work/x/usr/sbin/ethtool" "$dest/sbin/ethtool"
"$dest/sbin/ethtool" --version > /dev/null ||
	{ echo "fetch-ethtool: $suite's ethtool does not run here" >&2; rm -rf "$dest"; exit 1; }
echo "fetch-ethtool: ethtool $version from $suite in $dest" >&2
echo "$dest/sbin"
