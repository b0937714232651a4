/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H
/* The kernel's values (include/uapi/asm-generic/errno*.h) */
#define EINVAL		22
#define EOPNOTSUPP	95
#endif
