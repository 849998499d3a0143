/*
 * The facts cache: where an image's set-up scans found VMCOREINFO and the
 * kernel root, and what its task list rests on (pgw_kernel_facts), kept
 * under $XDG_CACHE_HOME/pgwalk (default ~/.cache/pgwalk)
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
#include "facts_kernel.h"

/* The longest entry read or written. */
#define FACTS_ENTRY_MAX 8192

struct facts_cache {
	bool on;                 /* an identity and a folder to keep it in */
	char dir[PATH_MAX];
	char file[PATH_MAX];
	char identity[256];      /* the entry's "image ..." line */
	char loaded[FACTS_ENTRY_MAX];  /* the entry as read ("" none) */
	bool have_hint;
	struct pgw_facts_hint hint;
	struct facts_kernel_read kernel;  /* its kernel facts (kernel.have) */
	struct pgw_facts_hint keep;  /* what the last save wrote of the
					scans' facts */
	bool kept;
	char note[320];          /* -v: why an entry was not used */
};

/* Find the entry for the image at path (opened as img with o): c->hint
 * when it parses and is this image's. */
void facts_cache_load(struct facts_cache *c, const char *path,
		      struct pgw_image *img,
		      const struct pgw_image_open_opts *o);

/* Keep what the scans found (f->found), and what the entry held of
 * what no scan looked for (nothing to keep: nothing written); with the
 * kernel facts kf (NULL: the entry's, if any). */
void facts_cache_save(struct facts_cache *c, const struct pgw_facts_why *f,
		      const struct pgw_kernel_facts *kf);
/* The same scans' facts as the last save, with the kernel facts kf. */
void facts_cache_save_kernel(struct facts_cache *c,
			     const struct pgw_kernel_facts *kf);

/* The entry's text for found (empty when it holds nothing), into buf;
 * and the hint an entry's text gives, false when it is not one for
 * identity.  (For the fuzz target, too.) */
void facts_cache_format(const struct pgw_facts_hint *found,
			const struct pgw_kernel_facts *kf,
			const char *identity, char *buf, size_t n);
bool facts_cache_parse(const char *text, const char *identity,
		       struct pgw_facts_hint *hint,
		       struct facts_kernel_read *kernel, char *why, size_t n);

#endif
