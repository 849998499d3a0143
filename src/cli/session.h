/*
 * What every subcommand needs before it can walk: the options shared by
 * all of them parsed, then the image opened and the address space chosen
 * by the library (pgw_space_open).  One place owns the image:
 * session_close().
 */
#ifndef PGW_SESSION_H
#define PGW_SESSION_H

#include <argp.h>
#include <stdio.h>

#include "pgwalk.h"
#include "facts_cache.h"

struct session_opts {
	const char *image_format;    /* --image-format=elf|raw|... */
	const char *output_format;   /* --format=text|json|tsv|csv */
	/* Addresses are parsed once every option is known (--hex). */
	const char *base_arg, *cr3_arg, *root_arg, *vmcoreinfo_arg;
	const char *ttbr0_arg, *ttbr1_arg;
	const char *sme_mask_arg, *shared_mask_arg;
	struct pgw_image_open_opts open;
	struct pgw_space_request space;  /* --mode, the root: --cr3, --cpu,
					    --root, --pid, --comm,
					    --kernel-root; --sme-mask,
					    --shared-mask */
	uint64_t max_entries;        /* --max-entries */
	bool verbose;                /* -v: provenance on stderr */
	bool no_cache;               /* --no-cache: no facts cache */
	/* A command that takes two roots (diff) sets root_b: the second
	 * root option given goes there. */
	struct session_opts *root_b;
	unsigned nroots;             /* root options given */
};

struct session {
	struct session_opts opts;
	bool conflict_in_record;     /* info: a mode conflict is part of the
					record, not a warning */
	const char *path;
	struct pgw_image *img;
	struct pgw_space_why why;    /* how the mode and root were chosen */
	struct pgw_space space;
	struct facts_cache cache;    /* the set-up's facts, kept across
					commands */
	bool base_cached;            /* a raw image's base 0 from the facts
					cache, not from a scan */
	struct pgw_linux_kernel *kernel;  /* kallsyms, BTF and the task list,
					     read once for the root and the
					     names (NULL: no memory for it) */
};

/* The argp child with the shared options; its input is a session_opts. */
extern const struct argp session_argp;
/* The children of a subcommand with the shared options alone. */
extern const struct argp_child session_children[];

/* A subcommand's argp input starts with these. */
struct image_args {
	struct session_opts opts;
	char *image;
};

/*
 * The parser keys every subcommand handles alike, for the default case of
 * its parse_opt: ARGP_KEY_INIT sets the option defaults and hands them to
 * child 0 (session_argp); ARGP_KEY_ARG takes one IMAGE and ARGP_KEY_END
 * requires it, `cmd` naming the subcommand in the errors.  Other keys are
 * ARGP_ERR_UNKNOWN.
 */
error_t session_parse_image(struct image_args *a, const char *cmd, int key,
			    char *arg, struct argp_state *state);

/* A root or a mode was asked for (what --phys has no use for). */
bool session_space_asked(const struct session_opts *o);

/* For root_b: once every option is known, read its addresses. */
void session_root_finish(struct session_opts *o, struct argp_state *state);

/* The image being read, for main's SIGBUS handler (set at open). */
extern const char *volatile pgw_mapped_image;

/* Open the image only (for info, which reports failures per part). */
int session_open_image(struct session *s, const char *path);
/* Choose mode and root; 0 or an exit status (message printed). */
int session_choose(struct session *s);
/* Both, from the parsed arguments. */
int session_start(struct session *s, const struct image_args *a);
/* session_start on the kernel's own root, never a CPU's (the task list
 * and the roots scan read through it); closed again on failure. */
int session_start_kernel(struct session *s, struct image_args *a);
/* The session's task list, read once (pgw_linux_tasks_how's answer; the
 * tasks a copy the caller frees). */
enum pgw_status session_tasks(struct session *s, struct pgw_task **tasks_ret,
			      size_t *n_ret, struct pgw_tasks_how *how,
			      struct pgw_err *err);
/* Keep what the session found in the facts cache, and close it. */
void session_close(struct session *s);

/* With -v, say on stderr how the space was chosen: "pgwalk: vmcoreinfo
 * memory|none (why)" when memory was searched for it, "pgwalk: vmcoreinfo
 * candidates (choice)" when one was chosen, "pgwalk: mode NAME
 * (why)", "pgwalk: root 0x.. (why)", and "pgwalk: encryption C-bit N
 * (why)" when bits are in use or were asked for, and "pgwalk: cache:
 * ..." when a fact came from the facts cache or an entry was not used
 * (provenance, never on stdout). */
void session_say(const struct session *s);
/* With -v, whether the task list came from the cache's facts, or why
 * they were not used (nothing before the list is read). */
void session_say_kernel_cache(const struct session *s);

/* "C-bit 47", "shared bit 51", both, or "none", into buf. */
void session_enc_name(const struct pgw_enc_choice *e, char *buf, size_t n);

/* --hex: bare words are hex addresses (set while options are parsed,
 * read when they are finished). */
extern bool pgw_cli_bare_hex;
/* An address: 0x hex, 0d decimal, a single digit, or bare hex when
 * bare_hex; spaces around it are allowed. */
bool pgw_parse_addr(const char *s, bool bare_hex, uint64_t *v);
/* pgw_parse_addr with --hex as given. */
bool pgw_parse_u64(const char *s, uint64_t *v);
/* The common line of a batch, "0x" and 1 to 16 hex digits, exactly n
 * bytes: true with its value; false for anything else (which
 * pgw_parse_u64 then reads, or refuses). */
bool pgw_parse_hex0x(const char *s, size_t n, uint64_t *v);
/* The usage error for an option value that is not an address. */
void pgw_bad_addr_option(const struct argp_state *state, const char *opt,
			 const char *arg) __attribute__((noreturn));

#endif
