#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the instruction-counting QEMU plugin (scripts/qemu-plugin/
# insn_count.c) against the plugin API of the installed QEMU, and print
# the path of the .so.
#
#   scripts/build-insn-plugin.sh
#
# The API header (include/qemu/qemu-plugin.h) ships in no binary package:
# it comes from the source of the installed QEMU's Debian package, fetched
# with a private apt configuration (scripts/private-apt.sh: its own
# deb-src entry, never the system's sources), of which only the upstream tarball
# is downloaded (the backport's own Debian tarball is not on the mirror,
# and Debian does not patch that header) and only the header extracted.
# Cache: ${RONIC_CACHE:-/var/cache/ronic}/qemu-plugin-api-<QEMU version>/
# (the header) and insn-plugin-<hash of the QEMU version and the source>/.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/private-apt.sh
. "$top/scripts/private-apt.sh"
say() {
	echo "build-insn-plugin: $*" >&2
}

version=$(dpkg-query -W -f '${Version}' qemu-system-x86)
[ -n "$version" ] || { say "qemu-system-x86 is not installed"; exit 1; }
src=$top/scripts/qemu-plugin/insn_count.c
key=$(echo "$version $(sha256sum < "$src")" | sha256sum | cut -c1-12)
cache=${RONIC_CACHE:-/var/cache/ronic}
dir=$cache/insn-plugin-$key
so=$dir/insn_count.so
if [ -f "$so" ]; then
	echo "$so"
	exit 0
fi
api=$cache/qemu-plugin-api-${version//[^A-Za-z0-9.+~-]/_}
mkdir -p "$dir" "$api"

header=$api/qemu-plugin.h
if [ ! -f "$header" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work/dl"
	# The installed QEMU is bookworm-backports'.
	private_apt "$work" deb-src bookworm-backports
	orig=$(apt-cache "${apt_private[@]}" showsrc qemu 2>/dev/null |
		awk -v v="$version" '/^Package:/ { mine = 0 } $1 == "Version:" && $2 == v { mine = 1 }
			/^[^ ]+:/ { sums = ($1 == "Checksums-Sha256:") }
			mine && sums && /^ / && $3 ~ /\.orig\.tar\./ { print $3; exit }')
	[ -n "$orig" ] || { say "no source of qemu $version"; exit 1; }
	# apt-get source fetches the .dsc, the upstream and the Debian
	# tarballs; only the upstream one is needed, and kept if the others
	# fail.
	(cd "$work/dl" && apt-get "${apt_private[@]}" source --download-only "qemu=$version" \
		> "$work/source.log" 2>&1) || true
	[ -f "$work/dl/$orig" ] || { cat "$work/source.log" >&2; say "could not fetch $orig"; exit 1; }
	tar -xf "$work/dl/$orig" -C "$work" --wildcards '*/include/qemu/qemu-plugin.h'
	mv "$(find "$work" -name qemu-plugin.h -path '*/include/qemu/*' | head -1)" "$header"
	say "plugin API header of qemu $version from $orig"
fi
# shellcheck disable=SC2046 # the flags are words
gcc -O2 -Wall -Werror -shared -fPIC -I"$api" $(pkg-config --cflags glib-2.0) \
	-o "$so.tmp" "$src"
mv "$so.tmp" "$so"
echo "$so"
