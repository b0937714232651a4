# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for guest scripts of the test bed (scripts/vm.sh); source it:
#
#   . "$RONIC_TOP/scripts/guest/lib.sh"
#
# The wire: two igb-model NICs (8086:10c9) on one QEMU hub. pair_up puts
# NIC A (the lower BDF) in the root netns with 10.0.0.1/24 and fd00::1/64
# and NIC B in the netns "peer" with 10.0.0.2/24 and fd00::2/64.
#
# Results: pass/fail/skip print exactly "PASS: <name>", "FAIL: <name>
# (<why>)" or "SKIP: <name> (<why>)"; tests/run.sh counts those lines. finish exits 1 if any check failed.
#
# Variables: RONIC_DUT is the driver under test (ronic, or igb to check the
# tests themselves), RONIC_TOP the repo, RONIC_RESULTS the writable results
# folder (/results in the VM).

RONIC_TOP=${RONIC_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
RONIC_DUT=${RONIC_DUT:-ronic}
RONIC_RESULTS=${RONIC_RESULTS:-/tmp}
export RONIC_TOP RONIC_DUT RONIC_RESULTS

NIC_PCI_ID=8086:10c9
PEER_NS=peer
ADDR_A4=10.0.0.1
ADDR_B4=10.0.0.2
ADDR_A6=fd00::1
ADDR_B6=fd00::2
PREFIX4=24
PREFIX6=64

# Filled in by pair_up.
BDF_A='' BDF_B='' NIC_A='' NIC_B='' DRV_A='' DRV_B=''

RONIC_PASSED=0
RONIC_FAILED=0

# shellcheck source=scripts/kernel-reports.sh
. "$RONIC_TOP/scripts/kernel-reports.sh"

# ------------------------------------------------------------ reporting

log() {
	echo "# $*" >&2
}

# check_time NAME: the seconds since the previous check (or the script's
# start) and NAME into $RONIC_RESULTS/check-times.tsv, where a slow check
# shows (sort -n on the host).
RONIC_CHECK_T=${EPOCHREALTIME/./}
check_time() {
	local now=${EPOCHREALTIME/./} d
	d=$(((now - RONIC_CHECK_T) / 100000))
	RONIC_CHECK_T=$now
	[ -n "${RONIC_RESULTS:-}" ] || return 0
	printf '%d.%d\t%s\n' $((d / 10)) $((d % 10)) "$1" >> "$RONIC_RESULTS/check-times.tsv"
}

pass() {
	RONIC_PASSED=$((RONIC_PASSED + 1))
	check_time "$1"
	echo "PASS: $1"
}

# fail NAME REASON
fail() {
	RONIC_FAILED=$((RONIC_FAILED + 1))
	check_time "$1"
	echo "FAIL: $1 (${2:-failed})"
}

# skip NAME REASON: a check that did not run (a missing tool, a test's own
# SKIP or XFAIL). Never a pass: tests/run.sh counts these apart.
skip() {
	RONIC_SKIPPED=$((${RONIC_SKIPPED:-0} + 1))
	check_time "$1"
	echo "SKIP: $1 (${2:-skipped})"
}

# plan N: this guest script runs N checks (PASS, FAIL and SKIP lines, its
# nested scripts' excluded: they declare their own). scripts/vm.sh adds up
# the plans of a boot and fails it when another number of checks ran, so
# a check that silently stops running is a failure.
plan() {
	printf '%s\t%s\n' "$1" "$(basename "$0")" >> "$RONIC_RESULTS/plan"
}

# held WHAT: a figure the run held up to (cycles survived, bytes checked,
# faults injected); tests/run.sh lists these lines at the end.
held() {
	echo "HELD: $*"
}

# check NAME CMD [ARGS...]: PASS if the command succeeds, else FAIL with
# the last line it printed.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$out" | tail -1 | cut -c1-160)"
		[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/#   /' >&2
		return 1
	fi
}

# nested SCRIPT: run another guest script in this boot, the one way to do
# it. Its PASS/FAIL/SKIP lines and its plan are its own; its failure also
# makes this script's exit status a failure (finish).
RONIC_NESTED_FAILED=0
nested() {
	if ! bash "$1"; then
		RONIC_NESTED_FAILED=$((RONIC_NESTED_FAILED + 1))
		log "$(basename "$0"): nested $(basename "$1") failed"
	fi
}

# finish: the exit status of a guest script.
finish() {
	log "$RONIC_PASSED passed, $RONIC_FAILED failed in this guest script"
	[ "$RONIC_FAILED" -eq 0 ] && [ "$RONIC_NESTED_FAILED" -eq 0 ]
	exit
}

# ktap DIR SCRIPT [TAG]: run one of the kernel's Python driver selftests
# (DIR/SCRIPT) against NIC A, the remote end NIC B in the peer netns, and
# turn its KTAP result lines into check lines: "ok" a PASS, "ok ... #
# SKIP" or "# XFAIL" (a failure the test itself excuses) a SKIP, never a
# pass, "not ok" a FAIL. The test's own KTAP plan ("1..N") declares those
# N checks (plan); then one more check, which the caller declares: every
# one of the N cases reported, and the exit status 0 (or 4 when it skipped
# something). A test that dies before its plan line fails that check.
# With RONIC_KTAP_REFERENCE=1 (a reference driver's run) the results are
# only logged, as "# reference: ..." lines, and counted nowhere.
# Returns non-zero when a check of the run failed.
ktap() {
	local dir=$1 script=$2 tag=${3:+ ($3)} out line name rc seen=0 cases
	local failed0=$RONIC_FAILED

	out=/tmp/ktap-$(basename "$script").out
	NETIF=$NIC_A LOCAL_V4=$ADDR_A4 REMOTE_V4=$ADDR_B4 \
		LOCAL_V6=$ADDR_A6 REMOTE_V6=$ADDR_B6 \
		REMOTE_TYPE=netns REMOTE_ARGS=$PEER_NS \
		timeout "${RONIC_KTAP_TIMEOUT:-120}" python3 "$dir/$script" > "$out" 2>&1
	rc=$?
	sed 's/^/# /' "$out" >&2
	if [ "${RONIC_KTAP_REFERENCE:-0}" = 1 ]; then
		grep -E '^(not )?ok ' "$out" | sed "s|^|reference: $script$tag: |" |
			while IFS= read -r line; do log "$line"; done
		log "reference: $script$tag: exit status $rc"
		return
	fi
	cases=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$out" | head -1)
	[ -z "$cases" ] || plan "$cases"
	while IFS= read -r line; do
		case $line in
		"ok "*"# SKIP"* | "ok "*"# XFAIL"*)
			name=${line#ok }
			skip "$script$tag: ${name%% # *}" "${name#* # }"
			;;
		"ok "*)
			pass "$script$tag: ${line#ok }"
			;;
		"not ok "*)
			fail "$script$tag: ${line#not ok }" "see the log above"
			;;
		*) continue ;;
		esac
		seen=$((seen + 1))
	done < "$out"
	if [ -z "$cases" ]; then
		fail "$script$tag runs" "no KTAP plan line (rc $rc)"
	elif [ "$seen" -ne "$cases" ]; then
		fail "$script$tag: all $cases cases reported" "$seen reported (rc $rc)"
	else
		case $rc in
		0 | 4) pass "$script$tag: all $cases cases reported, exit status $rc" ;;
		*) fail "$script$tag exit status" "rc $rc" ;;
		esac
	fi
	[ "$RONIC_FAILED" -eq "$failed0" ]
}

