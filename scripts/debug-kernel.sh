#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the debug kernel of the test bed from linux-source-
# $RONIC_DEBUG_KSERIES (scripts/kernel-version.sh; scripts/setup.sh fetches
# it with scripts/fetch-kernel-source.sh).
#
#   scripts/debug-kernel.sh [--force] [--config-only] [--key] [-j N]
#
# The kernel: tinyconfig (everything off, no DWARF debug info), extended by
# the fragment scripts/debug-kernel.config (merge_config.sh, then
# olddefconfig): what the
# VM needs (virtio-pci, 9p and overlayfs built in, PCIe, MSI-X, intel-iommu
# with interrupt remapping, BPF, XDP sockets, page_pool, igb and pktgen as
# modules) and the debug options (KASAN generic inline, UBSAN bounds,
# lockdep, atomic-sleep checks, DMA-API debug, kmemleak without the scan
# thread, KUnit, fault injection). Every
# required option of the fragment is checked after olddefconfig; the build
# stops if one is missing.
#
# Cache: ${RONIC_CACHE:-/var/cache/ronic}/debug-kernel/<key>/, the key a
# hash of the fragment, the source package's version, the compiler's and
# pahole's versions and this script's recipe number. It holds
#   linux/      the build tree, kept for `make -C linux M=... modules`
#               (configured, modules_prepare'd, Module.symvers, vmlinux;
#               the other objects are deleted after the build)
#   bzImage     the kernel
#   modules/    INSTALL_MOD_PATH: modules/lib/modules/<kver>
#   info.env    RONIC_DEBUG_KVER, _BZIMAGE, _KBUILD, _MODDIR, _KEY
#   build.log   the kbuild output; timing.txt
# /lib/modules/<kver> on the host is made a symlink to that modules folder:
# scripts/vm.sh looks there for the guest's modules (depmod indexes,
# built-ins for its initramfs) and the guest sees the host root, so the
# guest's modprobe finds igb and pktgen through it.
# A build interrupted halfway resumes where it stopped on the next run.
#
# Prints the cache folder on stdout (everything else goes to stderr), so:
#   dir=$(scripts/debug-kernel.sh) && . "$dir/info.env"
# --key prints only the cache key (e.g. a CI cache's key for the folder);
# --config-only configures and checks the options, no build.
#
# Environment: RONIC_JOBS (make -j, default the CPU count; always nice 10),
# RONIC_LINUX_SOURCE (the tarball, default the fetched
# $RONIC_SOURCE_DIR/linux-source-$RONIC_DEBUG_KSERIES.tar.xz),
# RONIC_DEBUG_KEEP_OBJS=1 keeps every object (for incremental work).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Bump when the build steps below change what ends up in the cache.
recipe=2

usage() {
	sed -n 's/^#   //p' "${BASH_SOURCE[0]}" | head -1 >&2
	exit 2
}

force=
config_only=
print_key=
jobs=${RONIC_JOBS:-$(nproc)}
while [ $# -gt 0 ]; do
	case "$1" in
	--force) force=1; shift ;;
	--config-only) config_only=1; shift ;;
	--key) print_key=1; shift ;;
	-j) jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	-h|--help) usage ;;
	*) echo "debug-kernel.sh: unknown option $1" >&2; usage ;;
	esac
done

say() {
	echo "debug-kernel: $*" >&2
}
die() {
	say "$*"
	exit 1
}

# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
tarball=${RONIC_LINUX_SOURCE:-$(ronic_debug_source)}
[ -r "$tarball" ] || die "no $tarball (scripts/setup.sh fetches it)"
fragment_src=$top/scripts/debug-kernel.config
[ -r "$fragment_src" ] || die "no $fragment_src"

# The source's identity: the Debian package's version when the tarball is
# an installed package's or a fetched one's, else the tarball's own hash.
pkg=$(dpkg-query -S "$tarball" 2>/dev/null | cut -d: -f1 | head -1 || true)
if [ -n "$pkg" ]; then
	src_id="$pkg $(dpkg-query -W -f '${Version}' "$pkg")"
elif [ -s "$tarball.version" ]; then
	# Fetched by scripts/fetch-kernel-source.sh: the package's version.
	src_id="$(basename "$tarball" .tar.xz) $(cat "$tarball.version")"
