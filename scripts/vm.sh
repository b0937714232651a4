#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the test bed guest under TCG and run one guest script in it.
#
#   scripts/vm.sh [--smp N] [--mem MB] [--iommu] [--results DIR]
#                 [--timeout SEC] [--idle-timeout SEC] [--boot-timeout SEC]
#                 [--stop-on-hung-task] [--injector] [--insn-count] [--name NAME]
#                 [--kernel BZIMAGE --kver VER] [--append KERNEL_ARGS]
#                 [--module FILE.ko]... -- GUEST_SCRIPT [ARGS...]
#
# The guest: q35, two igb NICs (8086:10c9), each behind its own PCIe root
# port, both on one QEMU hub (a private wire, nic0 and nic1); the host root
# over 9p read-only under an in-memory overlay (the guest may write
# anywhere, nothing reaches the host); the results folder over a second,
# writable 9p share mounted on /results. The guest script runs as root with
# the variables RONIC_* of this environment (RONIC_TOP is the repo) and
# RONIC_RESULTS=/results. Out-of-tree modules (<repo>/ronic.ko when it was
# built for the guest kernel, and every --module) are installed in the
# guest's /lib/modules/<kver>/updates before the script starts, so that
# modprobe finds them; depmod runs here on the host (in the guest, under
# TCG, it takes two minutes) and its output is cached. The guest script's
# output is copied to this script's output as it comes.
#
# Results folder (default <repo>/results/<name>-<timestamp>): console.txt
# (serial console, kernel log), output.txt (the guest script's output),
# dmesg.txt, rc (the guest script's exit status), qemu.log, monitor.sock
# (HMP) and qmp.sock (QMP) while QEMU runs. A guest script can run monitor
# commands itself (set_link nic0 off, ...): see vm_hmp in
# scripts/guest/lib.sh. --insn-count loads the instruction-counting plugin
# (scripts/build-insn-plugin.sh), which the guest queries through its
# results share (insn_snap and insn_range in scripts/guest/lib.sh).
#
# Only one VM runs at a time, or one a test lane (RONIC_VM_LANE=N, which
# tests/run.sh sets): vm.sh waits for the lock $RONIC_VM_LOCK
# (/tmp/ronic-qemu.lock) that another holds; see the lock below.
#
# --timeout: the guest's whole run (default 900 s, 4 s more a vCPU), a
# hang catcher, not a budget: on a new machine the tests share the host's
# two cores with the debug kernel's build (tests/run.sh), which made a
# 290 s guest take over 308 s (the old default) once.
# --idle-timeout: a guest whose console and script output stay still that
# long has hung; it is stopped then rather than at --timeout, and the vCPUs'
# state (HMP info cpus) goes to hang-cpus.txt. --boot-timeout: the same for
# a guest whose script has printed nothing that long after the start (a
# boot stuck in RCU stall reports keeps the console growing).
# --stop-on-hung-task: the same as soon as the kernel reports a blocked
# task (a hung-task report every two minutes keeps the console growing too).
# --append: more kernel command-line arguments, after the bed's own.
# --injector: a third port on the hub, a QEMU dgram netdev on 127.0.0.1,
# into which scripts/inject-frames.py writes raw frames when the guest
# asks (vm_inject in scripts/guest/lib.sh: inject/N.req -> inject/N.resp).
#
# Exit status: the guest script's, or 124 if the guest did not finish in
# time or hung, or 125 if it did not finish otherwise (panic, early failure) or if
# the kernel log has a report (WARNING:, BUG:, Oops, KASAN, lockdep, ...);
# those cases also print a "FAIL: vm ..." line.
# QEMU's options have commas, not array separators:
# shellcheck disable=SC2054
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$top/scripts/kernel-version.sh"
# shellcheck source=scripts/bed-hang.sh
. "$top/scripts/bed-hang.sh"

usage() {
	sed -n 's/^#   //p' "${BASH_SOURCE[0]}" >&2
	exit 2
}

