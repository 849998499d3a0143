/* Checking VMCOREINFO text (vmcoreinfo_check.c), for the finder. */
#ifndef PGW_LINUX_VMCOREINFO_H
#define PGW_LINUX_VMCOREINFO_H

#include "pgwalk.h"

/* Where the facts come from: a key's value, copied NUL-terminated into
 * val (false when absent or longer than valsz - 1). */
struct pgw_vmci_source {
	bool (*get)(const void *src, const char *key, char *val,
		    size_t valsz);
	const void *src;
};

/* The image's own VMCOREINFO as a source. */
struct pgw_vmci_source pgw_vmci_image(const struct pgw_image *img);

/* Text not yet adopted: pgw_vmci_text_get reads its lines. */
struct pgw_vmci_text {
	const char *text;
	size_t len;
};
bool pgw_vmci_text_get(const void *src, const char *key, char *val,
		       size_t valsz);

/*
 * The text is lines the kernel could have written: it begins with
 * OSRELEASE=, every line is KEY=value of at most 80 bytes with a
 * printable value, and SYMBOL()/NUMBER()/OFFSET()/SIZE()/LENGTH()/
 * PAGESIZE values are numbers that fit 64 bits.  False with the reason.
 */
bool pgw_vmci_check_lines(const char *text, size_t len, unsigned *lines_ret,
			  char *why, size_t n);

/*
 * What the facts claim holds in this image: PAGESIZE=4096, and the kernel
 * page-table symbol's table (mode from the facts) maps itself and _stext.
 * Fills check (mode, kernel_root, why); false with the reason.
 */
bool pgw_vmci_check_facts(struct pgw_image *img,
			  const struct pgw_vmci_source *s,
			  struct pgw_vmci_check *check, char *why, size_t n);

/* Every candidate of a whole scan, as a hint for the next scan of the
 * image (the facts cache's, the image's own); none when the scan was cut
 * short, found none or more than it lists. */
void linux_vmci_keep_found(const struct pgw_vmci_found *found,
			   struct pgw_facts_hint *h);

/* pgw_vmcoreinfo_find_in_memory over h's pages alone when it names some
 * and they give what they gave before (*held: the same candidates, each
 * as valid), else over every page. */
enum pgw_status linux_vmci_find_hinted(struct pgw_image *img,
				       const struct pgw_facts_hint *h,
				       struct pgw_scan_opts *opts,
				       struct pgw_vmci_found *found,
				       bool *held, struct pgw_err *err);

/* A candidate's text (pgw_vmci_found's cand[]) into buf, of
 * PGW_VMCI_TEXT_MAX + 1 bytes, NUL-terminated; false with why. */
bool linux_vmci_candidate_text(struct pgw_image *img,
				const struct pgw_vmci_candidate *c, char *buf,
				size_t *len_ret, char *why, size_t n);

#endif
