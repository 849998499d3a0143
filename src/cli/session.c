#include "../formats/image_page.h"
#include "session.h"
#include "exit_codes.h"
#include "hints.h"
#include "lists.h"
#include "output.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_CR3 = 256, OPT_CPU, OPT_MODE, OPT_BASE, OPT_KERNEL_ROOT,
	OPT_MAX_ENTRIES, OPT_IMAGE_FORMAT, OPT_HEX, OPT_ROOT, OPT_PID, OPT_COMM,
	OPT_SME_MASK, OPT_SHARED_MASK, OPT_ZERO_EXCLUDED, OPT_VMCOREINFO,
	OPT_TTBR0, OPT_TTBR1, OPT_NO_CACHE, OPT_THREADS,
};

/* The docs of --format, --image-format and --mode name what the tables
 * hold: help_filter writes them in. */
static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Output:", 1 },
	{ "format", 'f', "FMT", 0, "Output format", 1 },
	{ "verbose", 'v', NULL, 0,
	  "Say on stderr how the answer was reached: mode, root (dump: "
	  "layout and bases), encryption bits when any are in use, each "
	  "with its reason", 1 },
	{ NULL, 0, NULL, 0, "Image:", 2 },
	{ "image-format", OPT_IMAGE_FORMAT, "FMT", 0,
	  "Image format, skipping the probe", 2 },
	{ "base", OPT_BASE, "ADDR", 0,
	  "Raw images: physical address of the file's first byte (default: "
	  "found from the image's arm64 VMCOREINFO, else 0)", 2 },
	{ "zero-excluded", OPT_ZERO_EXCLUDED, NULL, 0,
	  "Read the pages a filtered dump excluded (kdump's dump level, an "
	  "ELF core's bytes past p_filesz) as zeros instead of not in the "
	  "image", 2 },
	{ "vmcoreinfo", OPT_VMCOREINFO, "PA", 0,
	  "Use the VMCOREINFO text found in memory at PA (a candidate "
	  "`pgwalk info` lists), over the image's own note and over the "
	  "choice by evidence", 2 },
	{ "no-cache", OPT_NO_CACHE, NULL, 0,
	  "Neither read nor write the facts cache (where earlier commands "
	  "found VMCOREINFO and the kernel root in this image, kept in "
	  "$XDG_CACHE_HOME/pgwalk, default ~/.cache/pgwalk): scan every "
	  "page again", 2 },
	{ "threads", OPT_THREADS, "N", 0,
	  "Scan physical memory (VMCOREINFO, the kernel root, the roots, "
	  "a search of physical memory), walk every root for check, "
	  "ptov and search, and translate a batch on stdin, on N "
	  "threads, each reading the image through its own descriptor; the "
	  "answer and exit status are those of one thread (default: the "
	  "CPUs this process may run on)", 2 },
	{ NULL, 0, NULL, 0, "Address space:", 3 },
	{ "cr3", OPT_CR3, "ADDR", 0,
	  "Walk from this CR3, a physical address (PCID bits and bit 63 are "
	  "ignored)", 3 },
	{ "cpu", OPT_CPU, "N", 0, "Walk from CPU N's CR3 in the image (arm64: the space of the task running there)", 3 },
	{ "root", OPT_ROOT, "ADDR", 0,
	  "Walk from the top table at ADDR (a root `pgwalk roots` lists; "
	  "arm64: the user half's, under the kernel's)", 3 },
	{ "ttbr0", OPT_TTBR0, "VALUE", 0,
	  "arm64: walk the lower (user) half from this TTBR0_EL1 value (ASID "
	  "and CnP ignored); the upper half is the kernel's unless --ttbr1 "
	  "is given", 3 },
	{ "ttbr1", OPT_TTBR1, "VALUE", 0,
	  "arm64: walk the upper (kernel) half from this TTBR1_EL1 value; "
	  "alone, the lower half has no table", 3 },
	{ "pid", OPT_PID, "N", 0,
	  "Walk process N's address space: its mm->pgd, from the kernel's "
	  "task list (kallsyms and BTF in the image)", 3 },
	{ "comm", OPT_COMM, "NAME", 0,
	  "Walk the address space of the one process called NAME (several: "
	  "an error listing their pids)", 3 },
	{ "kernel-root", OPT_KERNEL_ROOT, NULL, 0,
	  "PTI: walk the kernel half paired with a user CR3", 3 },
	{ "mode", OPT_MODE, "MODE", 0, "Paging mode (default: detected)", 3 },
	{ "sme-mask", OPT_SME_MASK, "MASK", 0,
	  "Memory encryption (AMD SME/SEV): the C-bit of entries and CR3, "
	  "e.g. 0x800000000000 for bit 47; 0 for none (default: VMCOREINFO "
	  "NUMBER(sme_mask), else inferred from the page tables)", 3 },
	{ "shared-mask", OPT_SHARED_MASK, "MASK", 0,
	  "Intel TDX: the bit that marks a page shared with the host, e.g. "
	  "0x8000000000000 for bit 51 (default: none)", 3 },
	{ "max-entries", OPT_MAX_ENTRIES, "N", 0,
	  "Entry budget for range walks: stop with exit status 4 after "
	  "examining N page-table entries (default: 512 per page of the "
	  "image, at least 1052672; cycles and shared tables cannot make a "
	  "walk longer); one budget for the whole command, every root's "
	  "walk and the roots scan's together", 3 },
	{ "hex", OPT_HEX, NULL, 0,
	  "Read bare words as hex addresses, as crash and QEMU print them "
	  "(ffffffff81000000, and 0d000000 is 0xd000000); without it an "
	  "address needs 0x, or 0d for decimal", 3 },
	{ 0 }
};

