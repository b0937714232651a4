#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cross builds of ronic.ko (make cross): x86_64, arm64 and sparc64 against
# linux-source-6.12, W=1, any warning fails.
#
#   scripts/cross.sh [ARCH...]       (default: x86_64 arm64 sparc64)
#
# Per architecture, a prepared kernel tree is cached outside the repo (make
# clean leaves it alone):
#   ${RONIC_CACHE:-/var/cache/ronic}/cross-src-<hash>/linux   the source,
#       unpacked once from the tarball and never configured
#   ${RONIC_CACHE:-/var/cache/ronic}/cross-<arch>-<hash>/     its O= tree:
#       defconfig, the options ronic needs (below, through scripts/config),
#       olddefconfig, modules_prepare
# <hash> is a short hash of the tarball's name and package version, the
# cross compiler's version, the option list and this script's recipe
# number; a changed input gets a new tree, an existing one is reused.
# The first preparation takes a few minutes per architecture; a cached
# build of the three well under one.
#
# The module is built from a scratch copy of the sources, so no cross
# object lands in the repo (the native build and make check stay as they
# are); each architecture's ronic.ko and build.log go to
# ${RONIC_CROSS_OUT:-<repo>/results/cross}/<arch>/.
#
# No Module.symvers exists without a full kernel build, so modpost cannot
# resolve the kernel's symbols: it runs with KBUILD_MODPOST_WARN=1, and its
# "Module.symvers is missing" notice and "undefined!" lines are expected
# and not counted (the native builds check symbols); every other warning
# (compiler, W=1, modpost, objtool) fails the build.
#
# Prints "cross: <arch>: ok (<s> s)" or "cross: <arch>: FAIL ..." per
# architecture; exit status 1 if any failed.
# Compilers (Debian packages, scripts/setup.sh): gcc (x86_64),
# gcc-aarch64-linux-gnu, gcc-sparc64-linux-gnu.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Bump when the preparation steps change what ends up in a tree.
recipe=1
tarball=${RONIC_LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
jobs=${RONIC_JOBS:-$(nproc)}
out_root=${RONIC_CROSS_OUT:-$top/results/cross}

# What ronic needs beyond each defconfig. PAGE_POOL has no prompt: VETH
# selects it (as ronic's Kconfig does in tree).
options=(PCI PCI_MSI NET INET IPV6 NETDEVICES ETHERNET MODULES DEBUG_FS
	 BPF_SYSCALL XDP_SOCKETS JUMP_LABEL VETH PAGE_POOL_STATS)
# What must be on after olddefconfig, or the tree is not built.
required=(PCI PCI_MSI NET MODULES PAGE_POOL BPF_SYSCALL DEBUG_FS)

say() { echo "cross: $*" >&2; }

cross_compile() {
	case "$1" in
	x86_64) echo x86_64-linux-gnu- ;;
	arm64) echo aarch64-linux-gnu- ;;
	sparc64) echo sparc64-linux-gnu- ;;
	*) return 1 ;;
	esac
}

[ -r "$tarball" ] || { say "no $tarball (scripts/setup.sh installs linux-source-6.12)"; exit 1; }
pkg=$(dpkg-query -S "$tarball" 2>/dev/null | cut -d: -f1 | head -1 || true)
if [ -n "$pkg" ]; then
	src_id="$(basename "$tarball") $pkg $(dpkg-query -W -f '${Version}' "$pkg")"
else
	src_id="$(basename "$tarball") $(sha256sum "$tarball" | cut -c1-16)"
fi

cache=${RONIC_CACHE:-/var/cache/ronic}
mkdir -p "$cache" || exit 1

# ---------------------------------------------------------------- source
# prepare_source: the unpacked tarball, shared by every architecture.
prepare_source() {
	local key dir
	key=$(echo "recipe $recipe; $src_id" | sha256sum | cut -c1-12)
	dir=$cache/cross-src-$key
	mkdir -p "$dir"
	exec 8> "$dir/.lock"
	flock 8
	if [ ! -f "$dir/.extracted" ]; then
		say "unpacking $tarball into $dir"
		rm -rf "$dir/linux" "$dir"/linux-source-*
		tar -xJf "$tarball" -C "$dir" || return 1
		mv "$dir"/linux-source-* "$dir/linux" || return 1
		touch "$dir/.extracted"
	fi
	exec 8>&-
	echo "$dir/linux"
}