# The register dump of ronic on NIC A by ethtool -d
# (version 2), one hex word a line: 22
# global words, then 17 per queue (RDBAL, RDBAH, RDLEN, RDH, RDT, RXDCTL,
# SRRCTL, DCA_RXCTRL read, DCA_RXCTRL shadow, TDBAL, TDBAH, TDLEN, TDH,
# TDT, TXDCTL, DCA_TXCTRL, EITR) for 16 queues, then LEDCTL and EECD.
regs_words() {
	ethtool -d "$NIC_A" raw on | od -An -tx4 -v -w4 | tr -d ' '
}
LEDCTL_WORD=$((22 + 17 * 16))
# shellcheck disable=SC2034 # for the scripts that source this one
EECD_WORD=$((LEDCTL_WORD + 1))

# regs_word N: word N (from 0) of the dump.
regs_word() {
	regs_words | sed -n "$(($1 + 1))p"
}

# dca_txctrl Q W: word W of queue Q's block (15: DCA_TXCTRL, 8: the
# DCA_RXCTRL shadow, 6: SRRCTL, 16: EITR).
dca_txctrl() {
	regs_word $((22 + 17 * $1 + $2))
}

# kernel_lacks FEATURE: ronic was built for this kernel without FEATURE
# (a RONIC_HAVE_* probe of scripts/gen-compat.sh that found nothing;
# tests/t-oldkernel.sh hands the list in as RONIC_KERNEL_LACKS). A check of
# such a feature is a skip: skip_lacking says so.
kernel_lacks() {
	[[ " ${RONIC_KERNEL_LACKS:-} " == *" $1 "* ]]
}

# skip_lacking FEATURE NAME: true (and a SKIP line for check NAME) when
# the kernel lacks FEATURE.
skip_lacking() {
	kernel_lacks "$1" || return 1
	skip "$2" "kernel $(uname -r) has no $1"
}

# expect_reports COUNT REGEX: this boot's kernel log will have exactly
# COUNT report lines matching REGEX, provoked on purpose; scripts/vm.sh
# excuses those and fails the boot on any other count.
expect_reports() {
	printf '%s\t%s\n' "$1" "$2" >> "$RONIC_RESULTS/expected-reports"
}

# dmesg_lines: how many lines the kernel log has now (for kernel_reports).
dmesg_lines() {
	dmesg --color=never | wc -l
}

# kernel_reports N: the report lines (scripts/kernel-reports.sh) the kernel
# log gained after its first N lines; status 1 if there are none.
kernel_reports() {
	dmesg --color=never | tail -n +$(($1 + 1)) | grep -aE "$RONIC_REPORT_RE" |
		grep -avE "$RONIC_BENIGN_RE"
}

# wait_until SECONDS CMD [ARGS...]: poll every 0.2 s; status of the last try.
wait_until() {
	local deadline=$((SECONDS + $1))
	shift
	while ! "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.2
	done
}

# in_ns NS CMD...: NS "root" (or "") is the root namespace.
in_ns() {
	local ns=$1
	shift
	if [ -z "$ns" ] || [ "$ns" = root ]; then
		"$@"
	else
		ip netns exec "$ns" "$@"
	fi
}

# ------------------------------------------------------------ devices