smp=2
mem=
iommu=
results=
timeout=
idle_timeout=
boot_timeout=
stop_on_hung=
injector=
insn_count=
kernel=
kver=
extra_cmdline=
name=
modules=()
while [ $# -gt 0 ]; do
	case "$1" in
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--iommu) iommu=1; shift ;;
	--results) results=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--idle-timeout) idle_timeout=$2; shift 2 ;;
	--boot-timeout) boot_timeout=$2; shift 2 ;;
	--stop-on-hung-task) stop_on_hung=1; shift ;;
	--injector) injector=1; shift ;;
	--insn-count) insn_count=1; shift ;;
	--kernel) kernel=$2; shift 2 ;;
	--kver) kver=$2; shift 2 ;;
	--append) extra_cmdline+=" $2"; shift 2 ;;
	--name) name=$2; shift 2 ;;
	--module) modules+=("$(realpath "$2")"); shift 2 ;;
	--) shift; break ;;
	-h|--help) usage ;;
	*) echo "vm.sh: unknown option $1" >&2; usage ;;
	esac
done
[ $# -ge 1 ] || usage
script=$(realpath "$1")
shift
[ -f "$script" ] || { echo "vm.sh: no guest script $script" >&2; exit 2; }

kver=${kver:-$(ronic_guest_kver)}
[ -n "$kver" ] || { echo "vm.sh: no guest kernel (run scripts/setup.sh)" >&2; exit 2; }
kernel=${kernel:-/boot/vmlinuz-$kver}
[ -r "$kernel" ] || { echo "vm.sh: cannot read kernel $kernel" >&2; exit 2; }
moddir=/lib/modules/$kver
[ -d "$moddir" ] || { echo "vm.sh: no $moddir for the guest" >&2; exit 2; }

# Memory and time grow with the vCPUs (per-CPU areas, a slow TCG boot).
mem=${mem:-$((1024 + smp * 32))}
timeout=${timeout:-$((900 + smp * 4))}
name=${name:-$(basename "$script" .sh)}
results=${results:-$top/results/$name-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$results"
results=$(realpath "$results")
rm -f "$results"/{console.txt,output.txt,dmesg.txt,rc,job.env,qemu.log,expected-reports,plan}
rm -rf "$results/hmp"
mkdir -p "$results/hmp"

# ---------------------------------------------------------------- initramfs
# Cached per kernel and per content of the init and module list; rebuilt
# when missing. Modules are stored uncompressed (busybox insmod).
# What the init needs, in load order; each module's dependencies (from
# modinfo: Debian's 6.1 has virtio and fscache as modules, 6.12 builds
# them in) go in before it.
initramfs_modules=(virtio_pci netfs 9pnet 9pnet_virtio 9p overlay)

cache=${RONIC_CACHE:-/var/cache/ronic}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/ronic
	mkdir -p "$cache"
fi
initrd_key=$( { cat "$top/scripts/guest/initramfs-init"
		echo "${initramfs_modules[*]}"
		stat -c '%s %Y' "$moddir/modules.dep" /bin/busybox; } |
	sha256sum | cut -c1-12)
initrd=$cache/initramfs-$kver-$initrd_key.cpio.gz

# initramfs_load_order MODULE...: the modules and their dependencies,
# each after what it depends on, each once.
initramfs_load_order() {
	local m dep
	for m in "$@"; do
		for dep in $(modinfo -k "$kver" -F depends "$m" 2>/dev/null | tr ',' ' '); do
			initramfs_load_order "$dep"
		done
		echo "$m"
	done | awk '!seen[$0]++'
}

build_initramfs() {
	local tmp m f rel builtin
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	mkdir -p "$tmp"/{bin,dev,proc,sys,modules,lower,rw,newroot}
	cp /bin/busybox "$tmp/bin/busybox"
	for f in $("$tmp/bin/busybox" --list); do
		[ -e "$tmp/bin/$f" ] || ln -s busybox "$tmp/bin/$f"
	done
	: > "$tmp/modules/order"
	for m in $(initramfs_load_order "${initramfs_modules[@]}"); do
		# modinfo knows built-ins too (filename "(builtin)").
		f=$(modinfo -k "$kver" -F filename "$m" 2>/dev/null | head -1)
		if [ -z "$f" ]; then
			echo "vm.sh: module $m not found for $kver" >&2
			return 1
		fi
		builtin=
		case "$f" in
		"(builtin)") builtin=1 ;;
		esac
		[ -z "$builtin" ] || continue
		rel=$tmp/modules/$m.ko
		case "$f" in
		*.ko.xz) xz -dc "$f" > "$rel" ;;
		*.ko.zst) zstd -qdc "$f" > "$rel" ;;
		*.ko.gz) gzip -dc "$f" > "$rel" ;;
		*.ko) cp "$f" "$rel" ;;
		*) echo "vm.sh: unknown module file $f" >&2; return 1 ;;
		esac
		echo "$m" >> "$tmp/modules/order"
	done
	install -m 0755 "$top/scripts/guest/initramfs-init" "$tmp/init"
	(cd "$tmp" && find . | sort | cpio -o -H newc --quiet) |
		gzip -1 > "$initrd.tmp.$$"
	mv "$initrd.tmp.$$" "$initrd"
}

