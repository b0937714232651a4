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
# with a private apt configuration (its own deb-src entry, lists and
# cache, never the system's sources), of which only the upstream tarball
# is downloaded (the backport's own Debian tarball is not on the mirror,
# and Debian does not patch that header) and only the header extracted.
# Cache: ${RONIC_CACHE:-/var/cache/ronic}/qemu-plugin-api-<QEMU version>/
# (the header) and insn-plugin-<hash of the QEMU version and the source>/.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
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
	srcs=/etc/apt/sources.list.d/debian.sources
	if [ -f "$srcs" ]; then
		uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' "$srcs")
	else
		uri=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ { print $2; exit }' /etc/apt/sources.list)
	fi
	[ -n "$uri" ] || { say "no Debian source configured"; exit 1; }
	mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/dl"
	# The installed QEMU is bookworm-backports'.
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri bookworm-backports main" \
		> "$work/sources.list"
	apt_private=(-q -o "Dir::Etc::sourcelist=$work/sources.list"
		-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$work/lists"
		-o "Dir::Cache=$work/cache" -o APT::Sandbox::User=root)
	apt-get "${apt_private[@]}" update > "$work/update.log" 2>&1 ||
		{ cat "$work/update.log" >&2; exit 1; }
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
