#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything ronic's build, static checks and VM tests need on a
# Debian 12 machine. Idempotent; run as root.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$here/kernel-version.sh"

export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then
	echo "setup.sh: run as root" >&2
	exit 1
fi

# model_source FILE SUITE COMPONENTS: an apt source in its own file,
# modelled on the configured Debian entry, so the mirror it uses is
# whatever this machine already trusts. Both are bookworm's own suites:
# backports (QEMU with -device igb) and non-free (netperf, for the bench).
model_source() {
	local file=$1 suite=$2 components=$3 src uri key
	[ ! -f "$file" ] || return 0
	src=/etc/apt/sources.list.d/debian.sources
	if [ -f "$src" ]; then
		uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' "$src")
		key=$(awk '/^Signed-By:/ { print $2; exit }' "$src")
	else
		uri=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ { print $2; exit }' \
			/etc/apt/sources.list)
		key=/usr/share/keyrings/debian-archive-keyring.gpg
	fi
	if [ -z "$uri" ]; then
		echo "setup.sh: no Debian source configured to model $suite on" >&2
		exit 1
	fi
	cat > "$file" <<EOT
Types: deb
URIs: $uri
Suites: $suite
Components: $components
Signed-By: ${key:-/usr/share/keyrings/debian-archive-keyring.gpg}
EOT
	need_update=1
}
model_source /etc/apt/sources.list.d/ronic-bookworm-backports.sources bookworm-backports main
model_source /etc/apt/sources.list.d/ronic-bookworm-non-free.sources bookworm non-free

stamp=/var/lib/apt/periodic/ronic-update-stamp
if [ -n "${need_update:-}" ] || [ ! -f "$stamp" ] ||
   [ -n "$(find "$stamp" -mmin +720)" ]; then
	apt-get update -q -o DPkg::Lock::Timeout=600
	mkdir -p "$(dirname "$stamp")"
	touch "$stamp"
fi

kver=${RONIC_KVER:-$(ronic_kver_available)}
if [ -z "$kver" ]; then
	echo "setup.sh: no linux-image-$RONIC_KSERIES.*-amd64-unsigned with matching headers" >&2
	exit 1
fi
echo "setup.sh: guest kernel $kver"
oldkver=${RONIC_OLD_KVER:-$(ronic_old_kver_available)}
if [ -z "$oldkver" ]; then
	echo "setup.sh: no linux-image-$RONIC_OLD_KSERIES.0-*-amd64-unsigned with matching headers" >&2
	exit 1
fi
echo "setup.sh: oldest supported kernel $oldkver"

pkgs=(
	build-essential bc bison flex libelf-dev libssl-dev dwarves kmod
	sparse coccinelle shellcheck
	ethtool iperf3 iproute2 iputils-ping busybox-static cpio pciutils
	xdp-tools bpftool clang llvm libbpf-dev
	python3 python3-yaml python3-jsonschema python3-docutils socat jq dkms
	groff-base gnuplot-nox netperf libglib2.0-dev
	"linux-image-$kver-unsigned" "linux-headers-$kver" "linux-source-$RONIC_KSERIES"
	"linux-image-$oldkver-unsigned" "linux-headers-$oldkver"
	gcc-aarch64-linux-gnu gcc-sparc64-linux-gnu
)
# Not gcc-multilib: Debian's cross compilers conflict with it, and the BPF
# programs find asm/ under /usr/include/<triplet> (tests/xdp/build.sh).
apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends "${pkgs[@]}"
apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends -t bookworm-backports \
	qemu-system-x86 qemu-utils

# The debug kernel's source, and a newer ethtool for its driver
# selftests, from a suite this system does not use.
"$here/fetch-kernel-source.sh"
"$here/fetch-ethtool.sh" > /dev/null ||
	echo "setup.sh: no newer ethtool; the selftests that need it will skip" >&2

mkdir -p "$(dirname "$RONIC_KVER_FILE")"
echo "$kver" > "$RONIC_KVER_FILE"
echo "$oldkver" > "$RONIC_OLD_KVER_FILE"

if ! qemu-system-x86_64 -device help 2>/dev/null | grep -q '"igb"'; then
	echo "setup.sh: this QEMU has no -device igb" >&2
	exit 1
fi
echo "setup.sh: done ($(qemu-system-x86_64 --version | head -1), kernel $kver)"
