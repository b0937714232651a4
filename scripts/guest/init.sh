#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the test bed guest (exec'd by the initramfs after switch_root).
# Mounts the pseudo file systems, mounts the results share (9p tag
# "results") on /results, reads the job that scripts/vm.sh wrote there
# (job.env: the guest script, its arguments, RONIC_* variables), runs the
# script with its output on the second serial port (host: output.txt),
# saves dmesg and the script's exit status into /results, powers off.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null

out=/dev/ttyS1
stty -F "$out" raw -echo 2>/dev/null

# The power-off is the kernel's own (reboot(2): every driver's shutdown
# hook runs, ronic_shutdown included, and scripts/vm.sh checks that part of
# the log too). The root is on 9p, which that shutdown takes away: nothing
# after it may need a binary.
poweroff_now() {
	sync
	umount /results 2>/dev/null
	busybox poweroff -f
	# Not reached unless reboot(2) failed: the emergency way, then wait
	# without the root file system.
	echo 1 > /proc/sys/kernel/sysrq
	echo o > /proc/sysrq-trigger
	read -rt 60 < /dev/ttyS0
}

mkdir -p /results
if ! mount -t 9p -o trans=virtio,version=9p2000.L,cache=none,msize=512000 \
	results /results; then
	echo "init.sh: cannot mount the results share" > "$out"
	poweroff_now
fi

RONIC_GUEST_SCRIPT=
RONIC_GUEST_ARGS=()
RONIC_GUEST_MODULES=
# shellcheck source=/dev/null
. /results/job.env

# A repo or guest script under /tmp would be hidden by the tmpfs above:
# show them again from the host root.
case "${RONIC_TOP:-}" in
/tmp/*)
	mkdir -p "$RONIC_TOP"
	mount --bind "/.ronic/hostroot$RONIC_TOP" "$RONIC_TOP"
	;;
esac
if [ ! -e "$RONIC_GUEST_SCRIPT" ]; then
	mkdir -p "$(dirname "$RONIC_GUEST_SCRIPT")"
	touch "$RONIC_GUEST_SCRIPT"
	mount --bind "/.ronic/hostroot$RONIC_GUEST_SCRIPT" "$RONIC_GUEST_SCRIPT"
fi

# Out-of-tree modules and the indexes depmod made for them on the host.
if [ -n "$RONIC_GUEST_MODULES" ]; then
	kmods=/lib/modules/$(uname -r)
	mkdir -p "$kmods/updates"
	cp "$RONIC_GUEST_MODULES"/updates/*.ko "$kmods/updates/"
	cp "$RONIC_GUEST_MODULES"/modules.* "$kmods/"
fi

ip link set lo up
hostname ronic-guest
sysctl -qw kernel.panic_on_oops=0 kernel.printk_devkmsg=on 2>/dev/null

echo "init.sh: running $RONIC_GUEST_SCRIPT ${RONIC_GUEST_ARGS[*]}" > /dev/kmsg
rc=0
(cd /tmp && exec bash "$RONIC_GUEST_SCRIPT" "${RONIC_GUEST_ARGS[@]}") \
	< /dev/null > "$out" 2>&1 || rc=$?
echo "init.sh: guest script exited with $rc" > /dev/kmsg

dmesg --color=never > /results/dmesg.txt 2>&1
echo "$rc" > /results/rc
poweroff_now