# The two NICs' BDFs, sorted, one a line.
nic_bdfs() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = "0x${NIC_PCI_ID%:*}" ] &&
			[ "$(cat "$d/device")" = "0x${NIC_PCI_ID#*:}" ] &&
			basename "$d"
	done | sort
}

# ring_size DEV RX|TX: DEV's current rx or tx ring size (ethtool -g).
ring_size() {
	ethtool -g "$1" | awk -v k="$2:" '/^Current/ { c = 1 } c && $1 == k { print $2; exit }'
}

# nic_driver BDF: the bound driver's name, empty when unbound.
nic_driver() {
	local l=/sys/bus/pci/devices/$1/driver
	local t
	if t=$(readlink "$l"); then
		echo "${t##*/}"
	fi
}

# nic_netdev BDF: its netdev, if in the current netns.
nic_netdev() {
	local n
	for n in /sys/bus/pci/devices/"$1"/net/*; do
		[ -e "$n" ] && echo "${n##*/}" && return 0
	done
	return 1
}

# The repo's module, installed and indexed? vm.sh normally did both (with
# depmod on the host); otherwise install it here (a slow depmod under TCG).
ronic_install() {
	local kmods
	kmods=/lib/modules/$(uname -r)
	if modinfo -n ronic > /dev/null 2>&1; then
		return 0
	fi
	if [ ! -f "$RONIC_TOP/ronic.ko" ]; then
		log "no $RONIC_TOP/ronic.ko: build it for $(uname -r) first"
		return 1
	fi
	log "installing $RONIC_TOP/ronic.ko and running depmod (slow)"
	mkdir -p "$kmods/updates"
	cp "$RONIC_TOP/ronic.ko" "$kmods/updates/"
	depmod -a
}

# load_driver DRIVER: modprobe it unless loaded (ronic: installed first).
load_driver() {
	[ ! -d "/sys/module/$1/drivers" ] || return 0
	if [ "$1" = ronic ]; then
		ronic_install || return 1
	fi
	modprobe "$1"
}

# unload_driver DRIVER [TIMEOUT]: rmmod with a time limit; then it must be
# gone from /sys/module.
unload_driver() {
	[ -d "/sys/module/$1" ] || return 0
	timeout "${2:-60}" rmmod "$1" || {
		log "rmmod $1 failed or hung"
		return 1
	}
	wait_until 5 test ! -d "/sys/module/$1"
}

# set_override BDF DRIVER: only DRIVER may bind the device ("" clears).
set_override() {
	echo "$2" > "/sys/bus/pci/devices/$1/driver_override"
}

# unbind_nic BDF
unbind_nic() {
	local dev=/sys/bus/pci/devices/$1
	if [ -e "$dev/driver" ]; then
		echo "$1" > "$dev/driver/unbind"
	fi
}

# device_sleep BDF: the device through what system sleep does to it, and
# back (the test module tests/modules/ronic_sleep.c: its driver's
# suspend, D3hot, D0, its driver's resume), as the bed's guest cannot
# suspend. The module is in the results share (tests/lib.sh's
# with_test_modules) or, in the debug kernel, among the modules vm.sh
# staged (tests/run-debug.sh).
device_sleep() {
	if [ -f "$RONIC_RESULTS/ronic_sleep.ko" ]; then
		insmod "$RONIC_RESULTS/ronic_sleep.ko" dev="$1" || return 1
	else
		modprobe ronic_sleep dev="$1" || return 1
	fi
	rmmod ronic_sleep
}

# bind_nic BDF DRIVER: bind the NIC to DRIVER (ronic or igb), wait for its
# netdev and print the netdev's name.
bind_nic() {
	local bdf=$1 drv=$2 dev=/sys/bus/pci/devices/$1 cur
	set_override "$bdf" "$drv" || return 1
	cur=$(nic_driver "$bdf")
	if [ -n "$cur" ] && [ "$cur" != "$drv" ]; then
		unbind_nic "$bdf" || return 1
	fi
	load_driver "$drv" || return 1
	if [ "$(nic_driver "$bdf")" != "$drv" ]; then
		echo "$bdf" > /sys/bus/pci/drivers_probe 2>/dev/null || true
	fi
	if [ "$(nic_driver "$bdf")" != "$drv" ]; then
		log "$bdf: $drv did not bind (driver: $(nic_driver "$bdf"))"
		return 1
	fi
	if ! wait_until 20 nic_netdev "$bdf" > /dev/null; then
		log "$bdf: no netdev 20 s after binding $drv"
		return 1
	fi
	nic_netdev "$bdf"
}

# has_carrier NS DEV
has_carrier() {
	local c
	if [ -z "$1" ] || [ "$1" = root ]; then
		# sysfs's carrier reads as LOWER_UP does (1 if running with carrier,
		# an error when down), without a fork.
		{ read -r c < "/sys/class/net/$2/carrier"; } 2>/dev/null && [ "$c" = 1 ]
		return
	fi
	ip -n "$1" -o link show dev "$2" 2>/dev/null | grep -q LOWER_UP
}

# lacks_carrier NS DEV
lacks_carrier() {
	! has_carrier "$@"
}

# link_info NS DEV: one line for logs.
link_info() {
	ip ${1:+-n "$1"} -o link show dev "$2" 2>&1 | cut -c1-160
}

# xdp_progs: how many XDP programs the system holds (bpftool's "ID: TYPE
# name ..." lines); one left after a detach or an unplug is a leak.
xdp_progs() {
	bpftool prog show 2>/dev/null | grep -c '^[0-9]*: xdp '
}

