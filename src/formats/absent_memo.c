#include "absent_memo.h"
#include "../lib/hash.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Four ways to a set, as a CPU's cache, so that two absent tables whose
 * frames share a set do not push each other out by turns: a batch's
 * absent tables are tens (the real 16K guest's kdump of 4 KiB blocks
 * has 37), and one that loses its way is asked of the format again.
 * Untouched sets cost no memory (calloc). */
#define SET_BITS 5
#define WAYS 4

struct pgw_absent_memo {
	uint64_t pfn[1u << SET_BITS][WAYS];
	bool used[1u << SET_BITS][WAYS];       /* (any pfn may be asked) */
	unsigned char hand[1u << SET_BITS];    /* the way to fill next */
	struct pgw_err err[1u << SET_BITS][WAYS];
};

/* The verdict of from into to: its message up to its end (the bytes
 * after it are never read). */
static void copy_verdict(struct pgw_err *to, const struct pgw_err *from)
{
	size_t n = strnlen(from->msg, sizeof(from->msg) - 1);

	to->status = from->status;
	to->errnum = from->errnum;
	to->absence = from->absence;
	memcpy(to->msg, from->msg, n);
	to->msg[n] = '\0';
}

struct pgw_absent_memo *pgw_absent_memo_new(void)
{
	return calloc(1, sizeof(struct pgw_absent_memo));
}

void pgw_absent_memo_free(struct pgw_absent_memo *memo)
{
	free(memo);
}

/* pfn's kept verdict, or NULL. */
static const struct pgw_err *kept(const struct pgw_absent_memo *memo,
				  uint64_t pfn)
{
	size_t set = pgw_hash_slot(pfn, SET_BITS);

	for (unsigned w = 0; w < WAYS; w++)
		if (memo->pfn[set][w] == pfn && memo->used[set][w])
			return &memo->err[set][w];
	return NULL;
}

enum pgw_status pgw_absent_memo_get(const struct pgw_absent_memo *memo,
				    uint64_t pfn, struct pgw_err *err)
{
	const struct pgw_err *e = kept(memo, pfn);

	if (!e)
		return PGW_OK;
	copy_verdict(err, e);
	return PGW_E_NODATA;
}

enum pgw_absence pgw_absent_memo_why(const struct pgw_absent_memo *memo,
				     uint64_t pfn)
{
	const struct pgw_err *e = kept(memo, pfn);

	return e ? e->absence : PGW_ABSENT_NONE;
}

void pgw_absent_memo_keep(struct pgw_absent_memo *memo, uint64_t pfn,
			  const struct pgw_err *err)
{
	size_t set = pgw_hash_slot(pfn, SET_BITS);
	unsigned w = memo->hand[set];

	memo->hand[set] = (unsigned char)((w + 1) % WAYS);
	memo->pfn[set][w] = pfn;
	memo->used[set][w] = true;
	copy_verdict(&memo->err[set][w], err);
}
