/*
 * What `search` prints: a hit record per match, then the summary
 * (search_out.c: the types, their text, and the records made of the
 * command's hits and counts).
 */
#ifndef PGW_SEARCH_OUT_H
#define PGW_SEARCH_OUT_H

#include "name_cells.h"
#include "output.h"

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
	enum pgw_pattern_kind kind;   /* the pattern, as given */
	const char *text;
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

/* "kind:text" into buf (not NUL-terminated, cut at n): how a hit names
 * its pattern; a YARA match "yara:RULE:$STRING". */
#define SEARCH_LABEL_MAX 8192
size_t search_label(const struct search_hit *h, char *buf, size_t n);

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

#define HIT_FIELDS(F, S)                                                  \
	F(S, pa, HEX, 0)                                                  \
	F(S, va, OHEX, RF_NULL)                                           \
	F(S, root, OHEX, RF_NULL)                                         \
	F(S, pid, OU64, RF_NULL)                                          \
	F(S, comm, BYTES, RF_NULL)                                        \
	F(S, pattern, BYTES, 0)                                           \
	F(S, size, U64, 0)                                                \
	F(S, hex, HEXDATA, 0)                                             \
	F(S, context_start, HEX, 0)                                       \
	F(S, context, BYTES, 0)                                           \
	F(S, same_frame_pages, OU64, 0)                                   \
	F(S, page_size, OU64, RF_DETAIL)                                  \
	F(S, before, U64, RF_TEXT)                                        \
	F(S, name, GROUP(name_rec), 0)
RECORD_STRUCT(hit_rec, HIT_FIELDS);

#define SEARCH_SUMMARY_FIELDS(F, S)                                       \
	F(S, patterns, U64, RF_DETAIL)                                    \
	F(S, hits, U64, RF_DETAIL)                                        \
	F(S, listed, U64, RF_DETAIL)                                      \
	F(S, bytes_searched, U64, RF_DETAIL)                              \
	F(S, bytes_not_in_image, U64, RF_DETAIL)                          \
	F(S, not_in_image, COUNTS, RF_DETAIL)                             \
	F(S, tables_not_in_image, U64, RF_DETAIL)                         \
	F(S, complete, BOOL, 0)                                           \
	F(S, reason, WORD, 0)
RECORD_STRUCT(search_summary_rec, SEARCH_SUMMARY_FIELDS);

extern const struct rec_table search_table;

/* The records of a hit and of the summary, out in o's format. */
void search_say_hit(struct out *o, const struct search_hit *h);
void search_say_summary(struct out *o, const struct search_summary *s);

#endif
