/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' one assertion: prints "PASS: <suite>: <name>" or
 * "FAIL: ..." (the lines tests/run.sh counts) and tallies them.
 */
#ifndef _RONIC_UNIT_CHECK_H
#define _RONIC_UNIT_CHECK_H
#include <stdio.h>

static int passed, failed;

#define CHECK(name, cond) do {						\
	if (cond) {							\
		passed++;						\
		printf("PASS: %s: %s\n", SUITE, name);			\
	} else {							\
		failed++;						\
		printf("FAIL: %s: %s (%s:%d: %s)\n", SUITE, name,	\
		       __FILE__, __LINE__, #cond);			\
	}								\
} while (0)

/* The suite's closing line and exit status. */
static inline int check_summary(void)
{
	printf("%s: %d passed, %d failed\n", SUITE, passed, failed);
	return failed ? 1 : 0;
}
#endif