else
	src_id="$(basename "$tarball") $(sha256sum "$tarball" | cut -c1-16)"
fi

fragment=$(cat "$fragment_src")
tools_id="$(gcc --version | head -1)"
key=$( { echo "recipe $recipe"; echo "$src_id"; echo "$tools_id"
	 echo "$fragment"; } | sha256sum | cut -c1-16)

if [ -n "$print_key" ]; then
	echo "$key"
	exit 0
fi

cache=${RONIC_CACHE:-/var/cache/ronic}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/ronic
	mkdir -p "$cache"
fi
root=$cache/debug-kernel
dir=$root/$key
tree=$dir/linux
mkdir -p "$root"

# One build at a time (a second caller waits, then finds it done).
exec 8> "$root/.lock"
if ! flock -n 8; then
	say "waiting for another debug-kernel build ($root/.lock)"
	flock 8
fi

# link_modules KVER: /lib/modules/KVER -> our modules folder (vm.sh and the
# guest look there). Never replaces a real folder.
link_modules() {
	local kver=$1 link=/lib/modules/$1 target=$dir/modules/lib/modules/$1
	if [ -L "$link" ]; then
		[ "$(readlink "$link")" != "$target" ] || return 0
	elif [ -e "$link" ]; then
		die "$link exists and is not a symlink: remove it to use the debug kernel"
	fi
	ln -sfn "$target" "$link.ronic-tmp.$$" ||
		die "cannot write /lib/modules (run as root)"
	mv -Tf "$link.ronic-tmp.$$" "$link"
	say "$link -> $target"
}

if [ -n "$force" ] && [ -z "$config_only" ]; then
	say "--force: removing $dir"
	rm -rf "$dir"
fi

if [ -f "$dir/done" ] && [ -z "$config_only" ]; then
	# shellcheck source=/dev/null
	. "$dir/info.env"
	link_modules "$RONIC_DEBUG_KVER"
	touch "$dir/done"
	say "cached: $RONIC_DEBUG_KVER in $dir"
	echo "$dir"
	exit 0
fi

t_start=$(date +%s)
mkdir -p "$dir"
timing=$dir/timing.txt
phase_t=$t_start
phase() {
	local now
	now=$(date +%s)
	printf '%-10s %4d s\n' "$1" $((now - phase_t)) >> "$timing"
	say "$1 done in $((now - phase_t)) s"
	phase_t=$now
}
: > "$timing"
say "key $key: $src_id; $tools_id; make -j$jobs"

# ---------------------------------------------------------------- extract
if [ ! -f "$dir/.extracted" ]; then
	rm -rf "$tree" "$dir/linux-source-"*
	say "unpacking $tarball"
	tar -xJf "$tarball" -C "$dir"
	src=$(find "$dir" -mindepth 1 -maxdepth 1 -type d -name 'linux*' | head -1)
	if [ -z "$src" ] || [ ! -f "$src/Makefile" ]; then
		die "no kernel tree in $tarball"
	fi
	[ "$src" = "$tree" ] || mv "$src" "$tree"
	touch "$dir/.extracted"
	phase unpack
fi

# ---------------------------------------------------------------- configure
# check_config FRAGMENT CONFIG: required lines missing (fatal), trimmed
# options still on (reported).
check_config() {
	local line k got bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			k=${line%%=*}
			got=$(grep -E "^$k=" "$2" || echo "$k unset")
			if [ "$got" != "$line" ]; then
				say "MISSING: wanted $line, got $got"
				bad=1
			fi
			;;
		"# CONFIG_"*" is not set")
			k=${line#\# }
			k=${k%% *}
			if got=$(grep -E "^$k=" "$2"); then
				say "note: trimmed option still on (selected): $got"
			fi
			;;
		esac
	done <<< "$1"
	return $bad
}

mk() {
	nice -n 10 make -C "$tree" -j"$jobs" "$@"
}