if [ ! -s "$initrd" ]; then
	echo "vm.sh: building initramfs $initrd" >&2
	build_initramfs
fi

# ---------------------------------------------------------------- modules
# The repo's module joins in when it was built for this kernel.
if [ -f "$top/ronic.ko" ] &&
   [ "$(modinfo -F vermagic "$top/ronic.ko" 2>/dev/null | cut -d' ' -f1)" = "$kver" ]; then
	modules+=("$top/ronic.ko")
fi
modstage=
if [ ${#modules[@]} -gt 0 ]; then
	mod_key=$( { echo "$kver"; sha256sum "${modules[@]}"
		     stat -c '%s %Y' "$moddir/modules.order"; } |
		   sha256sum | cut -c1-12)
	modstage=$cache/modules-$kver-$mod_key
	# Another lane's vm.sh (tests/run.sh) may stage the same modules.
	exec 7> "$modstage.lock"
	flock 7
	if [ ! -f "$modstage/done" ]; then
		echo "vm.sh: depmod for ${modules[*]}" >&2
		rm -rf "$modstage"
		base=$modstage/lib/modules/$kver
		mkdir -p "$base/updates"
		# A symlink tree of the kernel's modules; the index inputs
		# copied, so depmod's outputs never land in the real tree.
		cp -as "$moddir/kernel" "$base/"
		for f in "$moddir"/modules.order "$moddir"/modules.builtin \
			 "$moddir"/modules.builtin.modinfo; do
			[ ! -e "$f" ] || cp "$f" "$base/"
		done
		cp "${modules[@]}" "$base/updates/"
		depmod -b "$modstage" "$kver"
		touch "$modstage/done"
	fi
	touch "$modstage"
	exec 7>&-
	# Stages of older builds go after a day (not at once: another VM may
	# be using one).
	find "$cache" -maxdepth 1 -name "modules-$kver-*" -mmin +1440 \
		-exec rm -rf {} + 2>/dev/null || true
fi

# ---------------------------------------------------------------- the job
{
	printf 'RONIC_GUEST_SCRIPT=%q\n' "$script"
	printf 'RONIC_GUEST_ARGS=('
	for a in "$@"; do printf ' %q' "$a"; done
	printf ' )\n'
	printf 'RONIC_GUEST_MODULES=%q\n' "${modstage:+$modstage/lib/modules/$kver}"
	# Every RONIC_* variable goes in, RONIC_TOP and the kernel at least.
	export RONIC_TOP=${RONIC_TOP:-$top} RONIC_KVER=$kver \
		RONIC_RESULTS=/results RONIC_VM_SMP=$smp \
		RONIC_VM_IOMMU=${iommu:-0}
	while IFS='=' read -r k _; do
		case "$k" in
		RONIC_GUEST_*|RONIC_INIT) ;;
		RONIC_*) printf 'export %s=%q\n' "$k" "${!k}" ;;
		esac
	done < <(env | grep -E '^RONIC_[A-Za-z0-9_]*=' | sort)
} > "$results/job.env"

