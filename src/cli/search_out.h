/*
 * search's records in each output format (fmt_*_search.c), hooked into
 * the formatters of fmt_*.c.
 */
#ifndef PGW_SEARCH_OUT_H
#define PGW_SEARCH_OUT_H

#include "output.h"
#include "pattern.h"

/* One match: where it lies, whose space maps it, and the bytes. */
struct search_hit {
	uint64_t pa;
	bool have_va;            /* false: --phys */
	uint64_t va;
	bool have_root;
	uint64_t root;
	bool have_pid;
	int32_t pid;
	const uint8_t *comm;     /* with have_pid: raw bytes */
	size_t comm_len;
	const struct pattern *pattern;
	const char *rule, *rule_string;   /* a YARA match: its rule and
					     string; else NULL */
	const uint8_t *match;    /* the bytes matched */
	size_t size;
	uint64_t context_start;  /* address (va, or pa with --phys) of
				    context[0] */
	const uint8_t *context;  /* --context bytes before, the match, and
				    after, as far as they can be read */
	size_t context_len;
	size_t before;           /* of it, the bytes before the match */
	uint64_t same_frame_pages;   /* > 1: a shared table maps this frame
					at this many pages of page_size from
					va */
	uint64_t page_size;
};

struct search_summary {
	size_t patterns;
	uint64_t hits;           /* every match found */
	uint64_t listed;         /* of them, printed (--max-hits) */
	uint64_t bytes_searched;
	uint64_t not_in_image[PGW_NABSENCES];   /* bytes, by reason */
	uint64_t bytes_not_in_image;            /* their sum */
	uint64_t tables_not_in_image;  /* holes under a table the image
					  lacks: what they map is unknown */
	bool complete;
	const char *reason;      /* !complete: "budget", "hit-limit",
				    "table-not-in-image", "data-not-in-image" */
};

void text_search_begin(struct out *o);
void text_search_hit(struct out *o, const struct search_hit *h);
void text_search_summary(struct out *o, const struct search_summary *s);
void json_search_hit(struct out *o, const struct search_hit *h);
void json_search_summary(struct out *o, const struct search_summary *s);

/* CSV and TSV: delimited.h (delim_search_*). */

#endif