if [ ! -f "$dir/.configured" ]; then
	echo "$fragment" > "$dir/fragment.config"
	{
		mk tinyconfig
		(cd "$tree" && scripts/kconfig/merge_config.sh -m .config \
			"$dir/fragment.config")
		mk olddefconfig
	} > "$dir/config.log" 2>&1 || {
		tail -30 "$dir/config.log" >&2
		die "configuration failed; see $dir/config.log"
	}
	if ! check_config "$fragment" "$tree/.config"; then
		die "required options did not survive olddefconfig (above)"
	fi
	say "config: every required option of the fragment is set"
	touch "$dir/.configured"
	phase configure
fi
# What setlocalversion makes of it (no git tree, no LOCALVERSION_AUTO);
# checked against include/config/kernel.release after the build.
kver=$(make -s -C "$tree" kernelversion)$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$/\1/p' "$tree/.config")
if [ -n "$config_only" ]; then
	check_config "$fragment" "$tree/.config" ||
		die "required options missing in $tree/.config"
	say "config only: $kver, $tree/.config"
	exit 0
fi

# ---------------------------------------------------------------- build
if [ ! -f "$dir/.built" ]; then
	say "building $kver (bzImage, modules; log $dir/build.log)"
	t0=$(date +%s)
	mk bzImage modules > "$dir/build.log" 2>&1 &
	mpid=$!
	# A progress line every two minutes (CI logs stay alive).
	while kill -0 "$mpid" 2>/dev/null; do
		for _ in $(seq 120); do
			kill -0 "$mpid" 2>/dev/null || break
			sleep 1
		done
		kill -0 "$mpid" 2>/dev/null || break
		say "  ... $(( ($(date +%s) - t0) / 60 )) min: $(grep -aE '^  [A-Z]+ ' "$dir/build.log" | tail -1 | sed 's/^ *//')"
	done
	if ! wait "$mpid"; then
		grep -aE 'error|Error' "$dir/build.log" | head -20 >&2 || true
		tail -20 "$dir/build.log" >&2
		die "kernel build failed; see $dir/build.log (rerun to resume)"
	fi
	touch "$dir/.built"
	phase build
fi
built=$(cat "$tree/include/config/kernel.release")
[ "$built" = "$kver" ] || die "built $built, expected $kver"

# ---------------------------------------------------------------- install
rm -rf "$dir/modules"
mk INSTALL_MOD_PATH="$dir/modules" INSTALL_MOD_STRIP=1 modules_install \
	> "$dir/install.log" 2>&1 || {
	tail -20 "$dir/install.log" >&2
	die "modules_install failed; see $dir/install.log"
}
moddir=$dir/modules/lib/modules/$kver
[ -f "$moddir/modules.dep" ] || die "no $moddir/modules.dep after modules_install"
# The build link points into the cache tree (absolute already).
ln -sfn "$tree" "$moddir/build"
cp "$tree/arch/x86/boot/bzImage" "$dir/bzImage"
phase install

# ---------------------------------------------------------------- prune
# What `make M=` needs stays: .config, generated headers, scripts/ and
# tools/ (modpost, objtool), Module.symvers, vmlinux (BTF base; symbols).
if [ "${RONIC_DEBUG_KEEP_OBJS:-0}" != 1 ]; then
	(cd "$tree" && find . \( -path ./scripts -o -path ./tools \) -prune -o \
		-type f \( -name '*.o' -o -name '*.a' -o -name '*.ko' \
		-o -name '*.dwo' -o -name '.tmp_vmlinux*' \) -print0 |
		xargs -0 rm -f)
	phase prune
fi

cat > "$dir/info.env" <<EOT
RONIC_DEBUG_KEY=$key
RONIC_DEBUG_KVER=$kver
RONIC_DEBUG_BZIMAGE=$dir/bzImage
RONIC_DEBUG_KBUILD=$tree
RONIC_DEBUG_MODDIR=$moddir
EOT
link_modules "$kver"
touch "$dir/done"
total=$(($(date +%s) - t_start))
printf '%-10s %4d s\n' total "$total" >> "$timing"
say "built $kver in $((total / 60)) min $((total % 60)) s ($(du -sh "$dir" | cut -f1) in $dir)"
sed 's/^/debug-kernel:   /' "$timing" >&2

# Older builds go after a week (not at once: a VM may be using one).
find "$root" -mindepth 1 -maxdepth 1 -type d -name '????????????????' \
	! -name "$key" -mtime +7 -exec rm -rf {} + 2>/dev/null || true
echo "$dir"
