/*
 * The facts cache: where an image's set-up scans found VMCOREINFO and the
 * kernel root, kept under $XDG_CACHE_HOME/pgwalk (default ~/.cache/pgwalk)
 * in a file named by the image's identity (size, mtime, device and inode,
 * hashes of its first and last 64 KiB and of 16 pages spread over it,
 * the format and --base), and given back to
 * pgw_space_open as a hint, which checks every page it names again.  An
 * entry that does not parse, or names another identity, is not used;
 * writing one is best effort (temp file and rename) and never changes
 * what a command prints or its exit status.
 */
#ifndef PGW_CLI_FACTS_CACHE_H
#define PGW_CLI_FACTS_CACHE_H

#include <limits.h>

#include "pgwalk.h"

struct facts_cache {
	bool on;                 /* an identity and a folder to keep it in */
	char dir[PATH_MAX];
	char file[PATH_MAX];
	char identity[256];      /* the entry's "image ..." line */
	char loaded[4096];       /* the entry as read ("" none) */
	bool have_hint;
	struct pgw_facts_hint hint;
	char note[320];          /* -v: why an entry was not used */
};

/* Find the entry for the image at path (opened as img with o): c->hint
 * when it parses and is this image's. */
void facts_cache_load(struct facts_cache *c, const char *path,
		      struct pgw_image *img,
		      const struct pgw_image_open_opts *o);

/* Keep what the scans found (f->found), and what the entry held of
 * what no scan looked for (nothing to keep: nothing written). */
void facts_cache_save(struct facts_cache *c, const struct pgw_facts_why *f);

/* The entry's text for found (empty when it holds nothing), into buf;
 * and the hint an entry's text gives, false when it is not one for
 * identity.  (For the fuzz target, too.) */
void facts_cache_format(const struct pgw_facts_hint *found,
			const char *identity, char *buf, size_t n);
bool facts_cache_parse(const char *text, const char *identity,
		       struct pgw_facts_hint *hint, char *why, size_t n);

#endif