# ---------------------------------------------------------------- tree
# prepare_tree ARCH SRC: print the prepared O= tree of ARCH.
prepare_tree() {
	local arch=$1 src=$2 cc key dir log o
	cc=$(cross_compile "$arch")
	command -v "${cc}gcc" > /dev/null ||
		{ say "$arch: no ${cc}gcc (scripts/setup.sh installs it)"; return 1; }
	key=$( { echo "recipe $recipe; $src_id; $arch"; "${cc}gcc" --version | head -1
		 echo "${options[*]}"; } | sha256sum | cut -c1-12)
	dir=$cache/cross-$arch-$key
	log=$dir.prepare.log
	mkdir -p "$dir"
	exec 9> "$dir.lock"
	flock 9
	if [ ! -f "$dir/.ronic-prepared" ]; then
		say "$arch: preparing $dir (log $log)"
		local kmake=(nice -n 10 make -C "$src" O="$dir" ARCH="$arch"
			     CROSS_COMPILE="$cc" -j"$jobs") enable=()
		for o in "${options[@]}"; do
			enable+=(--enable "$o")
		done
		{
			"${kmake[@]}" defconfig &&
			"$src/scripts/config" --file "$dir/.config" \
				"${enable[@]}" &&
			"${kmake[@]}" olddefconfig &&
			"${kmake[@]}" modules_prepare
		} > "$log" 2>&1 || { tail -20 "$log" >&2; say "$arch: preparation failed"; return 1; }
		for o in "${required[@]}"; do
			grep -q "^CONFIG_$o=y" "$dir/.config" ||
				{ say "$arch: CONFIG_$o is not y after olddefconfig"; return 1; }
		done
		touch "$dir/.ronic-prepared"
	fi
	exec 9>&-
	echo "$dir"
}

# ---------------------------------------------------------------- module
# build_module ARCH TREE: ronic.ko in $out_root/ARCH; fails on a warning.
build_module() {
	local arch=$1 tree=$2 out=$out_root/$1 n
	rm -rf "$out"
	mkdir -p "$out/src"
	"$top/scripts/copy-driver.sh" "$out/src"
	find "$out/src" \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' \) -delete
	if ! nice -n 10 make -C "$tree" M="$out/src" ARCH="$arch" \
		CROSS_COMPILE="$(cross_compile "$arch")" W=1 KBUILD_MODPOST_WARN=1 \
		-j"$jobs" modules \
		> "$out/build.log" 2>&1 || [ ! -f "$out/src/ronic.ko" ]; then
		tail -20 "$out/build.log" >&2
		echo "build failed, see $out/build.log"
		return 1
	fi
	grep -iE 'warning|error' "$out/build.log" | grep -vE \
		-e '^WARNING: Module.symvers is missing' \
		-e '^WARNING: modpost: "[^"]+" \[[^]]+\] undefined!$' \
		-e '^WARNING: modpost: suppressed [0-9]+ unresolved symbol warnings' \
		-e "^ +You may get many unresolved symbol errors\\.\$" \
		-e "^ +You can set KBUILD_MODPOST_WARN=1 to turn errors into warning" \
		> "$out/warnings.txt"
	n=$(wc -l < "$out/warnings.txt")
	if [ "$n" -ne 0 ]; then
		head -40 "$out/warnings.txt" >&2
		echo "$n warnings, see $out/build.log"
		return 1
	fi
	cp "$out/src/ronic.ko" "$out/ronic.ko"
}

archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(x86_64 arm64 sparc64)
for a in "${archs[@]}"; do
	cross_compile "$a" > /dev/null || { say "unknown architecture $a"; exit 2; }
done

src=$(prepare_source) || { say "unpacking failed"; exit 1; }
rc=0
for a in "${archs[@]}"; do
	t0=$(date +%s)
	if ! tree=$(prepare_tree "$a" "$src"); then
		echo "cross: $a: FAIL (tree preparation)"
		rc=1
		continue
	fi
	t1=$(date +%s)
	if why=$(build_module "$a" "$tree"); then
		echo "cross: $a: ok, $out_root/$a/ronic.ko (prepare $((t1 - t0)) s, build $(($(date +%s) - t1)) s)"
	else
		echo "cross: $a: FAIL ($why)"
		rc=1
	fi
done
exit $rc
