#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every static check of ronic; exits non-zero on any finding.
#
#   scripts/check.sh [CHECK...]      (make check runs them all)
#
# CHECK is one of: build checkpatch coccinelle kernel-doc shellcheck docs man.
#
#   - build:      kbuild build with W=1 and sparse (C=2) against $KDIR, in a
#                 scratch copy of the tree; any warning/error in our files
#                 or from modpost fails
#   - checkpatch: checkpatch.pl --strict --no-tree -f on src/, include/,
#                 Kbuild, Makefile, Kconfig
#   - coccinelle: every scripts/coccinelle/*.cocci in report mode over
#                 src/ and include/; any report fails
#   - kernel-doc: kernel-doc -none over src/ and include/; any warning fails
#   - shellcheck: shell scripts under scripts/, tests/ and .ci/run; skipped
#                 (not failed) when shellcheck is not installed
#   - docs:       Documentation/*.rst through docutils (rst2html), any
#                 warning fails
#   - man:        Documentation/*.4 through groff -man -ww -z (groff-base)
#                 and, when installed, mandoc -Tlint; any warning fails
#
# Environment:
#   KDIR               kernel build tree (default: the guest's headers)
#   RONIC_TOOL_CACHE   where checkpatch.pl and kernel-doc are extracted
#                        from the kernel source tarball, once (default:
#                        /var/cache/ronic/kernel-tools, or ~/.cache/ronic/
#                        kernel-tools when that is not writable)
#   RONIC_KSRC_TARBALL the tarball (default /usr/src/linux-source-6.12.tar.xz)
#
# Full logs are kept in results/check/<check>.log.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"

if [ -z "${KDIR:-}" ]; then
	KDIR=/usr/src/linux-headers-$(ronic_guest_kver)
fi
tarball=${RONIC_KSRC_TARBALL:-/usr/src/linux-source-$RONIC_KSERIES.tar.xz}
logdir=$top/results/check
mkdir -p "$logdir"

all_checks=(build checkpatch coccinelle kernel-doc shellcheck docs man)
declare -A result detail

shopt -s nullglob globstar

# Sources every check looks at (the build takes what Kbuild names).
c_files=(src/*.c src/*.h include/**/*.h)

