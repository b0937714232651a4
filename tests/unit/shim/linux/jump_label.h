/* SPDX-License-Identifier: GPL-2.0 */
/* A counting stand-in for static keys, so tests can check the balance. */
#ifndef _SHIM_LINUX_JUMP_LABEL_H
#define _SHIM_LINUX_JUMP_LABEL_H
struct static_key_false {
	int enabled;
};

#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = { 0 }
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
#define static_branch_inc(key) ((key)->enabled++)
#define static_branch_dec(key) ((key)->enabled--)
#define static_branch_unlikely(key) ((key)->enabled > 0)
#endif
