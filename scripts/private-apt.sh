# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Packages of other Debian suites without touching the system's apt
# sources, not even for a moment (an apt-get install would then pull in
# that suite's libc): a private apt configuration, its own sources file,
# lists and cache under a folder of the caller's, for apt-get download
# (or source --download-only) and apt-cache. Unpack with dpkg -x into a
# private folder, never into / (on a merged-/usr system that replaces the
# /lib symlink). Source it; it defines the functions below.

# debian_mirror: the mirror the system's Debian entry names (the security
# one aside), to model the private entries on.
debian_mirror() {
	local uri
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' \
			/etc/apt/sources.list.d/debian.sources)
	else
		uri=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ { print $2; exit }' \
			/etc/apt/sources.list)
	fi
	[ -n "$uri" ] || { echo "private-apt: no Debian source configured" >&2; return 1; }
	echo "$uri"
}

# private_apt DIR TYPE SUITE...: a private configuration under DIR with
# one "TYPE" line (deb or deb-src) of the system's mirror per SUITE (main
# component), its lists updated. Sets apt_private to the options that
# point apt-get and apt-cache at it.
private_apt() {
	local dir=$1 type=$2 uri suite
	shift 2
	uri=$(debian_mirror) || return 1
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	for suite in "$@"; do
		echo "$type [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main"
	done > "$dir/sources.list"
	apt_private=(-q -o "Dir::Etc::sourcelist=$dir/sources.list"
		-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$dir/lists"
		-o "Dir::Cache=$dir/cache" -o APT::Sandbox::User=root)
	apt-get "${apt_private[@]}" update > "$dir/update.log" 2>&1 ||
		{ cat "$dir/update.log" >&2; return 1; }
}
