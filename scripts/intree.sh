#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build ronic inside the kernel tree, the way an upstream reviewer would:
# linux-source-6.12 with the x86_64 defconfig, the driver copied to
# drivers/net/ethernet/ronic and hooked into that directory's Kconfig and
# Makefile, CONFIG_RONIC=m, then "make W=1 drivers/net/ethernet/ronic/".
#
#   scripts/intree.sh            prepare the tree once (cached), then build
#
# The tree lives in /var/cache/ronic/intree-<hash>/ (RONIC_INTREE_CACHE
# overrides it), keyed by the tarball's name, size and date: the first run
# extracts it and runs defconfig and modules_prepare (minutes); later runs
# only copy the driver and build it. Fails on any compiler warning or when
# an object is missing. Prints the build log's tail on failure.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tarball=$(find /usr/src -maxdepth 1 -name 'linux-source-6.12*.tar.*' | sort | tail -1)
if [ -z "$tarball" ]; then
	echo "intree.sh: no /usr/src/linux-source-6.12*.tar.* (scripts/setup.sh installs it)" >&2
	exit 1
fi
key=$(stat -c '%n %s %Y' "$tarball" | sha256sum | cut -c1-12)
cache=${RONIC_INTREE_CACHE:-/var/cache/ronic/intree-$key}
tree=$cache/linux
jobs=$(nproc)

# Both hooks are idempotent: a second run finds its line and adds nothing.
hook_makefile() {
	local mk=$tree/drivers/net/ethernet/Makefile
	# shellcheck disable=SC2016 # a make variable, literally
	local line='obj-$(CONFIG_RONIC) += ronic/'
	grep -qxF "$line" "$mk" || echo "$line" >> "$mk"
}

# The driver's Kconfig goes inside "if ETHERNET", before its endif.
hook_kconfig() {
	local kc=$tree/drivers/net/ethernet/Kconfig
	grep -q 'source "drivers/net/ethernet/ronic/Kconfig"' "$kc" ||
		sed -i 's|^endif # ETHERNET$|source "drivers/net/ethernet/ronic/Kconfig"\n\n&|' "$kc"
	grep -q 'source "drivers/net/ethernet/ronic/Kconfig"' "$kc"
}

copy_driver() {
	local dst=$tree/drivers/net/ethernet/ronic
	rm -rf "$dst"
	mkdir -p "$dst"
	"$top/scripts/copy-driver.sh" "$dst"
}

enable_ronic() {
	"$tree/scripts/config" --file "$tree/.config" --module RONIC
	make -s -C "$tree" olddefconfig
	grep -qx 'CONFIG_RONIC=m' "$tree/.config"
}

prepare() {
	local t0=$SECONDS tmp=$cache.tmp
	echo "intree.sh: preparing $tree from $tarball (once)"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xf "$tarball" -C "$tmp"
	mv "$tmp"/linux-source-6.12* "$tmp/linux"
	tree=$tmp/linux
	make -s -C "$tree" x86_64_defconfig
	copy_driver
	hook_makefile
	hook_kconfig
	enable_ronic
	make -s -C "$tree" -j"$jobs" modules_prepare
	rm -rf "$cache"
	mv "$tmp" "$cache"
	tree=$cache/linux
	touch "$cache/prepared"
	echo "intree.sh: prepared in $((SECONDS - t0)) s"
}

mkdir -p "$(dirname "$cache")"
exec 9> "$cache.lock"
flock 9
[ -e "$cache/prepared" ] || prepare

copy_driver
hook_makefile
hook_kconfig
enable_ronic

log=$cache/build.log
t0=$SECONDS
if ! make -C "$tree" -j"$jobs" W=1 drivers/net/ethernet/ronic/ > "$log" 2>&1; then
	tail -40 "$log"
	echo "intree.sh: in-tree build failed (log: $log)" >&2
	exit 1
fi
if grep -E 'warning:|error:' "$log"; then
	echo "intree.sh: the in-tree build has warnings (log: $log)" >&2
	exit 1
fi
missing=0
for o in $(grep -o 'src/[a-z_]*\.o' "$top/Kbuild") ronic.o; do
	if [ ! -s "$tree/drivers/net/ethernet/ronic/$o" ]; then
		echo "intree.sh: no drivers/net/ethernet/ronic/$o" >&2
		missing=1
	fi
done
[ "$missing" -eq 0 ] || exit 1
echo "intree.sh: drivers/net/ethernet/ronic/ronic.o built in tree without warnings in $((SECONDS - t0)) s"
