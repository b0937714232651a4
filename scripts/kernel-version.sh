# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The one place that names the kernels: the guest kernel and the debug
# kernel (below). RONIC_KVER pins it; otherwise
# setup takes the newest Debian generic 6.12 image that has matching
# headers (the archive offers several and drops old ones) and records its
# choice in $RONIC_KVER_FILE, which every other script reads.
RONIC_KSERIES=${RONIC_KSERIES:-6.12}
RONIC_KVER_FILE=${RONIC_KVER_FILE:-/var/lib/ronic/guest-kver}

# Generic flavour only: not -rt-, not -cloud-.
ronic_kver_re="$RONIC_KSERIES\\.[0-9]+\\+deb[0-9]+(u[0-9]+)?-amd64"

# ronic_kver_newest SERIES RE: the newest version of SERIES matching RE
# that the archive offers with both image and headers.
ronic_kver_newest() {
	apt-cache pkgnames "linux-image-$1." 2>/dev/null |
		sed -En "s/^linux-image-($2)-unsigned$/\\1/p" |
		sort -V | while read -r v; do
			apt-cache show "linux-headers-$v" >/dev/null 2>&1 && echo "$v"
		done | tail -1
}

# Newest guest kernel the archive offers with both image and headers.
ronic_kver_available() {
	ronic_kver_newest "$RONIC_KSERIES" "$ronic_kver_re"
}

# Newest version installed with both image and headers.
ronic_kver_installed() {
	local d
	for d in /usr/src/linux-headers-"$RONIC_KSERIES".*-amd64; do
		[ -d "$d" ] && echo "${d#/usr/src/linux-headers-}"
	done | grep -E "^$ronic_kver_re$" |
		sort -V | while read -r v; do
			[ -f "/boot/vmlinuz-$v" ] && echo "$v"
		done | tail -1
}

# The guest kernel every script uses.
ronic_guest_kver() {
	if [ -n "${RONIC_KVER:-}" ]; then
		echo "$RONIC_KVER"
	elif [ -s "$RONIC_KVER_FILE" ]; then
		cat "$RONIC_KVER_FILE"
	else
		ronic_kver_installed
	fi
}

# The debug kernel (scripts/debug-kernel.sh) is built from the source of
# the newest stable series Debian packages, from the suite named here;
# scripts/fetch-kernel-source.sh downloads it into $RONIC_SOURCE_DIR
# without adding that suite to the system's apt sources. Picking up a newer
# series is a change of these two lines and a rebuild.
RONIC_DEBUG_KSERIES=${RONIC_DEBUG_KSERIES:-7.3}
RONIC_DEBUG_KSUITE=${RONIC_DEBUG_KSUITE:-trixie-backports}
RONIC_SOURCE_DIR=${RONIC_SOURCE_DIR:-/var/lib/ronic/src}

# The debug kernel's source tarball.
ronic_debug_source() {
	echo "$RONIC_SOURCE_DIR/linux-source-$RONIC_DEBUG_KSERIES.tar.xz"
}

# The debug kernel's release when scripts/debug-kernel.sh has built it
# (its /lib/modules/<release>/build link to the build tree), else nothing.
ronic_debug_kver_built() {
	local d kver=
	for d in /lib/modules/"$RONIC_DEBUG_KSERIES".*-ronic-debug; do
		[ -d "$d/build" ] && kver=${d#/lib/modules/}
	done
	echo "$kver"
}

# The oldest series ronic supports: Debian 12's own kernel (6.1.0-N-amd64,
# generic flavour), booted by t-oldkernel and built by t-dkms. setup.sh
# installs the newest the archive offers and records it here.
RONIC_OLD_KSERIES=${RONIC_OLD_KSERIES:-6.1}
RONIC_OLD_KVER_FILE=${RONIC_OLD_KVER_FILE:-/var/lib/ronic/old-kver}
ronic_old_kver_re="$RONIC_OLD_KSERIES\\.0-[0-9]+-amd64"

# Newest oldest-series kernel the archive offers with image and headers.
ronic_old_kver_available() {
	ronic_kver_newest "$RONIC_OLD_KSERIES" "$ronic_old_kver_re"
}

# The oldest-series kernel setup.sh installed (empty if none).
ronic_old_kver() {
	if [ -n "${RONIC_OLD_KVER:-}" ]; then
		echo "$RONIC_OLD_KVER"
	elif [ -s "$RONIC_OLD_KVER_FILE" ]; then
		cat "$RONIC_OLD_KVER_FILE"
	fi
}
