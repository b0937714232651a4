# SPDX-License-Identifier: GPL-2.0
"""A minimal generic netlink client for the guest scripts: resolve a
family, send one request, or dump. Only the standard library, since the
guest runs the host's python3 without the kernel's ynl tree."""
import socket
import struct

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLM_F_REQUEST = 1
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3


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


def u32(payload):
    return struct.unpack("I", payload[:4])[0]


def u64(payload):
    return struct.unpack("Q", payload[:8])[0] if len(payload) >= 8 else u32(payload)


class Family:
    """One generic netlink family, by name."""

    def __init__(self, name):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.id = GENL_ID_CTRL
        ctrl = self.request(CTRL_CMD_GETFAMILY,
                            attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        self.id = struct.unpack("H", ctrl[CTRL_ATTR_FAMILY_ID][:2])[0]

    def _send(self, cmd, payload, flags):
        genl = struct.pack("BBH", cmd, 1, 0)
        self.sock.send(struct.pack("IHHII", 16 + len(genl) + len(payload),
                                   self.id, flags, 1, 0) + genl + payload)

    def _messages(self):
        """Yield (type, genl payload) of each message until a dump ends."""
        while True:
            buf = self.sock.recv(1 << 16)
            while len(buf) >= 16:
                length, kind = struct.unpack_from("IH", buf)
                if kind == NLMSG_ERROR:
                    err = struct.unpack_from("i", buf, 16)[0]
                    if err:
                        raise OSError(-err, "netlink request failed")
                    return
                if kind == NLMSG_DONE:
                    return
                yield buf[20:length]
                buf = buf[(length + 3) & ~3:]

    def request(self, cmd, payload):
        """One request; its reply's attributes."""
        self._send(cmd, payload, NLM_F_REQUEST)
        for body in self._messages():
            return attrs(body)
        raise OSError("no netlink reply")

    def dump(self, cmd, payload=b""):
        """A dump; a list of each reply's attributes."""
        self._send(cmd, payload, NLM_F_REQUEST | NLM_F_DUMP)
        return [attrs(body) for body in self._messages()]
