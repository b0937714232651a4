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
# configuration (its own sources file, lists and cache, under a temporary
# folder) downloads the one package, and dpkg -x unpacks it into that
# folder, never into / (on a merged-/usr system that would replace the
# /lib symlink). Only the source tarball is kept. The mirror is the one
# the system's Debian entry names. Idempotent: an existing tarball of the
# same package version is kept.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$here/kernel-version.sh"

say() {
	echo "fetch-kernel-source: $*" >&2
}

pkg=linux-source-$RONIC_DEBUG_KSERIES
dest=$(ronic_debug_source)

src=/etc/apt/sources.list.d/debian.sources
if [ -f "$src" ]; then
	uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' "$src")
else
	uri=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ { print $2; exit }' \
		/etc/apt/sources.list)
fi
[ -n "$uri" ] || { say "no Debian source configured to model $RONIC_DEBUG_KSUITE on"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/deb" "$work/x"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $RONIC_DEBUG_KSUITE main" \
	> "$work/sources.list"
apt_private=(-q -o "Dir::Etc::sourcelist=$work/sources.list"
	-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$work/lists"
	-o "Dir::Cache=$work/cache" -o APT::Sandbox::User=root)

apt-get "${apt_private[@]}" update >&2
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