# ---------------------------------------------------------------- QEMU
# Unix socket paths are limited to 107 bytes: use a short folder if needed
# and link it from the results.
sockdir=$results
if [ ${#results} -gt 90 ]; then
	sockdir=$(mktemp -d /tmp/ronic-vm.XXXXXX)
	ln -sfn "$sockdir/monitor.sock" "$results/monitor.sock"
	ln -sfn "$sockdir/qmp.sock" "$results/qmp.sock"
fi
rm -f "$sockdir/monitor.sock" "$sockdir/qmp.sock"

machine=q35
cmdline="console=ttyS0 panic=-1 mitigations=off nokaslr"
cmdline+=" RONIC_INIT=$top/scripts/guest/init.sh"
iommu_args=()
if [ -n "$iommu" ]; then
	machine+=",kernel-irqchip=split"
	iommu_args=(-device intel-iommu,intremap=on)
	cmdline+=" intel_iommu=on iommu.strict=1"
fi
cmdline+=$extra_cmdline

qemu_args=(
	-name ronic-testbed
	-nodefaults
	-machine "$machine"
	-accel tcg,thread=multi
	-cpu max
	-smp "$smp"
	-m "$mem"
	"${iommu_args[@]}"
	-kernel "$kernel"
	-initrd "$initrd"
	-append "$cmdline"
	-no-reboot
	-display none
	-monitor none
	-serial "file:$results/console.txt"
	-serial "file:$results/output.txt"
	-chardev "socket,id=hmp,path=$sockdir/monitor.sock,server=on,wait=off"
	-mon chardev=hmp,mode=readline
	-qmp "unix:$sockdir/qmp.sock,server=on,wait=off"
	-fsdev local,id=r,path=/,security_model=none,readonly=on,multidevs=remap
	-device virtio-9p-pci,fsdev=r,mount_tag=hostroot
	-fsdev "local,id=res,path=$results,security_model=none"
	-device virtio-9p-pci,fsdev=res,mount_tag=results
	-device virtio-rng-pci
)
for i in 0 1; do
	qemu_args+=(
		-device "pcie-root-port,id=rp$i,chassis=$((i + 1)),slot=$((i + 1))"
		-netdev "hubport,id=hp$i,hubid=0"
		-device "igb,id=nic$i,bus=rp$i,netdev=hp$i,mac=52:54:00:12:34:0$((i + 1))"
	)
done

if [ -n "$injector" ]; then
	# QEMU receives on this port; what the NICs send goes to the next one,
	# where nothing listens (an unconnected socket hears no ICMP errors).
	# Two VMs of two lanes (RONIC_VM_LANE, below) never share a port:
	# their ports differ in the lane bit when their PIDs agree.
	injector_port=$((20000 + 4 * ($$ % 5000) + 2 * ${RONIC_VM_LANE:-0}))
	qemu_args+=(
		-netdev "dgram,id=inj,local.type=inet,local.host=127.0.0.1,local.port=$injector_port,remote.type=inet,remote.host=127.0.0.1,remote.port=$((injector_port + 1))"
		-netdev "hubport,id=hpinj,hubid=0,netdev=inj"
	)
fi

if [ -n "$insn_count" ]; then
	plugin=$("$top/scripts/build-insn-plugin.sh") ||
		{ echo "vm.sh: the instruction-counting plugin did not build" >&2; exit 2; }
	rm -rf "$results/insn"
	mkdir -p "$results/insn"
	qemu_args+=(-plugin "$plugin,ctl=$results/insn")
fi

# One VM at a time on this machine (two cores), or one a lane: a VM of
# lane N (RONIC_VM_LANE, set by tests/run.sh for the tests that may share
# the host) holds the machine's lock shared and lane N's lock alone; any
# other VM (a benchmark, a test that runs alone) holds the machine's lock
# alone, so it waits for every lane and every lane waits for it.
lock=${RONIC_VM_LOCK:-/tmp/ronic-qemu.lock}
exec 9>> "$lock"
if [ -n "${RONIC_VM_LANE:-}" ]; then
	exec 6>> "$lock.lane$RONIC_VM_LANE"
	if ! flock -n 6; then
		echo "vm.sh: waiting for lane $RONIC_VM_LANE's VM to finish" >&2
		flock 6
	fi
	lock_mode=-s
else
	lock_mode=-x
fi
if ! flock -n "$lock_mode" 9; then
	echo "vm.sh: waiting for another test bed VM to finish ($lock)" >&2
	flock "$lock_mode" 9
fi

start=$(date +%s)
qemu-system-x86_64 "${qemu_args[@]}" < /dev/null > "$results/qemu.log" 2>&1 &
qpid=$!

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	kill "$qpid" 2>/dev/null || true
	[ -z "${tail_pid:-}" ] || kill "$tail_pid" 2>/dev/null || true
	[ "$sockdir" = "$results" ] || rm -rf "$sockdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Stream the guest script's output as it comes.
touch "$results/output.txt"
tail -n +1 -f --pid="$qpid" "$results/output.txt" &
tail_pid=$!

# A guest that hangs: keep where each vCPU was (halted or running, and at
# which address) for the post-mortem.
save_hang_state() {
	{ echo "info cpus"; sleep 1; } |
		socat -t 2 - "UNIX-CONNECT:$sockdir/monitor.sock" 2>&1 |
		tr -d '\r' > "$results/hang-cpus.txt" || true
}

# Serve the guest's monitor requests (hmp/N.req -> hmp/N.resp) until QEMU
# exits, and enforce the time limit.
timed_out=
done_at=
no_poweroff=
while kill -0 "$qpid" 2>/dev/null; do
	for req in "$results"/hmp/*.req; do
		[ -e "$req" ] || continue
		resp=${req%.req}.resp
		{ cat "$req"; sleep 0.5; } |
			socat -t 2 - "UNIX-CONNECT:$sockdir/monitor.sock" 2>&1 |
			tr -d '\r' | sed -e '/^QEMU .* monitor/d' -e 's/^(qemu) //' \
			> "$resp.tmp" || true
		rm -f "$req"
		mv "$resp.tmp" "$resp"
	done
	for req in "$results"/inject/*.req; do
		[ -e "$req" ] || continue
		resp=${req%.req}.resp
		# shellcheck disable=SC2046 # the request is a word list
		python3 "$top/scripts/inject-frames.py" --port "${injector_port:-0}" \
			$(cat "$req") > "$resp.tmp" 2>&1 || echo "FAILED" >> "$resp.tmp"
		rm -f "$req"
		mv "$resp.tmp" "$resp"
	done
	# The script is done once rc is there; power-off gets a grace time.
	if [ -z "$done_at" ] && [ -s "$results/rc" ]; then
		done_at=$(date +%s)
	fi
	if [ -n "$done_at" ] && [ $(($(date +%s) - done_at)) -ge 30 ]; then
		no_poweroff=1
		kill "$qpid" 2>/dev/null || true
		sleep 2
		kill -9 "$qpid" 2>/dev/null || true
		break
	fi
	now=$(date +%s)
	if [ -n "$idle_timeout" ] && [ -z "$done_at" ]; then
		# Sizes, not contents: this runs five times a second.
		seen=$({ stat -c %s "$results/output.txt" "$results/console.txt" 2>/dev/null || true; } | paste -sd+)
		if [ "$seen" != "${last_seen:-}" ]; then
			last_seen=$seen last_change=$now
		elif [ $((now - ${last_change:-$now})) -ge "$idle_timeout" ]; then
			stalled=1
		fi
	fi
	if [ -n "$boot_timeout" ] && [ $((now - start)) -ge "$boot_timeout" ] &&
	   [ ! -s "$results/output.txt" ]; then
		stalled=boot
	fi
	# Every five seconds or so: grep reads the whole console.
	if [ -z "$done_at" ] && [ $((now % 5)) -eq 0 ]; then
		if [ -n "$stop_on_hung" ] &&
		   grep -aq 'blocked for more than' "$results/console.txt" 2>/dev/null; then
			stalled=task
		fi
		# The bed's halted vCPU (Documentation/ronic.rst, "Hangs of
		# the bed") never recovers.
		if ronic_halted_vcpu "$results/console.txt"; then
			stalled=rcu
		fi
	fi
	if [ -n "${stalled:-}" ] || [ $((now - start)) -ge "$timeout" ]; then
		timed_out=1
		save_hang_state
		kill "$qpid" 2>/dev/null || true
		sleep 2
		kill -9 "$qpid" 2>/dev/null || true
		break
	fi
	sleep 0.2
done
wait "$qpid" 2>/dev/null || true
wait "$tail_pid" 2>/dev/null || true
tail_pid=
elapsed=$(($(date +%s) - start))

vmfail() {
	echo "FAIL: vm $name ($1)"
	echo "vm.sh: $1; see $results" >&2
}

status=0
if [ "${stalled:-}" = task ]; then
	vmfail "guest hung: a task blocked (console.txt; vCPUs: hang-cpus.txt)"
	status=124
elif [ "${stalled:-}" = rcu ]; then
	vmfail "guest hung: three RCU stall reports (console.txt; vCPUs: hang-cpus.txt)"
	status=124
elif [ "${stalled:-}" = boot ]; then
	vmfail "guest hung at boot: no script output in ${boot_timeout}s (vCPUs: hang-cpus.txt)"
	status=124
elif [ -n "${stalled:-}" ]; then
	vmfail "guest hung: no output for ${idle_timeout}s (vCPUs: hang-cpus.txt)"
	status=124
elif [ -n "$timed_out" ]; then
	vmfail "guest did not finish within ${timeout}s"
	status=124
elif [ -n "$no_poweroff" ]; then
	vmfail "guest did not power off within 30s after the script ended"
	status=125
elif [ ! -s "$results/rc" ]; then
	why="guest did not finish"
	if grep -q "Kernel panic" "$results/console.txt" 2>/dev/null; then
		why="guest kernel panicked"
	fi
	vmfail "$why (QEMU exited after ${elapsed}s: $(tail -3 "$results/qemu.log" | tr '\n' ' '))"
	status=125
fi

# Every check the guest scripts declared (plan N in scripts/guest/lib.sh)
# ran: as many PASS, FAIL and SKIP lines as the plans add up to.
if [ -s "$results/rc" ]; then
	ran=$(grep -acE '^(PASS|FAIL|SKIP): ' "$results/output.txt" 2>/dev/null || true)
	if [ ! -s "$results/plan" ]; then
		vmfail "the guest script declared no plan (plan N in scripts/guest/lib.sh); $ran checks ran"
		[ "$status" -ne 0 ] || status=125
	else
		declared=$(awk -F'\t' '{ n += $1 } END { print n + 0 }' "$results/plan")
		if [ "$ran" != "$declared" ]; then
			vmfail "$ran checks ran, the guest scripts declared $declared ($(awk -F'\t' '{ printf "%s%s %s", sep, $2, $1; sep = ", " }' "$results/plan"))"
			[ "$status" -ne 0 ] || status=125
		fi
	fi
fi

# The shutdown ran (every driver's shutdown hook) and reached its end.
if [ "$status" -eq 0 ] &&
   ! grep -aq 'reboot: Power down' "$results/console.txt" 2>/dev/null; then
	vmfail "guest did not power off through the kernel's shutdown (no 'reboot: Power down')"
	status=125
fi

# Reports in the kernel log of the whole boot: the console (everything at
# KERN_INFO and above, shutdown included: the log saved by the guest
# stops before power-off, where ronic_shutdown runs) and the saved dmesg
# (KERN_DEBUG too; the console may have lost a line), each line once.
# shellcheck source=scripts/kernel-reports.sh
. "$top/scripts/kernel-reports.sh"
reports=$(ronic_kernel_reports "$results/console.txt" "$results/dmesg.txt")
# A guest script that provokes a report on purpose (t-stress's forced tx
# hang) declares it in /results/expected-reports, "COUNT<TAB>REGEX" a line:
# exactly COUNT report lines match REGEX (the sum of every line with that
# REGEX), and those are not failures.
# Declarations of the same REGEX add up (two provoked tx hangs, say).
if [ -s "$results/expected-reports" ]; then
	declare -A declared=()
	order=()
	while IFS=$'\t' read -r want re; do
		[ -n "$re" ] || continue
		[ -n "${declared[$re]:-}" ] || order+=("$re")
		declared[$re]=$(( ${declared[$re]:-0} + want ))
	done < "$results/expected-reports"
	for re in "${order[@]}"; do
		want=${declared[$re]}
		got=$(grep -acE "$re" <<< "$reports" || true)
		if [ "$got" != "$want" ]; then
			vmfail "kernel log: $got reports match the expected '$re', the guest declared $want"
			[ "$status" -ne 0 ] || status=125
		fi
		reports=$(grep -avE "$re" <<< "$reports" || true)
	done
fi
if [ -n "$reports" ]; then
	echo "vm.sh: kernel log reports problems:" >&2
	echo "$reports" | head -20 >&2
	first=$(echo "$reports" | head -1 | sed 's/^\[[ 0-9.]*\] //')
	grep -aF -A30 "$first" "$results/console.txt" 2>/dev/null | head -60 >&2 || true
	vmfail "kernel log: $(echo "$first" | cut -c1-120)"
	[ "$status" -ne 0 ] || status=125
fi
log=$results/dmesg.txt
[ -s "$log" ] || log=$results/console.txt

# RCU stall warnings alone do not fail a test (a starved TCG vCPU shows
# them), but they are the first thing to read when a guest hangs.
if [ "$status" -ne 0 ]; then
	grep -aE 'rcu: INFO|self-detected stall|detected stalls' "$log" 2>/dev/null |
		head -10 | sed 's/^/vm.sh: rcu: /' >&2 || true
fi

if [ "$status" -eq 0 ]; then
	status=$(cat "$results/rc")
fi
echo "vm.sh: $name: guest rc $(cat "$results/rc" 2>/dev/null || echo none)," \
	"${elapsed}s, results in $results" >&2
exit "$status"
