/*
 * pgw_search's scanner: pages fed in address order (virtual, or
 * physical), each with the frame it lies at; while they follow one
 * another the bytes are one stream, so a match may run from one page
 * into the next whatever their frames.  Pages are gathered into a chunk
 * and searched at once; the end of a chunk is carried into the next (the
 * longest pattern's length less one byte, all of it within one page),
 * and a match that starts there is the next chunk's to report.
 */
#ifndef PGW_SEARCH_SCAN_H
#define PGW_SEARCH_SCAN_H

#include "pattern.h"

/* 256 KiB a search: the per-call costs of memmem vanish, the buffer
 * stays in the cache. */
#define SCAN_PAGES 64

struct scan_hit {
	uint64_t addr;           /* where it starts: va, or pa (--phys) */
	uint64_t pa;             /* its first byte's physical address */
	size_t pattern;          /* index into the patterns */
	size_t len;              /* bytes matched */
	const char *rule, *string;   /* a YARA match's names; else NULL */
};

/* Patterns found together: the first bytes of their anchors. */
#define SCAN_KEY 4
struct scan_group {
	uint8_t key[SCAN_KEY];
	size_t key_len;          /* 0: patterns of ?? alone */
	size_t rare;             /* the key's byte looked for first */
	size_t *member;          /* pattern indexes */
	size_t n;
};

/* A match in the buffer, before it is reported in order. */
struct scan_found {
	size_t off;
	size_t pattern;
	size_t len;
	const char *rule, *string;
};

struct scanner {
	struct pattern *const *pat;
	size_t npat;
	size_t keep;             /* the longest pattern, less one byte */
	void (*hit)(void *arg, const struct scan_hit *h);
	void *arg;
	uint8_t *buf;            /* carry, then SCAN_PAGES pages */
	struct scan_group *group;
	size_t ngroups;
	size_t *resume;          /* per regular expression: where in the
				    next chunk its search goes on (past its
				    last match) */
	struct scan_found *found;      /* this chunk's matches */
	size_t nfound, capfound;
	bool oom;                /* matches were lost: out of memory */
	const char *failed;      /* libyara could not scan: why */
	size_t limit;            /* matches starting here or above are the
				    next chunk's */
	size_t carry;
	uint64_t carry_addr, carry_pa;
	uint64_t start;          /* address of the first page after it */
	uint64_t pa[SCAN_PAGES];
	size_t npages;
	uint64_t slot_addr, slot_pa;   /* the page being read in */
	uint64_t bytes;          /* bytes searched */
};

/* false: out of memory. */
bool scan_init(struct scanner *s, struct pattern *const *pat, size_t npat,
	       void (*hit)(void *, const struct scan_hit *), void *arg);
void scan_free(struct scanner *s);

/* Where to put the 4 KiB page at addr (frame pa): the page before it in
 * the stream is the one at addr - 4096 only if fed just before.  Then
 * scan_commit when it was read, scan_break when it could not be. */
uint8_t *scan_slot(struct scanner *s, uint64_t addr, uint64_t pa);
void scan_commit(struct scanner *s);
/* The stream stops here (a page that cannot be read, the end): what is
 * held is searched and nothing carries over.  Hits come from here and
 * from scan_slot, in address order. */
void scan_break(struct scanner *s);

/* Append h to the growing array *v (*n used of *cap); false when out of
 * memory (the array as it was).  A threaded search keeps each piece's
 * hits this way until the merge prints them in order. */
bool scan_hits_push(struct scan_hit **v, size_t *n, size_t *cap,
		    const struct scan_hit *h);

#endif
