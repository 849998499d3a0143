/*
 * The image's verdicts on pages it lacks, kept: an image never changes,
 * so a page found absent once is absent, for the same reason, every time.
 * A batch of translations that stops at one table the image lacks (a
 * kdump's excluded page) asks for it per address, and each ask would
 * otherwise find the descriptor again and format the same message; a hit
 * here is a look at one slot and a copy of the message.
 */
#ifndef PGW_ABSENT_MEMO_H
#define PGW_ABSENT_MEMO_H

#include "pgwalk.h"

struct pgw_absent_memo;

/* NULL when out of memory (then nothing is kept). */
struct pgw_absent_memo *pgw_absent_memo_new(void);
void pgw_absent_memo_free(struct pgw_absent_memo *memo);
/* pfn's kept verdict into err (PGW_E_NODATA), or PGW_OK: none kept. */
enum pgw_status pgw_absent_memo_get(const struct pgw_absent_memo *memo,
				    uint64_t pfn, struct pgw_err *err);
/* Why pfn is absent, as kept (no message made); PGW_ABSENT_NONE: none
 * kept. */
enum pgw_absence pgw_absent_memo_why(const struct pgw_absent_memo *memo,
				     uint64_t pfn);
/* Keep err (a PGW_E_NODATA the image said of pfn), in place of whatever
 * shared its slot. */
void pgw_absent_memo_keep(struct pgw_absent_memo *memo, uint64_t pfn,
			  const struct pgw_err *err);

#endif