# ------------------------------------------------------------ the pair

# pair_up DRV_A DRV_B: bind, address and raise both NICs, wait (bounded)
# for carrier and for IPv4 and IPv6 pings to go through. Sets BDF_A, BDF_B,
# NIC_A, NIC_B, DRV_A, DRV_B. Returns non-zero (and says why) on failure.
pair_up() {
	local bdfs
	DRV_A=$1 DRV_B=$2
	pair_down
	mapfile -t bdfs < <(nic_bdfs)
	if [ "${#bdfs[@]}" -ne 2 ]; then
		log "expected two $NIC_PCI_ID NICs, found ${#bdfs[@]}"
		return 1
	fi
	BDF_A=${bdfs[0]} BDF_B=${bdfs[1]}
	# Both overrides first: a modprobe binds every device it may.
	set_override "$BDF_A" "$DRV_A"
	set_override "$BDF_B" "$DRV_B"
	NIC_A=$(bind_nic "$BDF_A" "$DRV_A") || return 1
	NIC_B=$(bind_nic "$BDF_B" "$DRV_B") || return 1
	# A port that stayed bound may still hold the addresses an earlier
	# script gave it (pair_down there knew its name; this shell may not).
	ip addr flush dev "$NIC_A"
	ip addr flush dev "$NIC_B"

	ip netns add "$PEER_NS" || return 1
	ip -n "$PEER_NS" link set lo up
	ip link set dev "$NIC_B" netns "$PEER_NS" || return 1

	ip addr add "$ADDR_A4/$PREFIX4" dev "$NIC_A" &&
	ip addr add "$ADDR_A6/$PREFIX6" dev "$NIC_A" nodad &&
	ip link set dev "$NIC_A" up &&
	ip -n "$PEER_NS" addr add "$ADDR_B4/$PREFIX4" dev "$NIC_B" &&
	ip -n "$PEER_NS" addr add "$ADDR_B6/$PREFIX6" dev "$NIC_B" nodad &&
	ip -n "$PEER_NS" link set dev "$NIC_B" up || return 1

	if ! wait_until 20 has_carrier "" "$NIC_A" ||
	   ! wait_until 20 has_carrier "$PEER_NS" "$NIC_B"; then
		log "no carrier: $(link_info "" "$NIC_A") / $(link_info "$PEER_NS" "$NIC_B")"
		return 1
	fi
	if ! wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4" > /dev/null ||
	   ! wait_until 20 ping -q -6 -c 1 -W 1 "$ADDR_B6" > /dev/null; then
		log "no ping through $NIC_A ($DRV_A) -> $NIC_B ($DRV_B)"
		return 1
	fi
	log "pair up: $NIC_A ($BDF_A, $DRV_A) <-> $NIC_B ($BDF_B, $DRV_B, netns $PEER_NS)"
}

