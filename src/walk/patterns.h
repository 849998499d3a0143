/* What struct pgw_patterns holds (patterns.c), for the search. */
#ifndef PGW_PATTERNS_H
#define PGW_PATTERNS_H

#include "pattern.h"

struct pgw_patterns {
	struct pattern **p;
	size_t n;
};

#endif
