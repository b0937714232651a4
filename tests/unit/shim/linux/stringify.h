/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_STRINGIFY_H
#define _SHIM_LINUX_STRINGIFY_H
/* As include/linux/stringify.h: the argument is expanded first. */
#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)
#endif
