#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the XDP features a netdev advertises, from the netdev netlink
family (what `ynl --family netdev --do dev-get` shows), one name a line.

Usage: netdev-features.py IFNAME
"""
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genl  # noqa: E402

NETDEV_CMD_DEV_GET = 1
NETDEV_A_DEV_IFINDEX = 1
NETDEV_A_DEV_XDP_FEATURES = 3

XDP_FEATURES = ["basic", "redirect", "ndo-xmit", "xsk-zerocopy",
                "hw-offload", "rx-sg", "ndo-xmit-sg"]


def main():
    ifindex = socket.if_nametoindex(sys.argv[1])
    netdev = genl.Family("netdev")
    dev = netdev.request(NETDEV_CMD_DEV_GET,
                         genl.attr(NETDEV_A_DEV_IFINDEX,
                                   struct.pack("I", ifindex)))
    feats = genl.u64(dev[NETDEV_A_DEV_XDP_FEATURES])
    for bit, name in enumerate(XDP_FEATURES):
        if feats & (1 << bit):
            print(name)


if __name__ == "__main__":
    main()
