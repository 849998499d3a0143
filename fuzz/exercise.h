/*
 * What every fuzz target shares: turning the input bytes into a file the
 * library opens by path (a memfd, so no disk and no cleanup), and driving
 * everything the library does with an image or an address space, checking
 * invariants that must hold for any input (a walk's leaves translate to
 * the same frames, items come in address order, the budget holds).  A
 * broken invariant aborts, which the fuzzer reports like a crash.
 */
#ifndef PGW_FUZZ_EXERCISE_H
#define PGW_FUZZ_EXERCISE_H

#include <stddef.h>
#include <stdint.h>

#include "pgwalk.h"

/* Entry budget for fuzzed walks: small, so an input runs in well under a
 * millisecond.  Walks of windows (fz_exercise_image, the walker's start
 * and end) reach every part of a seed's tables within it. */
#define FZ_MAX_ENTRIES 512

/* Put data in an anonymous memory file; path gets "/proc/self/fd/N".
 * Returns the fd (close it after pgw_image_close) or -1. */
int fz_memfile(const uint8_t *data, size_t len, char *path, size_t pathlen);

/* Metadata, page reads, mode detection, root resolution, walks. */
void fz_exercise_image(struct pgw_image *img);

/*
 * Translate the given addresses and walk [start, end) with every callback,
 * checking the walk against translate.  stop_after > 0 makes a callback
 * ask the walk to stop after that many items.
 */
void fz_exercise_space(const struct pgw_space *sp, uint64_t start,
		       uint64_t end, const uint64_t *vas, size_t nvas,
		       unsigned stop_after);

/* Infer the kernel memory-map layout from the space's tables, then walk
 * [start, end) as coalesced runs (as `dump` does), every reporting mode. */
void fz_exercise_runs(const struct pgw_space *sp, uint64_t start,
		      uint64_t end);

/* What the CLI builds on a space (exercise_linux.c): the roots scan and
 * its budgets, check on the roots it finds, ptov's reverse map, a diff of
 * the space with itself, VMCOREINFO conflicts. */
void fz_exercise_linux(struct pgw_image *img, const struct pgw_space *sp);

/* Abort with a message: an invariant the library promises is broken. */
void fz_fail(const char *what, uint64_t a, uint64_t b)
	__attribute__((noreturn));

#endif