# pair_down: end the peer namespace's processes, move its devices back,
# delete it, clear NIC A's addresses.
pair_down() {
	local p dev
	if ip netns list 2>/dev/null | grep -qw "$PEER_NS"; then
		for p in $(ip netns pids "$PEER_NS" 2>/dev/null); do
			kill "$p" 2>/dev/null
		done
		wait_until 5 test -z "$(ip netns pids "$PEER_NS" 2>/dev/null)" ||
			for p in $(ip netns pids "$PEER_NS" 2>/dev/null); do
				kill -9 "$p" 2>/dev/null
			done
		for dev in $(ip -n "$PEER_NS" -o link show 2>/dev/null |
			     awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
			[ "$dev" = lo ] && continue
			ip -n "$PEER_NS" link set dev "$dev" down 2>/dev/null
			ip -n "$PEER_NS" link set dev "$dev" netns 1 ||
				log "cannot move $dev back from $PEER_NS"
		done
		ip netns del "$PEER_NS"
	fi
	for dev in ${NIC_A:+"$NIC_A"} ${NIC_B:+"$NIC_B"}; do
		if ip link show dev "$dev" > /dev/null 2>&1; then
			ip addr flush dev "$dev"
			ip link set dev "$dev" down
		fi
	done
	return 0
}

# ------------------------------------------------------------ traffic

# ping_count FROM_NS DEST COUNT [-6]: prints how many replies came back.
ping_count() {
	local ns=$1 dest=$2 count=$3 out
	shift 3
	out=$(in_ns "$ns" ping -q "$@" -c "$count" -i 0.1 -W 2 "$dest" 2>&1)
	echo "$out" | sed -En 's/.* ([0-9]+) (packets )?received.*/\1/p' | head -1
}

# ping_check NAME FROM_NS DEST [COUNT] [-6]: PASS when every ping came
# back.
ping_check() {
	local name=$1 ns=$2 dest=$3 count=${4:-20} got
	shift 3
	[ $# -eq 0 ] || shift
	got=$(ping_count "$ns" "$dest" "$count" "$@")
	if [ "${got:-0}" -eq "$count" ]; then
		pass "$name"
	else
		fail "$name" "${got:-0}/$count replies"
		return 1
	fi
}

# works: port A has carrier and pings the peer, each within 20 s.
works() {
	wait_until 20 has_carrier "" "$NIC_A" &&
		wait_until 20 ping -q -c 1 -W 1 "$ADDR_B4" > /dev/null
}

# static_neighbours: both ends know each other's MAC for good. A program
# that drops everything drops ARP too, and a peer whose entry for A went
# FAILED would send only ARP requests in the cases after it.
static_neighbours() {
	local mac_a mac_b
	mac_a=$(cat "/sys/class/net/$NIC_A/address")
	mac_b=$(ip netns exec "$PEER_NS" cat "/sys/class/net/$NIC_B/address")
	ip -n "$PEER_NS" neigh replace "$ADDR_A4" lladdr "$mac_a" dev "$NIC_B" nud permanent
	ip neigh replace "$ADDR_B4" lladdr "$mac_b" dev "$NIC_A" nud permanent
}

# stat_of NAME: port A's ethtool -S counter NAME.
stat_of() {
	ethtool -S "$NIC_A" | awk -v k="$1:" '$1 == k { print $2 }'
}

# stat_sum REGEX: port A's ethtool -S counters whose name matches REGEX
# (anchored), added up.
stat_sum() {
	ethtool -S "$NIC_A" |
		awk -v re="^($1):\$" '$1 ~ re { s += $2 } END { printf "%.0f\n", s }'
}

# txq_sum NAME: port A's txN_NAME counters of every tx queue, added up.
txq_sum() {
	stat_sum "tx[0-9]+_$1"
}

# rx_queue_packets: port A's received frames per queue, one a line (ronic's
# rxN_packets, igb's rx_queue_N_packets).
rx_queue_packets() {
	ethtool -S "$NIC_A" | awk '$1 ~ /^rx(_queue_)?[0-9]+_packets:$/ { print $2 }'
}

# rx_queues_used MIN CMD [ARGS...]: run the command (traffic to port A),
# then print how many of A's rx queues received at least MIN frames during
# it, and which: "N q0 q3 ...".
rx_queues_used() {
	local min=$1 i used=0 which=''
	local -a q0 q1
	shift
	mapfile -t q0 < <(rx_queue_packets)
	"$@" > /dev/null
	mapfile -t q1 < <(rx_queue_packets)
	for i in "${!q0[@]}"; do
		if [ $((q1[i] - q0[i])) -ge "$min" ]; then
			used=$((used + 1))
			which+=" q$i"
		fi
	done
	echo "$used$which"
}

# iperf_tcp FROM_NS TO_NS SECONDS [EXTRA IPERF3 CLIENT ARGS...]: TCP from
# FROM to TO (namespace "root" or "peer"; the server runs in TO) for
# SECONDS; prints the receiver's end.sum_received.bits_per_second in
# Mbit/s (one decimal; with --bidir, the two directions added up).
# Non-zero status if the run failed.
IPERF_PORT=5201
iperf_tcp() {
	local from=$1 to=$2 secs=$3 addr spid json mbps rc=0
	shift 3
	if [ "$to" = "$PEER_NS" ]; then addr=$ADDR_B4; else addr=$ADDR_A4; fi
	json=/tmp/iperf3-$$.json
	in_ns "$to" iperf3 -s -1 -B "$addr" -p "$IPERF_PORT" \
		> /tmp/iperf3-server.log 2>&1 &
	spid=$!
	if ! wait_until 10 iperf_listening "$to"; then
		log "iperf3 server did not start: $(cat /tmp/iperf3-server.log)"
		kill "$spid" 2>/dev/null
		return 1
	fi
	local pre=()
	[ "$from" = root ] || pre=(ip netns exec "$from")
	timeout $((secs + 30)) "${pre[@]}" iperf3 -c "$addr" -p "$IPERF_PORT" \
		-t "$secs" -J --connect-timeout 5000 "$@" > "$json" 2>&1 || rc=$?
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	# --bidir: both directions added up.
	mbps=$(jq -r '((.end.sum_received.bits_per_second // 0) +
		(.end.sum_received_bidir_reverse.bits_per_second // 0)) / 1e6 * 10 | floor / 10' \
		"$json" 2>/dev/null)
	if [ "$rc" -ne 0 ] || [ -z "$mbps" ] || [ "$mbps" = 0 ]; then
		log "iperf3 $from -> $to failed (rc $rc): $(jq -r '.error // empty' "$json" 2>/dev/null | head -1)"
		echo "${mbps:-0}"
		return 1
	fi
	echo "$mbps"
}

# sha_file FILE MB: MB MiB of random bytes in FILE, and FILE.sha256
# beside it (what sha_send compares against).
sha_file() {
	head -c "$2M" /dev/urandom > "$1"
	sha256sum "$1" > "$1.sha256"
}

# sha_send FILE PORT [SECS [TIMES]]: FILE (TIMES times over, 1) from A to
# B and from B to A at once over TCP (socat, ports PORT and PORT+1), each
# direction given SECS (300); both receivers hash what arrived.
# FILE.sha256 holds sha256sum's line for the file (for TIMES > 1 the sum
# of the repeated stream is computed here). Status 0 when both hashes
# match.
sha_send() {
	local file=$1 port=$2 secs=${3:-300} times=${4:-1} want ab ba pids=()
	local src=("FILE:$file")
	want=$(cut -d' ' -f1 "$file.sha256")
	if [ "$times" -gt 1 ]; then
		want=$(for _ in $(seq "$times"); do cat "$file"; done | sha256sum | cut -d' ' -f1)
		src=(SYSTEM:"for i in \$(seq $times); do cat $file; done")
	fi
	rm -f /tmp/rx-ab.sha /tmp/rx-ba.sha
	in_ns "$PEER_NS" sh -c "timeout $((secs + 10)) socat -u TCP-LISTEN:$port,bind=$ADDR_B4,reuseaddr - |
		sha256sum > /tmp/rx-ab.sha" &
	pids+=($!)
	sh -c "timeout $((secs + 10)) socat -u TCP-LISTEN:$((port + 1)),bind=$ADDR_A4,reuseaddr - |
		sha256sum > /tmp/rx-ba.sha" &
	pids+=($!)
	wait_until 10 sh -c "ip netns exec $PEER_NS ss -Hltn 'sport = :$port' | grep -q . &&
		ss -Hltn 'sport = :$((port + 1))' | grep -q ."
	timeout "$secs" socat -u "${src[@]}" "TCP:$ADDR_B4:$port,connect-timeout=10" &
	pids+=($!)
	in_ns "$PEER_NS" timeout "$secs" socat -u "${src[@]}" \
		"TCP:$ADDR_A4:$((port + 1)),connect-timeout=10"
	wait "${pids[@]}"
	ab=$(cut -d' ' -f1 /tmp/rx-ab.sha 2>/dev/null)
	ba=$(cut -d' ' -f1 /tmp/rx-ba.sha 2>/dev/null)
	[ "$ab" = "$want" ] && [ "$ba" = "$want" ] && return 0
	log "sha256 mismatch: file $want, A->B ${ab:-none}, B->A ${ba:-none}"
	return 1
}

# iperf_listening NS [PORT]: an iperf3 server listens in NS on PORT
# ($IPERF_PORT); wait for it (wait_until) before starting a client.
iperf_listening() {
	in_ns "$1" ss -Hltn "sport = :${2:-$IPERF_PORT}" 2>/dev/null | grep -q .
}

# ------------------------------------------------------------ pktgen

PKTGEN_BURST=16

# pktgen_start NS DEV DST_IP DST_MAC [QUEUE [DELAY_NS [FLOWS]]]: 64-byte UDP
# frames (60 on the wire before the FCS) to port 9 from DEV in netns NS (""
# for the root netns), from the namespace's kpktgend_0, on tx queue QUEUE
# only if given ("" for any), in bursts of PKTGEN_BURST frames, a burst
# each DELAY_NS if given, else as fast as it goes, from FLOWS source
# ports in turn if given (else one), until
# pktgen_stop NS. pktgen bypasses the qdisc, so a stopped queue stays
# stopped under it. PKTGEN_SIZE (default 60) sets another frame size.
pktgen_start() {
	local ns=$1 dev=$2 ip=$3 mac=$4 queue=${5:-} delay=${6:-0} flows=${7:-}
	local cmds="pg kpktgend_0 rem_device_all; pg kpktgend_0 'add_device $dev'"
	local kv
	modprobe pktgen || return 1
	for kv in 'count 0' "pkt_size ${PKTGEN_SIZE:-60}" 'clone_skb 64' "burst $PKTGEN_BURST" "delay $delay" \
		"dst $ip" "dst_mac $mac" 'udp_dst_min 9' 'udp_dst_max 9' \
		${queue:+"queue_map_min $queue" "queue_map_max $queue"} \
		${flows:+'udp_src_min 1024' "udp_src_max $((1023 + flows))"}; do
		cmds="$cmds; pg $dev '$kv'"
	done
	in_ns "$ns" bash -c "pg() { echo \"\$2\" > /proc/net/pktgen/\$1; }
		$cmds; pg pgctrl start" > "/tmp/pktgen-${ns:-root}.log" 2>&1 &
	PKTGEN_PID=$!
}

# pktgen_peer_to_a DELAY_NS: pktgen_start from the peer's port to A (one
# frame each DELAY_NS, 0 for as fast as it goes), stopped with
# pktgen_stop "$PEER_NS".
pktgen_peer_to_a() {
	pktgen_start "$PEER_NS" "$NIC_B" "$ADDR_A4" "$(cat "/sys/class/net/$NIC_A/address")" "" "$1"
}

# pktgen_stop NS
pktgen_stop() {
	in_ns "$1" bash -c 'echo stop > /proc/net/pktgen/pgctrl' 2>/dev/null
	wait "$PKTGEN_PID" 2>/dev/null
}

# ------------------------------------------------------------ DMA maps

# dma_maps_start: count streaming DMA map calls per device from now on:
# kprobes on dma_map_page_attrs (dma_map_single and page_pool land there
# too), dma_map_sg_attrs, dma_map_sgtable and dma_map_resource, each with
# a histogram keyed by the device's
# name (the first field of struct device is its kobject, whose first is
# the name). dma_maps BDF prints the calls counted for BDF so far.
# Every exported streaming-map entry point is probed (the first argument
# is the device in each), so a driver that moves to another of them
# cannot read as making no maps: dma_map_sgtable and dma_map_resource do
# not go through the other two.
DMA_MAP_EVENTS="map_page map_sg map_sgtable map_resource"
dma_maps_start() {
	local t=/sys/kernel/tracing e
	echo 'p:ronic_dma/map_page dma_map_page_attrs dev=+0(+0(%di)):string' >> $t/kprobe_events &&
		echo 'p:ronic_dma/map_sg dma_map_sg_attrs dev=+0(+0(%di)):string' >> $t/kprobe_events &&
		echo 'p:ronic_dma/map_sgtable dma_map_sgtable dev=+0(+0(%di)):string' >> $t/kprobe_events &&
		echo 'p:ronic_dma/map_resource dma_map_resource dev=+0(+0(%di)):string' >> $t/kprobe_events ||
		return 1
	for e in $DMA_MAP_EVENTS; do
		echo 'hist:keys=dev' > "$t/events/ronic_dma/$e/trigger" || return 1
	done
}

dma_maps() {
	local e n=0 c
	for e in $DMA_MAP_EVENTS; do
		c=$(awk -v d="$1" '$2 == "dev:" && $3 == d { for (i = 4; i <= NF; i++) if ($i == "hitcount:") print $(i + 1) }' \
			"/sys/kernel/tracing/events/ronic_dma/$e/hist")
		n=$((n + ${c:-0}))
	done
	echo "$n"
}

# tcp_map_rate LABEL STAT FROM TO SECS: a TCP stream FROM -> TO (iperf_tcp);
# prints port A's DMA maps per frame of its counter STAT (rx_packets or
# tx_packets) over it, and logs the counts under LABEL.
tcp_map_rate() {
	local label=$1 stat=/sys/class/net/$NIC_A/statistics/$2 m0 p0 m1 p1
	m0=$(dma_maps "$BDF_A") p0=$(cat "$stat")
	iperf_tcp "$3" "$4" "$5" > /dev/null || return 1
	m1=$(dma_maps "$BDF_A") p1=$(cat "$stat")
	log "$label: $((m1 - m0)) maps for $((p1 - p0)) frames"
	awk -v m=$((m1 - m0)) -v p=$((p1 - p0)) 'BEGIN { printf "%.3f", p ? m / p : 99 }'
}

# dma_map_rates DRIVER SECS [PARTS]: DRIVER on port A against igb, SECS of
# each part of PARTS ("rx tx srx" if not given): rx, a TCP stream B -> A;
# ttx, a TCP stream A -> B; tx, pktgen's 60-byte frames from A; srx, the
# same frames from B. Sets RX_RATE, TCP_TX_RATE and TX_RATE (A's DMA maps
# per frame received, per TCP frame sent (TSO frames counted as the
# frames on the wire, the ACKs coming in included) and per small frame
# sent, 3 places; dma_maps_start first), TX_PPS (small frames A sent a
# second) and RX_PPS (small frames from B that reached A's UDP stack a
# second, as UdpNoPorts); a part not run leaves its results empty. The
# pktgen parts count from one second after the start, past its set-up.
# shellcheck disable=SC2034 # RX_RATE and the others are the results
dma_map_rates() {
	local drv=$1 secs=$2 parts=" ${3:-rx tx srx} " m p mac
	RX_RATE='' TCP_TX_RATE='' TX_RATE='' TX_PPS='' RX_PPS=''
	pair_up "$drv" igb || return 1
	if [[ $parts == *" rx "* ]]; then
		RX_RATE=$(tcp_map_rate "$drv rx" rx_packets "$PEER_NS" root "$secs") || return 1
	fi
	if [[ $parts == *" ttx "* ]]; then
		TCP_TX_RATE=$(tcp_map_rate "$drv TCP tx" tx_packets root "$PEER_NS" "$secs") || return 1
	fi
	if [[ $parts == *" tx "* ]]; then
		mac=$(in_ns "$PEER_NS" cat "/sys/class/net/$NIC_B/address")
		# pktgen's thread (kpktgend_0) and port A's interrupts on CPU 0,
		# the peer's on CPU 1: otherwise the peer's RSS puts its receive
		# work beside pktgen in some boots and not in others, and the
		# rate of the port under test swings with it.
		pin_irqs "$BDF_A" 0
		pin_irqs "$BDF_B" 1
		pktgen_start "" "$NIC_A" "$ADDR_B4" "$mac"
		pktgen_window "$secs" a_maps_and_tx_packets
		pktgen_stop ""
		pin_irqs "$BDF_A" all
		pin_irqs "$BDF_B" all
		m=${WINDOW_DELTAS[0]} p=${WINDOW_DELTAS[1]}
		TX_RATE=$(awk -v m="$m" -v p="$p" 'BEGIN { printf "%.3f", p ? m / p : 99 }')
		TX_PPS=$((p * 1000000000 / WINDOW_NS))
		log "$drv small tx: $m maps for $p frames, $TX_PPS a second"
	fi
	if [[ $parts == *" srx "* ]]; then
		pktgen_peer_to_a 0
		pktgen_window "$secs" udp_noports
		pktgen_stop "$PEER_NS"
		p=${WINDOW_DELTAS[0]}
		RX_PPS=$((p * 1000000000 / WINDOW_NS))
		log "$drv small rx: $p frames to the UDP stack, $RX_PPS a second"
	fi
	pair_down
}

# pin_irqs BDF CPU: every MSI-X interrupt of PCI function BDF to CPU
# ("all": every CPU again). Nothing on a one-CPU guest.
pin_irqs() {
	local cpus=$2 irq
	[ "$(nproc)" -ge 2 ] || return 0
	[ "$cpus" = all ] && cpus=0-$(($(nproc) - 1))
	for irq in /sys/bus/pci/devices/"$1"/msi_irqs/*; do
		[ -e "$irq" ] || continue
		echo "$cpus" > "/proc/irq/${irq##*/}/smp_affinity_list" 2>/dev/null ||
			log "pin_irqs: IRQ ${irq##*/} of $1 stays where it is"
	done
}

# pktgen_window SECS COUNTERS: pktgen running, COUNTERS (a command
# printing counters on one line) read one second after its start (past
# its set-up) and SECS later; sets WINDOW_DELTAS (each counter's growth)
# and WINDOW_NS (the nanoseconds between the two readings).
pktgen_window() {
	local w_before w_after t0 t1 i
	sleep 1
	read -ra w_before < <("$2")
	t0=$(date +%s%N)
	sleep "$1"
	read -ra w_after < <("$2")
	t1=$(date +%s%N)
	WINDOW_DELTAS=()
	for i in "${!w_before[@]}"; do
		WINDOW_DELTAS+=($((w_after[i] - w_before[i])))
	done
	WINDOW_NS=$((t1 - t0))
}

a_maps_and_tx_packets() {
	echo "$(dma_maps "$BDF_A") $(cat "/sys/class/net/$NIC_A/statistics/tx_packets")"
}

# udp_noports: UDP datagrams the stack received for a closed port so far
# (pktgen's frames to port 9).
udp_noports() {
	awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "NoPorts") c = i; h = 1 }
		else { print $c; exit } }' /proc/net/snmp
}

