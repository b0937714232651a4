/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODULE_INFO() as a named string instead of a .modinfo entry, so a test
 * reads the very value the module would carry: RONIC_UNIT_MODINFO(tag).
 */
#ifndef _SHIM_LINUX_MODULE_H
#define _SHIM_LINUX_MODULE_H
#define RONIC_UNIT_MODINFO(tag) ronic_unit_modinfo_##tag
#define MODULE_INFO(tag, info) const char RONIC_UNIT_MODINFO(tag)[] = info
#endif
