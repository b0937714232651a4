#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build ronic inside the kernel tree, the way an upstream reviewer would:
# the driver copied to drivers/net/ethernet/ronic and hooked into that
# directory's Kconfig and Makefile, CONFIG_RONIC=m, then
# "make W=1 drivers/net/ethernet/ronic/".
#
#   scripts/intree.sh              in linux-source-6.12 with the x86_64
#                                  defconfig, prepared once (cached)
#   scripts/intree.sh --tree DIR   in the built kernel tree DIR (the debug
#                                  kernel's, 7.3: scripts/debug-kernel.sh),
#                                  through an overlay mounted over it, so
#                                  DIR itself is never written
#
# The 6.12 tree lives in /var/cache/ronic/intree-<hash>/ (RONIC_INTREE_CACHE
# overrides it), keyed by the tarball's name, size and date: the first run
# extracts it and runs defconfig and modules_prepare (minutes); later runs
# only copy the driver and build it. Fails on any compiler warning or when
# an object is missing. Prints the build log's tail on failure.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc)
over=
case "${1:-}" in
--tree) over=$(realpath "$2") ;;
'') ;;
*) echo "usage: scripts/intree.sh [--tree KERNEL_BUILD_TREE]" >&2; exit 2 ;;
esac

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

# build_in_tree: copy and hook the driver into $tree, enable it, build
# its directory; the log in $log.
build_in_tree() {
	local missing=0 o t0
	copy_driver
	hook_makefile
	hook_kconfig
	enable_ronic
	t0=$SECONDS
	if ! make -C "$tree" -j"$jobs" W=1 drivers/net/ethernet/ronic/ > "$log" 2>&1; then
		tail -40 "$log"
		echo "intree.sh: in-tree build failed (log: $log)" >&2
		return 1
	fi
	if grep -E 'warning:|error:' "$log"; then
		echo "intree.sh: the in-tree build has warnings (log: $log)" >&2
		return 1
	fi
	for o in $(grep -o 'src/[a-z_]*\.o' "$top/Kbuild") ronic.o; do
		if [ ! -s "$tree/drivers/net/ethernet/ronic/$o" ]; then
			echo "intree.sh: no drivers/net/ethernet/ronic/$o" >&2
			missing=1
		fi
	done
	[ "$missing" -eq 0 ] || return 1
	echo "intree.sh: drivers/net/ethernet/ronic/ronic.o built in $(make -s -C "$tree" kernelrelease) without warnings in $((SECONDS - t0)) s"
}

if [ -n "$over" ]; then
	# The overlay's upper layer takes every write (the driver, the hooks,
	# .config, the objects); it goes when the build ends.
	scratch=$(mktemp -d /var/tmp/ronic-intree.XXXXXX)
	trap 'umount "$scratch/linux" 2>/dev/null; rm -rf "$scratch"' EXIT
	mkdir "$scratch/upper" "$scratch/work" "$scratch/linux"
	mount -t overlay overlay \
		-o "lowerdir=$over,upperdir=$scratch/upper,workdir=$scratch/work" \
		"$scratch/linux"
	tree=$scratch/linux
	log=$scratch/build.log
	build_in_tree
	exit
fi

tarball=$(find /usr/src -maxdepth 1 -name 'linux-source-6.12*.tar.*' | sort | tail -1)
if [ -z "$tarball" ]; then
	echo "intree.sh: no /usr/src/linux-source-6.12*.tar.* (scripts/setup.sh installs it)" >&2
	exit 1
fi
key=$(stat -c '%n %s %Y' "$tarball" | sha256sum | cut -c1-12)
cache=${RONIC_INTREE_CACHE:-/var/cache/ronic/intree-$key}
tree=$cache/linux
mkdir -p "$(dirname "$cache")"
exec 9> "$cache.lock"
flock 9
[ -e "$cache/prepared" ] || prepare
log=$cache/build.log
build_in_tree