dma_maps_stop() {
	local t=/sys/kernel/tracing e
	for e in $DMA_MAP_EVENTS; do
		echo '!hist:keys=dev' > "$t/events/ronic_dma/$e/trigger" 2>/dev/null
		echo "-:ronic_dma/$e" >> $t/kprobe_events 2>/dev/null
	done
}

# ------------------------------------------------------------ the host

# host_request KIND SECS WHAT...: hand WHAT to vm.sh, which serves
# $RONIC_RESULTS/KIND/N.req with N.resp; print the response. Status 1
# (logged) if none came within SECS.
host_request() {
	local dir=$RONIC_RESULTS/$1 secs=$2 id
	shift 2
	id=$(date +%s%N)
	mkdir -p "$dir"
	echo "$*" > "$dir/$id.tmp" && mv "$dir/$id.tmp" "$dir/$id.req"
	if ! wait_until "$secs" test -e "$dir/$id.resp"; then
		log "no answer from the host ($(basename "$dir")) to: $*"
		rm -f "$dir/$id.req"
		return 1
	fi
	cat "$dir/$id.resp"
	rm -f "$dir/$id.resp"
}

# vm_hmp CMD...: run a QEMU monitor (HMP) command on the host side (vm.sh
# serves the requests) and print its output. E.g. vm_hmp set_link nic1 off
vm_hmp() {
	host_request hmp 20 "$@" | grep -v "^$*\$"
}