void pgw_bad_addr_option(const struct argp_state *state, const char *opt,
			 const char *arg)
{
	pgw_usage_error(state, "--%s: '%s' is not an address (0x... hex, "
			"0d... decimal%s)", opt, arg,
			pgw_cli_bare_hex ? "" : ", or bare hex with --hex");
}

/* The output format, or a usage error that lists the valid ones (and
 * points an image format at --image-format). */
static void output_format_arg(struct argp_state *state, const char *arg)
{
	char names[128];

	if (formatter_by_name(arg))
		return;
	list_join(names, sizeof(names), list_output_format, " or ");
	for (size_t i = 0; list_image_format(i); i++)
		if (strcmp(list_image_format(i), arg) == 0)
			pgw_usage_error(state, "--format: '%s' is an image "
					"format: give --image-format=%s "
					"(--format is the output: %s)", arg,
					arg, names);
	pgw_usage_error(state, "--format: no output format '%s' (%s)", arg,
			names);
}

/* One bit of an entry's address field (12..51), or 0: none. */
static bool mask_ok(uint64_t m)
{
	return m == 0 || ((m & (m - 1)) == 0 && m >= (UINT64_C(1) << 12) &&
			  m < (UINT64_C(1) << 52));
}

/* arg read as decimal when it is all digits, else 0. */
static uint64_t decimal_value(const char *arg)
{
	uint64_t n = 0;

	for (const char *p = arg; *p; p++) {
		if (*p < '0' || *p > '9' || n > UINT64_MAX / 10 - 1)
			return 0;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	return n;
}

/*
 * A mask is a bit of an entry's physical-address field, so it takes the
 * address syntax (bare hex only with --hex).  VMCOREINFO writes
 * NUMBER(sme_mask) in decimal: a value copied from there is pointed at
 * 0d, which --hex would otherwise read as another number.
 */
static uint64_t mask_arg(const struct argp_state *state, const char *opt,
			 const char *arg)
{
	uint64_t v, dec = decimal_value(arg);
	char hint[96] = "";

	if (dec && mask_ok(dec))
		snprintf(hint, sizeof(hint), "; %s: give 0d%s",
			 strcmp(opt, "sme-mask") == 0 ?
			 "VMCOREINFO's NUMBER(sme_mask) is decimal" :
			 "decimal needs 0d", arg);
	if (!pgw_parse_u64(arg, &v))
		pgw_usage_error(state, "--%s: '%s' is not a number (0x... hex, "
				"0d... decimal%s)%s", opt, arg,
				pgw_cli_bare_hex ? "" : ", or bare hex with "
				"--hex", hint);
	if (!mask_ok(v))
		pgw_usage_error(state, "--%s: 0x%llx is not one bit of the "
				"address field (bits 12-51), nor 0%s", opt,
				(unsigned long long)v, hint);
	return v;
}

static uint64_t count_arg(struct argp_state *state, const char *opt,
			  const char *arg)
{
	char *end;

	errno = 0;
	unsigned long long n = strtoull(arg, &end, 0);
	if (*arg == '\0' || *end || *arg == '-' || *arg == '+' || n == 0)
		pgw_usage_error(state, "--%s: '%s' is not a positive count",
				opt, arg);
	if (errno == ERANGE)
		pgw_usage_error(state, "--%s: '%s' does not fit in 64 bits",
				opt, arg);
	return n;
}

/* More threads than this only open the image more often. */
#define MAX_THREADS 1024

/* The CPUs this process may run on (its affinity mask), at least 1. */
static unsigned cpus_available(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	int n = CPU_COUNT(&set);
	return n > 0 ? (unsigned)n : 1;
}

static bool session_root_key(int key)
{
	return key == OPT_CR3 || key == OPT_CPU || key == OPT_ROOT ||
	       key == OPT_PID || key == OPT_COMM;
}

static error_t session_root_opt(struct session_opts *o, int key,
				char *arg, struct argp_state *state)
{
	switch (key) {
	case OPT_CR3:
		o->cr3_arg = arg;
		break;
	case OPT_CPU: {
		char *end;
		long n = strtol(arg, &end, 10);
		if (*arg == '\0' || *end || n < 0 || n >= PGW_MAX_CPUS)
			pgw_usage_error(state, "--cpu: '%s' is not a CPU number",
				   arg);
		o->space.root.have_cpu = true;
		o->space.root.cpu = (unsigned)n;
		break;
	}
	case OPT_ROOT:
		o->root_arg = arg;
		break;
	case OPT_PID: {
		char *end;
		long n = strtol(arg, &end, 10);
		if (*arg == '\0' || *end || n < 0 || n > INT32_MAX)
			pgw_usage_error(state, "--pid: '%s' is not a process id",
					arg);
		o->space.root.have_pid = true;
		o->space.root.pid = (int32_t)n;
		break;
	}
	case OPT_COMM:
		if (*arg == '\0' || strlen(arg) >= PGW_TASK_COMM_MAX)
			pgw_usage_error(state, "--comm: '%.80s' is not a process "
					"name (1 to %d bytes)", arg,
					PGW_TASK_COMM_MAX - 1);
		o->space.root.comm = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

void session_root_finish(struct session_opts *o, struct argp_state *state)
{
	const struct pgw_root_request *r = &o->space.root;
	uint64_t v;

	if (o->cr3_arg && !pgw_parse_u64(o->cr3_arg, &v))
		pgw_bad_addr_option(state, "cr3", o->cr3_arg);
	if (o->cr3_arg) {
		o->space.root.have_cr3 = true;
		o->space.root.cr3 = v;
	}
	if (o->root_arg && !pgw_parse_u64(o->root_arg, &v))
		pgw_bad_addr_option(state, "root", o->root_arg);
	if (o->root_arg) {
		o->space.root.have_table = true;
		o->space.root.table = v;
	}
	if (o->ttbr0_arg && !pgw_parse_u64(o->ttbr0_arg, &v))
		pgw_bad_addr_option(state, "ttbr0", o->ttbr0_arg);
	if (o->ttbr0_arg) {
		o->space.root.have_ttbr0 = true;
		o->space.root.ttbr0 = v;
	}
	if (o->ttbr1_arg && !pgw_parse_u64(o->ttbr1_arg, &v))
		pgw_bad_addr_option(state, "ttbr1", o->ttbr1_arg);
	if (o->ttbr1_arg) {
		o->space.root.have_ttbr1 = true;
		o->space.root.ttbr1 = v;
	}
	if (r->have_cr3 + r->have_cpu + r->have_table + r->have_pid +
	    (r->comm != NULL) + (r->have_ttbr0 || r->have_ttbr1) > 1)
		pgw_usage_error(state, "--cr3, --cpu, --root, --pid, --comm "
				"and --ttbr0/--ttbr1 each choose the root; give "
				"one");
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct session_opts *o = state->input;
	char names[512];
	uint64_t v;

	switch (key) {
	case 'f':
		output_format_arg(state, arg);
		o->output_format = arg;
		break;
	case 'v':
		o->verbose = true;
		break;
	case OPT_IMAGE_FORMAT:
		o->image_format = arg;
		break;
	case OPT_BASE:
		o->base_arg = arg;
		break;
	case OPT_VMCOREINFO:
		o->vmcoreinfo_arg = arg;
		break;
	case OPT_HEX:
		pgw_cli_bare_hex = true;
		break;
	case OPT_NO_CACHE:
		o->no_cache = true;
		break;
	case OPT_ZERO_EXCLUDED:
		o->open.zero_excluded = true;
		break;
	case OPT_KERNEL_ROOT:
		o->space.root.kernel_half = true;
		break;
	case OPT_TTBR0:
		o->ttbr0_arg = arg;
		break;
	case OPT_TTBR1:
		o->ttbr1_arg = arg;
		break;
	case OPT_SME_MASK:
		o->sme_mask_arg = arg;
		break;
	case OPT_SHARED_MASK:
		o->shared_mask_arg = arg;
		break;
	case OPT_MODE:
		if (!pgw_mode_by_name(arg))
			pgw_usage_error(state, "--mode: unknown mode '%s' (%s)",
					arg, list_join(names, sizeof(names),
						       list_mode, ", "));
		o->space.mode = arg;
		break;
	case OPT_MAX_ENTRIES:
		o->max_entries = count_arg(state, "max-entries", arg);
		break;
	case OPT_THREADS:
		v = count_arg(state, "threads", arg);
		if (v > MAX_THREADS)
			pgw_usage_error(state, "--threads: at most %d",
					MAX_THREADS);
		o->open.threads = (unsigned)v;
		break;
	case ARGP_KEY_END: {
		if (!o->open.threads)
			o->open.threads = cpus_available();
		/* Every option is known now, --hex too. */
		if (o->base_arg && !pgw_parse_u64(o->base_arg, &v))
			pgw_bad_addr_option(state, "base", o->base_arg);
		if (o->base_arg)
			o->open.raw_base = v;
		if (o->vmcoreinfo_arg &&
		    !pgw_parse_u64(o->vmcoreinfo_arg, &v))
			pgw_bad_addr_option(state, "vmcoreinfo",
					    o->vmcoreinfo_arg);
		if (o->vmcoreinfo_arg) {
			o->space.have_vmcoreinfo_pa = true;
			o->space.vmcoreinfo_pa = v;
		}
		session_root_finish(o, state);
		if (o->sme_mask_arg) {
			o->space.enc.have_enc = true;
			o->space.enc.enc = mask_arg(state, "sme-mask",
						    o->sme_mask_arg);
		}
		if (o->shared_mask_arg) {
			o->space.enc.have_shared = true;
			o->space.enc.shared = mask_arg(state, "shared-mask",
						       o->shared_mask_arg);
		}
		if (o->space.enc.enc &&
		    o->space.enc.enc == o->space.enc.shared)
			pgw_usage_error(state, "--sme-mask and --shared-mask "
					"name the same bit");
		break;
	}
	default:
		if (!session_root_key(key))
			return ARGP_ERR_UNKNOWN;
		if (o->root_b && o->nroots == 2)
			pgw_usage_error(state, "give at most two root options");
		if (o->root_b && o->nroots++)
			return session_root_opt(o->root_b, key, arg, state);
		return session_root_opt(o, key, arg, state);
	}
	return 0;
}

static char *help_filter(int key, const char *text, void *input)
{
	char a[512], b[128];
	char *out = NULL;
	int n = -1;

	(void)input;
	switch (key) {
	case 'f':
		n = asprintf(&out, "Output format: %s (info: %s); default text",
			     list_join(a, sizeof(a), list_output_format, ", "),
			     list_join(b, sizeof(b), list_info_format, ", "));
		break;
	case OPT_IMAGE_FORMAT:
		n = asprintf(&out, "Image format, skipping the probe: %s "
			     "(makedumpfile's flattened files are unwrapped "
			     "first, whatever the format)",
			     list_join(a, sizeof(a), list_image_format, ", "));
		break;
	case OPT_MODE:
		n = asprintf(&out, "Paging mode: %s (default: detected)",
			     list_join(a, sizeof(a), list_mode, ", "));
		break;
	}
	return n < 0 ? (char *)text : out;
}

const struct argp session_argp = { options, parse_opt, NULL, NULL, NULL,
				   help_filter, NULL };

const struct argp_child session_children[] = {
	{ &session_argp, 0, NULL, 0 },
	{ 0 }
};

static void session_opts_init(struct session_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->output_format = "text";
}

error_t session_parse_image(struct image_args *a, const char *cmd, int key,
			    char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		session_opts_init(&a->opts);
		state->child_inputs[0] = &a->opts;
		break;
	case ARGP_KEY_ARG:
		if (a->image)
			pgw_usage_error(state, "%s takes one IMAGE", cmd);
		a->image = arg;
		break;
	case ARGP_KEY_END:
		if (!a->image)
			pgw_usage_error(state, "give an IMAGE");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

bool session_space_asked(const struct session_opts *o)
{
	const struct pgw_root_request *r = &o->space.root;

	return r->have_cr3 || r->have_cpu || r->have_table || r->have_pid ||
	       r->comm || r->kernel_half || o->space.mode;
}

/* --mode and a root given: nothing in memory is looked for (a batch
 * starts at once), so neither is the base: byte 0 is physical 0 unless
 * --base says otherwise. */
static bool mode_and_root_named(const struct session *s)
{
	const struct pgw_root_request *r = &s->opts.space.root;

	return s->opts.space.mode && (r->have_cr3 || r->have_table ||
				      r->have_ttbr0 || r->have_ttbr1);
}

/*
 * pgw_raw_base_find decides byte 0 is physical 0 whenever a VMCOREINFO in
 * memory is chosen, which its scan of every page finds: the facts
 * cache's pages say the same when they still hold the candidates they
 * held, each as valid, and one is chosen (checked as pgw_space_open
 * checks the hint), without the scan.
 */
static bool cached_base_zero(struct session *s, const char *path)
{
	const struct pgw_facts_hint *h = &s->cache.hint;
	struct pgw_vmci_found *found;
	struct pgw_err e = { 0 };
	bool held;

	if (s->opts.no_cache)
		return false;
	facts_cache_load(&s->cache, path, s->img, &s->opts.open);
	if (!s->cache.have_hint || !h->nvmci ||
	    !(found = malloc(sizeof(*found))))
		return false;
	struct pgw_scan_opts o = { .only = h->vmci_pa, .nonly = h->nvmci };
	held = pgw_vmcoreinfo_find_in_memory(s->img, &o, found, &e) ==
		       PGW_OK &&
	       found->ncandidates == h->nvmci && found->nlisted == h->nvmci;
	for (size_t i = 0; held && i < h->nvmci; i++)
		held = found->cand[i].pa == h->vmci_pa[i] &&
		       found->cand[i].valid == h->vmci_valid[i];
	free(found);
	return held;
}

/* A raw image given no --base: where its RAM starts, by its content;
 * the image opened again there when that is not 0. */
static enum pgw_status find_raw_base(struct session *s, const char *path,
				     struct pgw_err *err)
{
	struct pgw_raw_base rb;

	if ((s->base_cached = cached_base_zero(s, path)))
		return PGW_OK;
	/* Another base: the cache's VMCOREINFO pages (loaded just above)
	 * spare the base's scan too. */
	if (!s->opts.no_cache && s->cache.have_hint)
		pgw_image_keep_scan_hint(s->img, &s->cache.hint);
	enum pgw_status st = pgw_raw_base_find(s->img, path, &s->opts.open,
					       &rb, err);

	if (st != PGW_OK) {
		pgw_image_close(s->img);
		s->img = NULL;
		return st;
	}
	if (!rb.decided || rb.base == 0)
		return PGW_OK;
	pgw_image_close(s->img);
	s->img = NULL;
	s->opts.open.raw_base = rb.base;
	s->opts.open.raw_base_why = rb.why;
	st = pgw_image_open(&s->img, path, &s->opts.open, err);
	s->opts.open.raw_base_why = NULL;
	return st;
}

int session_open_image(struct session *s, const char *path)
{
	struct pgw_err err = { 0 };
	enum pgw_status st;

	s->path = path;
	pgw_mapped_image = path;
	s->opts.open.format = s->opts.image_format;
	st = pgw_image_open(&s->img, path, &s->opts.open, &err);
	if (st == PGW_OK && !s->opts.base_arg && !mode_and_root_named(s) &&
	    strcmp(pgw_image_format(s->img), "raw") == 0 &&
	    (st = find_raw_base(s, path, &err)) != PGW_OK) {
		pgw_cli_error("%s: %s", path, err.msg);
		return pgw_exit_for(st);
	}
	if (st != PGW_OK) {
		pgw_cli_error("%s", err.msg);
		return pgw_exit_for(st);
	}
	return 0;
}

/* What the session's kernel memo can give a later command (NULL:
 * nothing new). */
static const struct pgw_kernel_facts *kernel_found(struct session *s)
{
	static struct pgw_kernel_facts found;

	return s->kernel && pgw_linux_kernel_found(s->kernel, &found) ?
		       &found : NULL;
}

int session_choose(struct session *s)
{
	struct pgw_err err = { 0 };
	enum pgw_status st;

	/* A pgd as crash's `vm` prints it is virtual: say so before
	 * walking from garbage. */
	if (s->opts.space.root.have_cr3 && hint_cr3_virtual(s))
		return PGW_EXIT_USAGE;
	if (!s->kernel && pgw_linux_kernel_new(&s->kernel, &err) != PGW_OK)
		s->kernel = NULL;
	if (!s->opts.no_cache) {
		facts_cache_load(&s->cache, s->path, s->img, &s->opts.open);
		if (s->cache.have_hint)
			s->opts.space.hint = &s->cache.hint;
		if (s->cache.kernel.have && s->kernel)
			pgw_linux_kernel_hint(s->kernel, &s->cache.kernel.k);
	}
	s->opts.space.root.kernel_memo = s->kernel;
	st = pgw_space_open(s->img, &s->opts.space, &s->space, &s->why, &err);
	/* What the scans found holds whether or not a root was had. */
	if (!s->opts.no_cache)
		facts_cache_save(&s->cache, &s->why.facts, kernel_found(s));
	if (st != PGW_OK) {
		if (!hint_root_failed(s, &err))
			pgw_cli_error("%s: %s", s->path, err.msg);
		return pgw_exit_for(st);
	}
	if (s->why.facts.conflict && !s->conflict_in_record)
		out_text_line(stderr, "pgwalk: warning: VMCOREINFO in memory: ",
			      s->why.facts.choice, "\n");
	if (s->why.mode.conflict[0] && !s->conflict_in_record)
		out_text_line(stderr, "pgwalk: warning: conflicting "
			      "paging-mode evidence: ", s->why.mode.conflict,
			      "\n");
	/* Never picked silently: the first note was read. */
	if (pgw_vmcoreinfo_conflict(s->img))
		out_text_line(stderr, "pgwalk: warning: two VMCOREINFO notes "
			      "disagree (", pgw_vmcoreinfo_conflict(s->img),
			      "): the first was read, so the answer may be "
			      "about another kernel than the one that ran "
			      "(check and roots exit 65)\n");
	return 0;
}

int session_start(struct session *s, const struct image_args *a)
{
	int rc;

	s->opts = a->opts;
	rc = session_open_image(s, a->image);
	return rc ? rc : session_choose(s);
}

void session_say_kernel_cache(const struct session *s)
{
	struct pgw_kernel_hint_use use = { 0 };

	if (!s->opts.verbose || !s->kernel)
		return;
	pgw_linux_kernel_hint_use(s->kernel, &use);
	if (use.tasks)
		out_text_line(stderr, "pgwalk: cache: the task list's "
			      "init_task and layout an earlier command found, the "
			      "kallsyms and BTF pages they came from hashed "
			      "and the list checked again (kallsyms and BTF "
			      "not parsed; ", s->cache.file, ")\n");
	else if (use.why_not[0])
		out_text_line(stderr, "pgwalk: cache: the task list's facts "
			      "not used (", use.why_not, ")\n");
}

/* Which facts the cache gave (each checked again), or why its entry
 * was not used. */
static void say_cache(const struct session *s)
{
	const struct pgw_facts_why *f = &s->why.facts;
	char head[160];

	if (s->cache.note[0])
		out_text_line(stderr, "pgwalk: cache: entry not used (",
			      s->cache.note, ")\n");
	if (f->vmci_hinted) {
		snprintf(head, sizeof(head), "pgwalk: cache: the %zu "
			 "VMCOREINFO candidate page%s an earlier scan found, "
			 "each checked again (not every page scanned; ",
			 f->found.nvmci, f->found.nvmci == 1 ? "" : "s");
		out_text_line(stderr, head, s->cache.file, ")\n");
	}
	if (s->base_cached)
		out_text_line(stderr, "pgwalk: cache: byte 0 is physical 0, "
			      "as the VMCOREINFO pages an earlier scan found "
			      "say, each checked again (not every page "
			      "scanned for the base; ", s->cache.file, ")\n");
	session_say_kernel_cache(s);
	if (f->kroot_hinted) {
		snprintf(head, sizeof(head), "pgwalk: cache: the kernel root "
			 "0x%llx (%s) an earlier scan found, checked again "
			 "(not every page scanned; ",
			 (unsigned long long)f->found.kroot,
			 f->found.kroot_mode->name);
		out_text_line(stderr, head, s->cache.file, ")\n");
	}
}

void session_say(const struct session *s)
{
	char head[160];

	if (!s->opts.verbose)
		return;
	say_cache(s);
	/* Memory searched for the kernel's facts (no valid note): what
	 * was found decided what follows. */
	if (s->why.facts.source == PGW_FACTS_MEMORY ||
	    s->why.facts.source == PGW_FACTS_NONE)
		out_text_line(stderr, s->why.facts.source == PGW_FACTS_MEMORY ?
			      "pgwalk: vmcoreinfo memory (" :
			      "pgwalk: vmcoreinfo none (", s->why.facts.why,
			      ")\n");
	if (s->why.facts.choice[0])
		out_text_line(stderr, "pgwalk: vmcoreinfo candidates (",
			      s->why.facts.choice, ")\n");
	snprintf(head, sizeof(head), "pgwalk: mode %s (",
		 s->space.mode->name);
	out_text_line(stderr, head, s->why.mode.why, ")\n");
	snprintf(head, sizeof(head), "pgwalk: root 0x%llx (",
		 (unsigned long long)s->space.root);
	out_text_line(stderr, head, s->why.root.why, ")\n");
	/* Said when it changes how frames are read: bits in use, or an
	 * option that asked for none. */
	const struct pgw_enc_choice *e = &s->why.enc;
	if (e->bits.enc || e->bits.shared || e->source == PGW_ENC_OPTION ||
	    e->shared_source == PGW_ENC_OPTION) {
		char name[64];
		session_enc_name(e, name, sizeof(name));
		snprintf(head, sizeof(head), "pgwalk: encryption %s (", name);
		out_text_line(stderr, head, e->why, ")\n");
	}
}

void session_enc_name(const struct pgw_enc_choice *e, char *buf, size_t n)
{
	if (e->bits.enc && e->bits.shared)
		snprintf(buf, n, "C-bit %u, shared bit %u",
			 (unsigned)__builtin_ctzll(e->bits.enc),
			 (unsigned)__builtin_ctzll(e->bits.shared));
	else if (e->bits.enc)
		snprintf(buf, n, "C-bit %u",
			 (unsigned)__builtin_ctzll(e->bits.enc));
	else if (e->bits.shared)
		snprintf(buf, n, "shared bit %u",
			 (unsigned)__builtin_ctzll(e->bits.shared));
	else
		snprintf(buf, n, "none");
}

enum pgw_status session_tasks(struct session *s, struct pgw_task **tasks_ret,
			      size_t *n_ret, struct pgw_tasks_how *how,
			      struct pgw_err *err)
{
	enum pgw_status st;

	if (!s->kernel)
		return pgw_linux_tasks_how(&s->space, tasks_ret, n_ret, how,
					   err);
	const struct pgw_task *t = pgw_linux_kernel_tasks(s->kernel, &s->space,
							  n_ret, how, &st,
							  err);
	*tasks_ret = NULL;
	if (*n_ret && !(*tasks_ret = malloc(*n_ret * sizeof(*t)))) {
		*n_ret = 0;
		return PGW_E_NOMEM;
	}
	if (*n_ret)
		memcpy(*tasks_ret, t, *n_ret * sizeof(*t));
	return st;
}

int session_start_kernel(struct session *s, struct image_args *a)
{
	a->opts.space.root.kernel = true;
	int rc = session_start(s, a);
	if (rc)
		session_close(s);
	return rc;
}

void session_close(struct session *s)
{
	/* The names read after the set-up may have found more. */
	if (!s->opts.no_cache && s->kernel) {
		const struct pgw_kernel_facts *kf = kernel_found(s);
		if (kf)
			facts_cache_save_kernel(&s->cache, kf);
	}
	pgw_linux_kernel_free(s->kernel);
	s->kernel = NULL;
	pgw_image_close(s->img);
	s->img = NULL;
}
