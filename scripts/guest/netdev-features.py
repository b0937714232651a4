#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the XDP features a netdev advertises, from the netdev netlink
family (what `ynl --family netdev --do dev-get` shows), one name a line.

Usage: netdev-features.py IFNAME
"""
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NETDEV_CMD_DEV_GET = 1
NETDEV_A_DEV_IFINDEX = 1
NETDEV_A_DEV_XDP_FEATURES = 3
NLM_F_REQUEST = 1
NLMSG_ERROR = 2

XDP_FEATURES = ["basic", "redirect", "ndo-xmit", "xsk-zerocopy",
                "hw-offload", "rx-sg", "ndo-xmit-sg"]


def attr(kind, payload):
    length = 4 + len(payload)
    return struct.pack("HH", length, kind) + payload + b"\0" * (-length % 4)


def attrs(buf):
    out = {}
    while len(buf) >= 4:
        length, kind = struct.unpack_from("HH", buf)
        out[kind & 0x3FFF] = buf[4:length]
        buf = buf[(length + 3) & ~3:]
    return out


def request(sock, family, cmd, payload):
    genl = struct.pack("BBH", cmd, 1, 0)
    msg = struct.pack("IHHII", 16 + len(genl) + len(payload), family,
                      NLM_F_REQUEST, 1, 0) + genl + payload
    sock.send(msg)
    reply = sock.recv(65536)
    _, kind = struct.unpack_from("IH", reply)
    if kind == NLMSG_ERROR:
        err = struct.unpack_from("i", reply, 16)[0]
        raise OSError(-err, "netlink request failed")
    return attrs(reply[20:])


def main():
    ifindex = socket.if_nametoindex(sys.argv[1])
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.bind((0, 0))
    ctrl = request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                   attr(CTRL_ATTR_FAMILY_NAME, b"netdev\0"))
    family = struct.unpack("H", ctrl[CTRL_ATTR_FAMILY_ID][:2])[0]
    dev = request(sock, family, NETDEV_CMD_DEV_GET,
                  attr(NETDEV_A_DEV_IFINDEX, struct.pack("I", ifindex)))
    feats = struct.unpack("Q", dev[NETDEV_A_DEV_XDP_FEATURES][:8])[0]
    for bit, name in enumerate(XDP_FEATURES):
        if feats & (1 << bit):
            print(name)


if __name__ == "__main__":
    main()