# vm_inject ARGS...: raw frames onto the wire from the host
# (scripts/inject-frames.py ARGS, the VM booted with vm.sh --injector);
# prints its output ("KIND COUNT" lines, "FAILED" last on an error).
vm_inject() {
	local out
	out=$(host_request inject 120 "$@") || return 1
	echo "$out"
	[ "$(tail -1 <<< "$out")" != FAILED ]
}

# insn_snap: "TOTAL IN_RANGE", the guest instructions executed so far, in
# all and inside the range insn_range set (vm.sh --insn-count).
insn_snap() {
	host_request insn 20 snap | awk '$1 == "snap" { print $2, $3 }'
}

# insn_profile_reset: zero the counting plugin's profile (vm.sh
# --insn-count): instructions by block of the guest kernel.
insn_profile_reset() {
	host_request insn 20 profile-reset | grep -q '^profile-reset'
}

# insn_profile NAME [TOP]: the profile since insn_profile_reset, kept as
# $RONIC_RESULTS/insn/NAME ("VADDR INSNS" a block), printed as the TOP (25)
# functions of the kernel and its modules by instructions executed:
# "INSNS FUNCTION [MODULE]" (a block counts in the last symbol at or
# before its start, from /proc/kallsyms).
insn_profile() {
	local file=$RONIC_RESULTS/insn/$1
	host_request insn 60 profile "$1" | grep -q '^profile [0-9]' || return 1
	{
		awk '$2 ~ /^[tT]$/ { print $1, "S", $3 ($4 == "" ? "" : " " $4) }' /proc/kallsyms
		awk '{ printf "%016s P %s\n", $1, $2 }' "$file"
	} | sort -k1,1 -k2,2r |
		awk '$2 == "S" { sym = $3 ($4 == "" ? "" : " " $4); next }
		     { sum[sym] += $3 }
		     END { for (f in sum) print sum[f], f }' |
		sort -rn | head -"${2:-25}"
}

# insn_range MODULE: count inside MODULE's .text from now on (its address
# from sysfs, its size from the .ko).
insn_range() {
	local lo size ko
	read -r lo < "/sys/module/$1/sections/.text" || return 1
	ko=$(modinfo -n "$1") || return 1
	# Debian's own modules are compressed.
	case $ko in
	*.xz) xz -dc "$ko" > /tmp/insn-range.ko && ko=/tmp/insn-range.ko ;;
	*.zst) zstd -qdc "$ko" > /tmp/insn-range.ko && ko=/tmp/insn-range.ko ;;
	esac
	size=$(readelf -SW "$ko" |
		sed -n 's/.*\] \.text  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
	[ -n "$size" ] || return 1
	host_request insn 60 range "${lo#0x}" "$(printf '%x' $((lo + 0x$size)))" | grep -q '^range '
}

# ------------------------------------------------------------ numbers

# median N...: of integers or decimals.
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2];
		      else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# best N...
best() {
	printf '%s\n' "$@" | sort -g | tail -1
}

# mean N...
mean() {
	printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.1f", (NR ? s / NR : 0) }'
}
