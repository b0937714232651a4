#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) xskxceiver, the kernel's own AF_XDP selftest program
# (tools/testing/selftests/bpf/xskxceiver.c), from the same Linux tree
# the debug kernel is built from (scripts/debug-kernel.sh), so the guest
# runs the test program of its own kernel version, not one from another
# tree whose tests or UAPI expectations differ.
#
#   scripts/build-xskxceiver.sh [KSRC]
#
# KSRC is the kernel tree; default $RONIC_DEBUG_KSRC, else the debug
# kernel's cached tree (RONIC_DEBUG_KBUILD in its info.env, found with
# `scripts/debug-kernel.sh --key`; that kernel must be built already).
#
# The steps follow the selftests Makefile's $(OUTPUT)/xskxceiver rule
# without running that Makefile (it wants vmlinux.h, all of test_progs'
# BPF objects and a bpftool built first):
#   libbpf     static libbpf.a and its headers, from KSRC/tools/lib/bpf
#   bpf        progs/xsk_xdp_progs.c with clang -target bpf, then its
#              skeleton xsk_xdp_progs.skel.h with bpftool ($RONIC_BPFTOOL,
#              default the host's bpftool)
#   link       xskxceiver.c xsk.c network_helpers.c prog_tests/test_xsk.c
#              tools/lib/find_bit.c against libbpf.a, -lelf -lz -lrt
#              -lpthread
# Nothing is written into KSRC. The BPF object is embedded in the binary
# (skeleton); libbpf is linked statically, libelf and zlib dynamically.
#
# Cache: ${RONIC_CACHE:-/var/cache/ronic}/xskxceiver-<key>/, the key a hash
# of the tree's kernel version, the tree's path and this script; it holds
# xskxceiver, build.log and the intermediate files. The last line on stdout
# is the binary's path (progress and timings go to stderr), so:
#   xsk=$(scripts/build-xskxceiver.sh | tail -1)
#
# Environment: RONIC_JOBS (make -j for libbpf, default the CPU count;
# always nice 10), RONIC_BPFTOOL, RONIC_CACHE.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
self=$top/scripts/$(basename "${BASH_SOURCE[0]}")

say() {
	echo "build-xskxceiver: $*" >&2
}
die() {
	say "$*"
	exit 1
}

case "${1:-}" in
-h|--help)
	sed -n 's/^#   //p' "$self" | head -1 >&2
	exit 2
	;;
esac
[ $# -le 1 ] || die "usage: $(sed -n 's/^#   //p' "$self" | head -1)"

# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
cache=${RONIC_CACHE:-/var/cache/ronic}

# ---------------------------------------------------------------- tree
ksrc=${1:-${RONIC_DEBUG_KSRC:-}}
if [ -z "$ksrc" ]; then
	# Where tests/run-debug.sh gets RONIC_DEBUG_KSRC from, without
	# starting a debug kernel build here.
	dkey=$("$top/scripts/debug-kernel.sh" --key) ||
		die "scripts/debug-kernel.sh --key failed"
	info=$cache/debug-kernel/$dkey/info.env
	if [ ! -f "$cache/debug-kernel/$dkey/done" ] || [ ! -f "$info" ]; then
		die "no debug kernel $dkey in $cache/debug-kernel: run scripts/debug-kernel.sh first, or pass the tree as KSRC"
	fi
	# shellcheck source=/dev/null
	. "$info"
	ksrc=${RONIC_DEBUG_KBUILD:?}
fi
[ -f "$ksrc/Makefile" ] || die "$ksrc: not a kernel tree"
ksrc=$(cd "$ksrc" && pwd -P)
sel=$ksrc/tools/testing/selftests/bpf
for f in xskxceiver.c xskxceiver.h xsk.c xsk.h network_helpers.c \
	 network_helpers.h xsk_xdp_common.h prog_tests/test_xsk.c \
	 prog_tests/test_xsk.h progs/xsk_xdp_progs.c; do
	[ -f "$sel/$f" ] || die "$sel/$f missing (a tree without xskxceiver?)"
done

kv() {
	sed -n "s/^$1 = *//p" "$ksrc/Makefile" | head -1
}
kversion="$(kv VERSION).$(kv PATCHLEVEL).$(kv SUBLEVEL)$(kv EXTRAVERSION)"
case "$kversion" in
"$RONIC_DEBUG_KSERIES".*) ;;
*) say "note: $ksrc is $kversion, the debug kernel series is $RONIC_DEBUG_KSERIES" ;;
esac

key=$( { echo "$kversion"; echo "$ksrc"; cat "$self"; } | sha256sum | cut -c1-12)
dir=$cache/xskxceiver-$key
bin=$dir/xskxceiver
if [ -x "$bin" ]; then
	say "cached: $kversion ($dir)"
	echo "$bin"
	exit 0
fi

# ---------------------------------------------------------------- tools
for t in make gcc clang; do
	command -v "$t" > /dev/null || die "no $t (scripts/setup.sh installs it)"
done
bpftool=${RONIC_BPFTOOL:-$(command -v bpftool || echo /usr/sbin/bpftool)}
[ -x "$bpftool" ] || die "no bpftool ($bpftool): apt-get install bpftool, or set RONIC_BPFTOOL"
for h in libelf.h gelf.h zlib.h; do
	echo "#include <$h>" | gcc -E -x c - > /dev/null 2>&1 ||
		die "no <$h>: apt-get install libelf-dev zlib1g-dev"