# Sorts and de-duplicates the array named $1 in place.
sort_u() {
	local -n arr=$1
	[ ${#arr[@]} = 0 ] && return 0
	mapfile -t arr < <(printf '%s\n' "${arr[@]}" | sort -u)
}
sort_u c_files

say() { printf '%s\n' "$*"; }

# Scratch directories (callers add what scratch makes to scratch_dirs:
# it runs in a subshell), removed however the script ends.
scratch_dirs=()
scratch() { mktemp -d "/tmp/ronic-$1.XXXXXX"; }
trap 'rm -rf "${scratch_dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- tools

# checkpatch.pl and kernel-doc are not in Debian's headers packages
# (linux-kbuild ships kernel-doc, not checkpatch). Take both, and the
# files checkpatch reads beside itself, from the kernel source tarball
# that setup installs: extracted once, again only when the tarball
# changes.
tool_files=(scripts/checkpatch.pl scripts/spelling.txt
	    scripts/const_structs.checkpatch scripts/kernel-doc)

tool_cache() {
	local want=${RONIC_TOOL_CACHE:-/var/cache/ronic/kernel-tools}
	if ! mkdir -p "$want" 2>/dev/null || [ ! -w "$want" ]; then
		want=${XDG_CACHE_HOME:-$HOME/.cache}/ronic/kernel-tools
		mkdir -p "$want" || return 1
	fi
	echo "$want"
}

# Prints the directory that holds scripts/checkpatch.pl etc.
kernel_tools() {
	local cache stamp want tmp top_dir f members=()
	cache=$(tool_cache) || return 1
	if [ ! -f "$tarball" ]; then
		if [ -x "$cache/scripts/checkpatch.pl" ]; then
			echo "$cache"
			return 0
		fi
		echo "check.sh: no $tarball (run scripts/setup.sh)" >&2
		return 1
	fi
	want=$(stat -Lc '%n %s %Y' "$tarball")
	stamp=$cache/.source
	if [ -x "$cache/scripts/checkpatch.pl" ] &&
	   [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		echo "$cache"
		return 0
	fi
	echo "check.sh: extracting checkpatch and kernel-doc from $tarball" >&2
	top_dir=$(tar -tJf "$tarball" 2>/dev/null | head -1)
	top_dir=${top_dir%%/*}
	for f in "${tool_files[@]}"; do
		members+=("$top_dir/$f")
	done
	tmp=$(mktemp -d "$cache/.x.XXXXXX") || return 1
	if ! tar -xJf "$tarball" -C "$tmp" "${members[@]}"; then
		rm -rf "$tmp"
		return 1
	fi
	rm -rf "$cache/scripts"
	mv "$tmp/$top_dir/scripts" "$cache/scripts"
	rm -rf "$tmp"
	echo "$want" > "$stamp"
	echo "$cache"
}

# ---------------------------------------------------------------- checks

# The compiler, sparse, kernel-doc (W=1) and modpost messages about our
# files, with the scratch copy's path turned back into the tree's (6.12
# prints M= paths relative, older kernels absolute), and sparse's
# "expected/got" lines after its type warnings. Build output order.
our_findings() {
	local log=$1 scratch=$2 ours='^(\./)?(src|include)/[^:]*:'
	sed -e "s|$scratch/||g" "$log" |
		grep -E "${ours}([0-9]+:)*[[:space:]]*(warning|error):|${ours}[0-9]+:[0-9]+:[[:space:]]+(expected|got) |^(WARNING|ERROR): modpost:" |
		awk '!seen[$0]++'
}

check_build() {
	local log=$logdir/build.log scratch cf=() rc findings mk
	if [ ! -f "$KDIR/Makefile" ]; then
		detail[build]="no kernel tree at KDIR=$KDIR (run scripts/setup.sh)"
		return 1
	fi
	if ! command -v sparse >/dev/null; then
		detail[build]="sparse is not installed (run scripts/setup.sh)"
		return 1
	fi
	# Kernels before 4.10 need __CHECK_ENDIAN__ for sparse's endian
	# (__bitwise) checks; later ones pass -Wbitwise in CHECKFLAGS.
	# (Debian's headers Makefile is one "include" of the common one.)
	mapfile -t mk < <(sed -n 's/^include[[:space:]]\+//p' "$KDIR/Makefile")
	if ! grep -qs -- '-Wbitwise' "$KDIR/Makefile" "${mk[@]}"; then
		cf=(CF=-D__CHECK_ENDIAN__)
	fi
	# A scratch copy of the sources only: the developer's own objects
	# and a concurrent make are left alone, and no stale object copied
	# along can spare a file its compile (and its warnings).
	scratch=$(scratch build) || return 1
	scratch_dirs+=("$scratch")
	scripts/copy-driver.sh "$scratch"
	say "   make -C $KDIR M=<scratch> W=1 C=2${cf:+ ${cf[*]}} modules"
	make -C "$KDIR" M="$scratch" W=1 C=2 "${cf[@]}" \
		-j"$(nproc)" modules >"$log" 2>&1
	rc=$?
	findings=$(our_findings "$log" "$scratch")
	sed -i -e "s|$scratch/||g" "$log"
	rm -rf "$scratch"
	if [ -n "$findings" ]; then
		printf '%s\n' "$findings"
		detail[build]="$(grep -cE ' (warning|error):|^(WARNING|ERROR):' <<<"$findings") warning(s)/error(s) in our files"
		return 1
	fi
	if [ "$rc" != 0 ]; then
		tail -20 "$log"
		detail[build]="make failed (rc=$rc), see $log"
		return 1
	fi
	detail[build]="W=1 C=2 clean"
	return 0
}

check_checkpatch() {
	local log=$logdir/checkpatch.log tools f files=() bad=0 n=0
	tools=$(kernel_tools) || {
		detail[checkpatch]="no checkpatch.pl"
		return 1
	}
	files=("${c_files[@]}")
	for f in Kbuild Makefile Kconfig; do
		[ -f "$f" ] && files+=("$f")
	done
	if [ ${#files[@]} = 0 ]; then
		detail[checkpatch]="no files"
		return 1
	fi
	: >"$log"
	# checkpatch --strict leaves a .checkpatch-camelcase.* cache in its
	# working directory: run it in a scratch directory that links to our
	# files, so the tree is untouched and the reported paths stay
	# relative. GIT_DIR lets it still learn the CamelCase names our
	# include/*.h define from git, as it would in the tree (without git
	# it would search /include and warn about an undefined --root).
	local work gitdir
	work=$(scratch checkpatch) || return 1
	scratch_dirs+=("$work")
	for f in src include Kbuild Makefile Kconfig; do
		[ -e "$f" ] && ln -s "$top/$f" "$work/$f"
	done
	if gitdir=$(git -C "$top" rev-parse --absolute-git-dir 2>/dev/null); then
		export GIT_DIR=$gitdir
	fi
	# Nothing is ignored in C files: what checkpatch says only in tree
	# (FILE_PATH_CHANGES, MAINTAINERS, the spdxcheck.py license lookup)
	# it does not say with --no-tree -f. In Makefile, Kbuild and Kconfig
	# EMBEDDED_FILENAME is ignored: it flags any word equal to the file's
	# own name, and our Makefile must name the kernel's Makefile.
	# CAMELCASE is ignored in ronic_ethtool.c alone, for kernel API names.
	for f in "${files[@]}"; do
		local ign=()
		case $f in
		Makefile | Kbuild | Kconfig) ign=(--ignore EMBEDDED_FILENAME) ;;
		# The IEEE 802.3 counter names of struct ethtool_eth_mac_stats.
		src/ronic_ethtool.c) ign=(--ignore CAMELCASE) ;;
		esac
		n=$((n + 1))
		if ! (cd "$work" && perl "$tools/scripts/checkpatch.pl" \
			--strict --no-tree --show-types --no-summary --quiet \
			--color=never "${ign[@]}" -f "$f") >>"$log" 2>&1; then
			bad=$((bad + 1))
		fi
	done
	rm -rf "$work"
	unset GIT_DIR
	sed -i -e '/^Use of uninitialized value [$]root in concatenation/d' \
		-e "\\|^find: .*/include.: No such file or directory|d" "$log"
	if [ "$bad" != 0 ] || grep -qE '^(WARNING|ERROR|CHECK):' "$log"; then
		cat "$log"
		detail[checkpatch]="$(grep -cE '^(WARNING|ERROR|CHECK):' "$log") finding(s) in $bad of $n file(s)"
		return 1
	fi
	detail[checkpatch]="$n file(s) clean"
	return 0
}

check_coccinelle() {
	local log=$logdir/coccinelle.log rule out bad=0 n=0
	local rules=(scripts/coccinelle/*.cocci)
	if ! command -v spatch >/dev/null; then
		detail[coccinelle]="spatch is not installed (run scripts/setup.sh)"
		return 1
	fi
	if [ ${#rules[@]} = 0 ] || [ ${#c_files[@]} = 0 ]; then
		detail[coccinelle]="no rules or no sources"
		return 1
	fi
	: >"$log"
	# A function spatch cannot parse is one no rule looks into (a DMA
	# call there would pass unseen), so a parse error is a finding too.
	local f pout nbad
	for f in "${c_files[@]}"; do
		pout=$(spatch --parse-c "$f" 2>&1)
		nbad=$(sed -n 's/.*nb bad = \([0-9]*\).*/\1/p' <<<"$pout" | tail -1)
		if [ "${nbad:-1}" != 0 ]; then
			{
				echo "$f: spatch cannot parse ${nbad:-?} line(s):"
				grep -E '^ = File |^BAD:' <<<"$pout"
			} >>"$log"
			bad=$((bad + 1))
		fi
	done
	for rule in "${rules[@]}"; do
		n=$((n + 1))
		# Report mode prints file:line:col: message per match; any
		# line on stdout is a finding, a failing spatch is one too.
		if ! out=$(spatch -D report --very-quiet --no-includes \
				--include-headers --sp-file "$rule" \
				"${c_files[@]}" 2>>"$log"); then
			echo "$rule: spatch failed" >>"$log"
			bad=$((bad + 1))
		fi
		if [ -n "$out" ]; then
			sort -t: -k1,1 -k2,2n <<<"$out" | sed "s|^|$(basename "$rule" .cocci): |" >>"$log"
			bad=$((bad + 1))
		fi
	done
	if [ "$bad" != 0 ]; then
		cat "$log"
		detail[coccinelle]="$bad finding(s) (rules or parse errors), $n rule(s)"
		return 1
	fi
	detail[coccinelle]="$n rule(s) clean"
	return 0
}

check_kernel_doc() {
	local log=$logdir/kernel-doc.log tools kdoc
	if [ -x "$KDIR/scripts/kernel-doc" ]; then
		kdoc=$KDIR/scripts/kernel-doc
	else
		tools=$(kernel_tools) || {
			detail[kernel-doc]="no kernel-doc"
			return 1
		}
		kdoc=$tools/scripts/kernel-doc
	fi
	if [ ${#c_files[@]} = 0 ]; then
		detail[kernel-doc]="no sources"
		return 1
	fi
	"$kdoc" -none "${c_files[@]}" >"$log" 2>&1
	if [ -s "$log" ]; then
		cat "$log"
		detail[kernel-doc]="$(grep -c . "$log") line(s) of warnings"
		return 1
	fi
	detail[kernel-doc]="${#c_files[@]} file(s) clean"
	return 0
}

check_shellcheck() {
	local log=$logdir/shellcheck.log f files=()
	if ! command -v shellcheck >/dev/null; then
		detail[shellcheck]="shellcheck not installed"
		return 3
	fi
	# The *.sh files, .ci/run, and any other script under scripts/ or
	# tests/ whose first line names sh or bash (guest init scripts).
	files=(scripts/*.sh scripts/**/*.sh tests/**/*.sh)
	[ -f .ci/run ] && files+=(.ci/run)
	while IFS= read -r f; do
		head -1 "$f" | grep -qE '^#!.*[/ ](ba|da)?sh([[:space:]]|$)' &&
			files+=("$f")
	done < <(find scripts tests -type f ! -name '*.sh' 2>/dev/null)
	sort_u files
	if [ ${#files[@]} = 0 ]; then
		detail[shellcheck]="no scripts"
		return 0
	fi
	# -x follows "source" lines; paths in source= directives are from $top.
	if ! shellcheck -x -P SCRIPTDIR -f gcc "${files[@]}" >"$log" 2>&1; then
		cat "$log"
		detail[shellcheck]="$(grep -c . "$log") finding(s) in ${#files[@]} script(s)"
		return 1
	fi
	detail[shellcheck]="${#files[@]} script(s) clean"
	return 0
}

# lint_result CHECK LOG CLEAN: a lint's verdict from the warnings it logged.
lint_result() {
	if [ -s "$2" ]; then
		cat "$2"
		detail[$1]="$(grep -c . "$2") line(s) of warnings"
		return 1
	fi
	detail[$1]=$3
	return 0
}

check_docs() {
	local log=$logdir/docs.log f tool n=0
	tool=$(command -v rst2html || command -v rst2html.py) || {
		detail[docs]="no rst2html (python3-docutils)"
		return 1
	}
	: > "$log"
	for f in Documentation/*.rst; do
		"$tool" --halt=warning --report=warning "$f" > /dev/null 2>>"$log" ||
			echo "$f: docutils failed" >> "$log"
		n=$((n + 1))
	done
	lint_result docs "$log" "$n file(s) clean"
}

check_man() {
	local log=$logdir/man.log f n=0
	command -v groff >/dev/null || {
		detail[man]="no groff (groff-base)"
		return 1
	}
	: > "$log"
	for f in Documentation/*.4; do
		groff -man -ww -z "$f" >> "$log" 2>&1 ||
			echo "$f: groff failed" >> "$log"
		if command -v mandoc >/dev/null; then
			mandoc -Tlint -W warning "$f" >> "$log" 2>&1 ||
				echo "$f: mandoc -Tlint failed" >> "$log"
		fi
		n=$((n + 1))
	done
	lint_result man "$log" "$n page(s) clean"
}

# ---------------------------------------------------------------- main

checks=("$@")
[ ${#checks[@]} = 0 ] && checks=("${all_checks[@]}")
for c in "${checks[@]}"; do
	case " ${all_checks[*]} " in
	*" $c "*) ;;
	*) echo "check.sh: unknown check '$c' (${all_checks[*]})" >&2; exit 2 ;;
	esac
done

say "ronic static checks: KDIR=$KDIR"
failed=0
start_all=$SECONDS
for c in "${checks[@]}"; do
	say "== $c"
	start=$SECONDS
	"check_${c//-/_}"
	case $? in
	0) result[$c]=PASS ;;
	3) result[$c]=SKIP ;;
	*) result[$c]=FAIL; failed=$((failed + 1)) ;;
	esac
	say "== $c: ${result[$c]} (${detail[$c]:-}) [$((SECONDS - start))s]"
done

say ""
say "summary:"
for c in "${checks[@]}"; do
	printf '  %-11s %s  %s\n' "$c" "${result[$c]}" "${detail[$c]:-}"
done
say "check.sh: $failed of ${#checks[@]} check(s) failed [$((SECONDS - start_all))s]"
[ "$failed" = 0 ]
