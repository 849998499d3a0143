/* Minimal TAP producer for C unit tests run by prove. */
#ifndef PGW_TAP_H
#define PGW_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 4, 5)))
static inline int tap_ok(int pass, const char *file, int line,
			 const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
	return pass;
}

#define is_u64(got, want, ...) \
	(tap_ok((uint64_t)(got) == (uint64_t)(want), __FILE__, __LINE__, \
		__VA_ARGS__) || \
	 (printf("#   got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", \
		 (uint64_t)(got), (uint64_t)(want)), 0))

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