done
case "$(uname -m)" in
x86_64|i?86) arch=x86 ;;
aarch64) arch=arm64 ;;
*) arch=$(uname -m) ;;
esac
jobs=${RONIC_JOBS:-$(nproc)}

# ---------------------------------------------------------------- lock
mkdir -p "$cache"
exec 9> "$dir.lock"
if ! flock -n 9; then
	say "waiting for another build ($dir.lock)"
	flock 9
fi
if [ -x "$bin" ]; then
	say "built meanwhile: $dir"
	echo "$bin"
	exit 0
fi

mkdir -p "$dir/gen" "$dir/libbpf"
log=$dir/build.log
: > "$log"
t_start=$(date +%s)
phase_t=$t_start
phase() {
	local now
	now=$(date +%s)
	say "$1 done in $((now - phase_t)) s"
	phase_t=$now
}
# run PHASE CMD...: CMD's output into the log; on failure its tail, exit 1.
run() {
	local what=$1
	shift
	echo "+ $*" >> "$log"
	if ! "$@" >> "$log" 2>&1; then
		tail -30 "$log" >&2
		die "$what failed; see $log"
	fi
}
say "building xskxceiver of $kversion from $ksrc into $dir"

# ---------------------------------------------------------------- libbpf
# As the selftests Makefile builds $(BPFOBJ): OUTPUT and DESTDIR outside
# the tree; only the static library.
run libbpf nice -n 10 make -C "$ksrc/tools/lib/bpf" -j"$jobs" \
	OUTPUT="$dir/libbpf/" DESTDIR="$dir/root" prefix= \
	EXTRA_CFLAGS="-g -O2" "$dir/libbpf/libbpf.a" install_headers
if [ ! -f "$dir/libbpf/libbpf.a" ] || [ ! -f "$dir/root/include/bpf/libbpf.h" ]; then
	die "libbpf build left no libbpf.a or headers; see $log"
fi
phase libbpf

# ---------------------------------------------------------------- bpf
# The compiler's own include dirs last (-idirafter), as the Makefile's
# get_sys_includes does, for asm/types.h and friends with -target bpf.
mapfile -t sysinc < <(clang -v -E - < /dev/null 2>&1 |
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter\n\1|p }')
bpfo=$dir/gen/xsk_xdp_progs.bpf.o
run "clang -target bpf" nice -n 10 clang -O2 -g -Wall -target bpf \
	-D__TARGET_ARCH_"$arch" -std=gnu11 -fno-strict-aliasing \
	-Wno-compare-distinct-pointer-types \
	-I"$dir/root/include" -I"$sel" -I"$ksrc/tools/include/uapi" \
	-I"$ksrc/tools/include" "${sysinc[@]}" \
	-c "$sel/progs/xsk_xdp_progs.c" -o "$bpfo"
# bpftool's static linker pass, as the Makefile's skeleton rule does.
run "bpftool gen object" "$bpftool" gen object "$dir/gen/xsk_xdp_progs.linked.o" "$bpfo"
echo "+ $bpftool gen skeleton ... > $dir/gen/xsk_xdp_progs.skel.h" >> "$log"
"$bpftool" gen skeleton "$dir/gen/xsk_xdp_progs.linked.o" name xsk_xdp_progs \
	> "$dir/gen/xsk_xdp_progs.skel.h" 2>> "$log" || {
	tail -30 "$log" >&2
	die "bpftool gen skeleton failed; see $log"
}
phase bpf

# ---------------------------------------------------------------- link
# The $(OUTPUT)/xskxceiver rule's sources, -I paths (CURDIR, INCLUDE_DIR,
# GENDIR, LIBDIR, TOOLSINCDIR, TOOLSARCHINCDIR, APIDIR, OUTPUT) and libs,
# plus what ../lib.mk adds (_GNU_SOURCE; selftests/ for kselftest.h).
cflags=(-g -O2 -rdynamic -std=gnu11 -Wall -fno-omit-frame-pointer
	-Wno-unused-but-set-variable -D_GNU_SOURCE=)
[ ! -f "$ksrc/include/generated/autoconf.h" ] || cflags+=(-DHAVE_GENHDR)
cflags+=(-I"$sel" -I"$dir/root/include" -I"$ksrc/include/generated"
	 -I"$ksrc/tools/lib" -I"$ksrc/tools/include"
	 -I"$ksrc/tools/arch/$arch/include" -I"$ksrc/tools/include/uapi"
	 -I"$dir/gen" -I"$ksrc/tools/testing/selftests")
read -ra elf_libs <<< "$(pkg-config libelf --libs 2>/dev/null || echo -lelf)"
run "compile and link" nice -n 10 gcc "${cflags[@]}" \
	"$sel/xskxceiver.c" "$sel/xsk.c" "$sel/network_helpers.c" \
	"$ksrc/tools/lib/find_bit.c" "$sel/prog_tests/test_xsk.c" \
	"$dir/libbpf/libbpf.a" "${elf_libs[@]}" -lz -lrt -lpthread \
	-o "$bin.tmp"
mv -f "$bin.tmp" "$bin"
phase link

say "built in $(($(date +%s) - t_start)) s: $bin"
echo "$bin"
