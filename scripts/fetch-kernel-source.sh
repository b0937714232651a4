#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch linux-source-$RONIC_DEBUG_KSERIES from Debian's $RONIC_DEBUG_KSUITE
# (scripts/kernel-version.sh) into $RONIC_SOURCE_DIR, for the debug kernel.
#
#   scripts/fetch-kernel-source.sh
#
# That suite is never added to the system's apt sources, not even for a
# moment (an apt-get install would then pull in its libc): a private apt
# configuration (scripts/private-apt.sh, under a temporary folder)
# downloads the one package, and dpkg -x unpacks it into that folder,
# never into /. Only the source tarball is kept. Idempotent: an existing tarball of the
# same package version is kept.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$here/kernel-version.sh"
# shellcheck source=scripts/private-apt.sh
. "$here/private-apt.sh"

say() {
	echo "fetch-kernel-source: $*" >&2
}

pkg=linux-source-$RONIC_DEBUG_KSERIES
dest=$(ronic_debug_source)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/deb" "$work/x"
private_apt "$work" deb "$RONIC_DEBUG_KSUITE"
version=$(apt-cache "${apt_private[@]}" show "$pkg" 2>/dev/null |
	sed -n 's/^Version: //p' | sort -V | tail -1)
[ -n "$version" ] || { say "$RONIC_DEBUG_KSUITE has no $pkg"; exit 1; }
if [ -f "$dest" ] && [ "$(cat "$dest.version" 2>/dev/null)" = "$version" ]; then
	say "$pkg $version already in $dest"
	exit 0
fi
(cd "$work/deb" && apt-get "${apt_private[@]}" download "$pkg=$version" >&2)
dpkg -x "$work"/deb/*.deb "$work/x"
tarball=$work/x/usr/src/$pkg.tar.xz
[ -f "$tarball" ] || { say "no $pkg.tar.xz in the package"; exit 1; }
mkdir -p "$RONIC_SOURCE_DIR"
mv "$tarball" "$dest.tmp"
mv "$dest.tmp" "$dest"
echo "$version" > "$dest.version"
say "$pkg $version in $dest"
