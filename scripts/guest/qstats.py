#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print one of a netdev's queue statistics, summed over the device, from
the netdev netlink family (what `ynl --family netdev --dump qstats-get`
shows): rx-packets, rx-bytes, tx-packets, tx-bytes or rx-alloc-fail. A
statistic the driver does not report prints "none".

Usage: qstats.py IFNAME NAME
"""
import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genl  # noqa: E402

NETDEV_CMD_QSTATS_GET = 12
NETDEV_A_QSTATS_IFINDEX = 1
QSTATS = {
    "rx-packets": 8,
    "rx-bytes": 9,
    "tx-packets": 10,
    "tx-bytes": 11,
    "rx-alloc-fail": 12,
}


def main():
    ifindex = socket.if_nametoindex(sys.argv[1])
    kind = QSTATS[sys.argv[2]]
    for dev in genl.Family("netdev").dump(NETDEV_CMD_QSTATS_GET):
        if genl.u32(dev[NETDEV_A_QSTATS_IFINDEX]) != ifindex:
            continue
        print(genl.u64(dev[kind]) if kind in dev else "none")
        return
    print("none")


if __name__ == "__main__":
    main()
