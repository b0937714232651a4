#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print what a netdev's page_pools hold, from the netdev netlink family
(what `ynl --family netdev --dump page-pool-get` shows), summed over its
pools: "pools N inflight PAGES inflight_mem BYTES".

Usage: page-pools.py IFNAME
"""
import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genl  # noqa: E402

NETDEV_CMD_PAGE_POOL_GET = 5
NETDEV_A_PAGE_POOL_IFINDEX = 2
NETDEV_A_PAGE_POOL_INFLIGHT = 4
NETDEV_A_PAGE_POOL_INFLIGHT_MEM = 5


def main():
    ifindex = socket.if_nametoindex(sys.argv[1])
    pools = pages = mem = 0
    for pool in genl.Family("netdev").dump(NETDEV_CMD_PAGE_POOL_GET):
        if NETDEV_A_PAGE_POOL_IFINDEX not in pool or \
           genl.u32(pool[NETDEV_A_PAGE_POOL_IFINDEX]) != ifindex:
            continue
        pools += 1
        pages += genl.u64(pool.get(NETDEV_A_PAGE_POOL_INFLIGHT, b"\0" * 8))
        mem += genl.u64(pool.get(NETDEV_A_PAGE_POOL_INFLIGHT_MEM, b"\0" * 8))
    print(f"pools {pools} inflight {pages} inflight_mem {mem}")


if __name__ == "__main__":
    main()
