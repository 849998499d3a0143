/*
 * pgwalk search: where patterns lie in memory.  Physical memory (--phys)
 * a frame at a time, or one address space in address order through its
 * page tables (PROT_NONE pages too: Linux still knows their frames), so
 * a match may run across pages that follow one another virtually
 * whatever their frames.  Each hit names its physical and virtual
 * address, the root and its process; a page the image lacks is counted
 * as not searched, never read as zeros.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "addr_names.h"
#include "commands.h"
#include "exit_codes.h"
#include "layout_opts.h"
#include "search_out.h"
#include "search_roots.h"
#include "session.h"

enum { OPT_STRING = 1024, OPT_WIDE, OPT_HEXPAT, OPT_REGEX, OPT_YARA, OPT_PHYS,
       OPT_CONTEXT, OPT_MAX_HITS, OPT_ALL_ROOTS, OPT_MAP, OPT_KERNEL_HALF,
       OPT_NAMES };

/* Patterns a search takes (each also wide: twice as many compiled). */
#define MAX_PATTERNS 256
#define DEFAULT_MAX_HITS 1000

struct pattern_arg {
	enum pgw_pattern_kind kind;
	const char *text;
};

struct search_args {
	struct image_args in;
	struct pattern_arg pat[MAX_PATTERNS];
	size_t npat;
	bool wide, phys, all_roots, map, kernel_half, names;
	size_t context;
	uint64_t max_hits;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Patterns (one or more):", 4 },
	{ "string", OPT_STRING, "TEXT", 0,
	  "These bytes (as given: ASCII, UTF-8)", 4 },
	{ "wide", OPT_WIDE, NULL, 0,
	  "Also look for each --string as UTF-16LE (each byte, then 0)", 4 },
	{ "hex", OPT_HEXPAT, "BYTES", OPTION_ARG_OPTIONAL,
	  "These bytes in hex, ?? for any byte (4d5a??00; spaces between "
	  "pairs allowed).  --hex alone is the shared option: bare words "
	  "are hex addresses", 4 },
	{ "regex", OPT_REGEX, "ERE", 0,
	  "Matches of this POSIX extended regular expression (bytes, the C "
	  "locale), each at most 1024 bytes long", 4 },
	{ "yara", OPT_YARA, "RULES", 0,
	  "The string matches of the YARA rules in this file that match "
	  "(libyara, loaded when asked for; conditions hold over 256 KiB "
	  "of contiguous memory at a time)", 4 },
	{ NULL, 0, NULL, 0, "Search:", 5 },
	{ "phys", OPT_PHYS, NULL, 0,
	  "Search physical memory, every frame the image describes once, "
	  "instead of an address space", 5 },
	{ "all-roots", OPT_ALL_ROOTS, NULL, 0,
	  "Search physical memory once and name each hit by every root "
	  "`pgwalk roots` finds that maps its frame (pid, comm, va; the "
	  "direct map too)", 5 },
	{ "map", OPT_MAP, NULL, 0,
	  "With --phys: the same, each hit's frame mapped back through "
	  "every root", 5 },
	{ "kernel-half", OPT_KERNEL_HALF, NULL, 0,
	  "With --pid or --comm: the kernel half too, which every process "
	  "shares (by default a process's search is its user half, as its "
	  "dump is)", 5 },
	{ "context", OPT_CONTEXT, "N", 0,
	  "Show N bytes before and after each match (default 16, at most "
	  "4096)", 5 },
	{ "max-hits", OPT_MAX_HITS, "N", 0,
	  "List at most N hits (default 1000); the rest are counted", 5 },
	{ "names", OPT_NAMES, NULL, 0,
	  "Name each hit's address: a kernel address by its kallsyms "
	  "symbol or its module (symbol+0xOFF [module]), a user address "
	  "by its VMA (path, file offset) when the "
	  "process is known; --pid, --comm, --all-roots and --map name "
	  "without it", 5 },
	{ 0 }
};

static bool parse_count(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	unsigned long long n = strtoull(s, &end, 10);
	if (*end || n > max)
		return false;
	*v = n;
	return true;
}

static void add_pattern(struct search_args *a, struct argp_state *state,
			enum pgw_pattern_kind kind, const char *text)
{
	if (a->npat == MAX_PATTERNS)
		pgw_usage_error(state, "at most %d patterns", MAX_PATTERNS);
	a->pat[a->npat++] = (struct pattern_arg){ kind, text };
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct search_args *a = state->input;
	uint64_t v;

	switch (key) {
	case OPT_STRING:
		add_pattern(a, state, PGW_PATTERN_STRING, arg);
		break;
	case OPT_WIDE:
		a->wide = true;
		break;
	case OPT_REGEX:
		add_pattern(a, state, PGW_PATTERN_REGEX, arg);
		break;
	case OPT_YARA:
		add_pattern(a, state, PGW_PATTERN_YARA, arg);
		break;
	case OPT_HEXPAT:
		if (arg)
			add_pattern(a, state, PGW_PATTERN_HEX, arg);
		else
			pgw_cli_bare_hex = true;
		break;
	case OPT_PHYS:
		a->phys = true;
		break;
	case OPT_ALL_ROOTS:
		a->all_roots = true;
		break;
	case OPT_MAP:
		a->map = true;
		break;
	case OPT_NAMES:
		a->names = true;
		break;
	case OPT_KERNEL_HALF:
		a->kernel_half = true;
		break;
	case OPT_CONTEXT:
		if (!parse_count(arg, PGW_SEARCH_CONTEXT_MAX, &v))
			pgw_usage_error(state, "--context: '%s' is not a count "
					"of bytes from 0 to %d", arg,
					PGW_SEARCH_CONTEXT_MAX);
		a->context = (size_t)v;
		break;
	case OPT_MAX_HITS:
		if (!parse_count(arg, UINT32_MAX, &v) || v == 0)
			pgw_usage_error(state, "--max-hits: '%s' is not a "
					"positive count", arg);
		a->max_hits = v;
		break;
	case ARGP_KEY_INIT:
		a->context = 16;
		a->max_hits = DEFAULT_MAX_HITS;
		return session_parse_image(&a->in, "search", key, arg, state);
	case ARGP_KEY_END:
		if (a->npat == 0)
			pgw_usage_error(state, "give a pattern: --string=TEXT, "
					"--hex=BYTES, --regex=ERE or "
					"--yara=RULES");
		return session_parse_image(&a->in, "search", key, arg, state);
	case ARGP_KEY_SUCCESS:
		if (a->kernel_half && !a->in.opts.space.root.have_pid &&
		    !a->in.opts.space.root.comm)
			pgw_usage_error(state, "--kernel-half goes with --pid or "
					"--comm (any other root is searched "
					"whole)");
		if (a->map && !a->phys)
			pgw_usage_error(state, "--map maps what --phys finds: "
					"give --phys (or --all-roots)");
		if (a->phys && !a->map && session_space_asked(&a->in.opts))
			pgw_usage_error(state, "--phys searches physical "
					"memory: no root or mode to choose");
		if (a->all_roots && a->phys && !a->map)
			pgw_usage_error(state, "--all-roots searches physical "
					"memory once: leave out --phys (or add "
					"--map)");
		if ((a->all_roots || a->map) &&
		    (a->in.opts.space.root.have_cpu ||
		     a->in.opts.space.root.have_pid ||
		     a->in.opts.space.root.comm ||
		     a->in.opts.space.root.kernel_half))
			pgw_usage_error(state, "--all-roots walks every root; "
					"only --root or --cr3 may name the "
					"kernel's");
		break;
	default:
		return session_parse_image(&a->in, "search", key, arg, state);
	}
	return 0;
}

static const char doc[] =
	"Search memory for patterns: an address space in address order (the "
	"kernel's root unless --cr3, --cpu, --root, --pid or --comm chooses "
	"another; its whole space, PROT_NONE pages included), or physical "
	"memory with --phys; --all-roots (or --phys --map) searches physical "
	"memory once and names each hit by every root `pgwalk roots` finds "
	"that maps its frame.  A match may run across pages that follow one "
	"another (virtually in a space, whatever their frames; physically "
	"otherwise).  Each hit gives pa, va, "
	"root, pid and comm (when the root is a process's), the pattern, "
	"the bytes matched and --context bytes around them (escaped); a "
	"summary says how many bytes were searched and how many the image "
	"lacks (filtered out, truncated: counted, never searched as "
	"zeros).\v"
	"Output: text, json (hit {pa, va, root, pid, comm, pattern, size, "
	"hex, context_start, context (physical with --phys and --all-roots)}, "
	"summary), csv or tsv.  The VMA a hit "
	"lies in is not given.  Exit status: 0 a match, and everything was "
	"searched; 1 no match; 2 the image lacks pages of the memory or page "
	"tables searched (data not in the image other than device memory "
	"outside it, or a page table); 4 more hits than --max-hits (all "
	"counted) or the entry budget cut the walk; 3 no root or mode, 64 "
	"usage, 65 bad image, 66 cannot open, 74 cannot write.  When "
	"several apply, the highest of 1, 2 and 4.";

static const struct argp search_argp = {
	options, parse_opt, "IMAGE", doc, session_children, NULL, NULL
};

/* The hits of the library's search, printed at once or (--all-roots)
 * kept to be mapped. */
struct printer {
	struct out *out;
	struct hit_store *hold;       /* NULL: printed at once */
	bool oom;
	struct search_hit base;       /* root, pid, comm of every hit */
	bool phys;
};

static int on_hit(void *arg, const struct pgw_search_hit *sh)
{
	struct printer *pr = arg;
	struct search_hit h = pr->base;

	h.pa = sh->pa;
	h.have_va = !pr->phys;
	h.va = sh->addr;
	h.kind = sh->kind;
	h.text = sh->text;
	h.rule = sh->rule;
	h.rule_string = sh->rule_string;
	h.match = sh->match;
	h.size = sh->size;
	h.context_start = sh->context_start;
	h.context = sh->context;
	h.context_len = sh->context_len;
	h.before = sh->before;
	h.same_frame_pages = sh->same_frame_pages;
	h.page_size = sh->page_size;
	if (!pr->hold)
		search_say_hit(pr->out, &h);
	else if (!hit_store_add(pr->hold, &h))
		pr->oom = true;
	return pgw_output_failed() || pr->oom;
}

/* A process's own, user half (as dump --pid), unless the kernel half
 * is asked for too; any other root whole. */
static int virt_end(struct session *s, bool kernel_half, uint64_t *end)
{
	const struct pgw_root_request *rq = &s->opts.space.root;
	struct pgw_layout_request req = { 0 };
	struct pgw_layout layout;
	int rc;

	*end = 0;
	if ((!rq->have_pid && !rq->comm) || kernel_half)
		return 0;
	if ((rc = cli_layout(s, &req, &layout)))
		return rc;
	*end = cli_user_end(&layout, s->space.mode);
	return 0;
}

/* The root and its process, named by every hit of its space. */
static void name_space(struct session *s, struct search_hit *base)
{
	const struct pgw_root *r = &s->why.root;

	base->have_root = true;
	base->root = s->space.root;
	if (r->source == PGW_ROOT_TASK) {
		base->have_pid = true;
		base->pid = r->pid;
		base->comm = r->comm;
		base->comm_len = r->comm_len;
	}
}

/* Run the library's search: 0 or an exit status (message said). */
static int run_search(struct session *s, const struct pgw_patterns *pat,
		      const struct search_args *a, struct printer *pr,
		      struct search_summary *sum)
{
	struct pgw_search_opts so = {
		.max_entries = s->opts.max_entries, .context = a->context,
		.max_hits = a->max_hits,
	};
	struct pgw_search_stats stats;
	struct pgw_err err = { 0 };
	int rc = 0;

	if (!a->phys) {
		if ((rc = virt_end(s, a->kernel_half, &so.end)))
			return rc;
		name_space(s, &pr->base);
	}
	enum pgw_status st = pgw_search(pat, s->img,
					a->phys ? NULL : &s->space, &so,
					on_hit, pr, &stats, &err);
	sum->hits = stats.hits;
	sum->listed = stats.given;
	sum->bytes_searched = stats.bytes_searched;
	memcpy(sum->not_in_image, stats.not_in_image,
	       sizeof(sum->not_in_image));
	sum->tables_not_in_image = stats.tables_not_in_image;
	if (st == PGW_E_LIMIT) {
		pgw_cli_error("%s: the entry budget stopped the walk "
			      "(--max-entries): the rest was not searched",
			      s->path);
		sum->reason = "budget";
	} else if (st == PGW_E_STOPPED && pr->oom) {
		pgw_cli_error("out of memory: hits were lost");
		rc = PGW_EXIT_INTERNAL;
	} else if (st == PGW_E_UNSUPPORTED) {
		pgw_cli_error("search: --yara: %s", err.msg);
		rc = PGW_EXIT_INTERNAL;
	} else if (st == PGW_E_NOMEM) {
		pgw_cli_error("out of memory: hits were lost");
		rc = PGW_EXIT_INTERNAL;
	} else if (st != PGW_OK && st != PGW_E_STOPPED) {
		pgw_cli_error("%s: %s", s->path, err.msg);
		rc = pgw_exit_for(st);
	}
	return rc;
}

/* ---- the end ---- */

/* The summary's verdict and the exit status: device memory outside the
 * image was never RAM the image promised, so it does not make the answer
 * partial; every other absence does. */
static int conclude(struct search_summary *s)
{
	int rc = s->hits ? 0 : PGW_EXIT_NOANSWER;
	uint64_t unseen = 0;

	for (int i = 0; i < PGW_NABSENCES; i++)
		s->bytes_not_in_image += s->not_in_image[i];
	unseen = s->bytes_not_in_image - s->not_in_image[PGW_ABSENT_OUTSIDE];
	if (unseen || s->tables_not_in_image)
		rc = PGW_EXIT_EVIDENCE;
	if (s->hits > s->listed || s->reason)
		rc = PGW_EXIT_LIMIT;
	if (!s->reason)
		s->reason = s->hits > s->listed ? "hit-limit" :
			    s->tables_not_in_image ? "table-not-in-image" :
			    unseen ? "data-not-in-image" : NULL;
	s->complete = s->reason == NULL;
	return rc;
}

static void say_unseen(const struct search_summary *s, const char *path)
{
	for (int i = 1; i < PGW_NABSENCES; i++)
		if (s->not_in_image[i])
			pgw_cli_error("%s: %llu bytes not searched: not in the "
				      "image (%s)", path,
				      (unsigned long long)s->not_in_image[i],
				      pgw_absence_key((enum pgw_absence)i));
	if (s->tables_not_in_image)
		pgw_cli_error("%s: %llu page tables are not in the image: "
			      "what they map was not searched", path,
			      (unsigned long long)s->tables_not_in_image);
	if (s->hits > s->listed)
		pgw_cli_error("%llu hits, %llu listed (--max-hits)",
			      (unsigned long long)s->hits,
			      (unsigned long long)s->listed);
}

/* Say why the pattern given as --KIND=TEXT is none: an exit status. */
static int refused(const struct pattern_arg *pa, bool wide,
		   const struct pgw_err *err)
{
	static const char *const opt[] = {
		[PGW_PATTERN_STRING] = "pgwalk: search: --string='",
		[PGW_PATTERN_HEX] = "pgwalk: search: --hex='",
		[PGW_PATTERN_REGEX] = "pgwalk: search: --regex='",
		[PGW_PATTERN_YARA] = "pgwalk: search: --yara='",
	};

	if (wide || pa->kind != PGW_PATTERN_YARA || err->status == PGW_E_ARG) {
		out_text_line(stderr, wide ? "pgwalk: search: --wide '" :
					     opt[pa->kind], pa->text, "' ");
		/* libyara's message quotes the rules file: escaped; pgwalk's
		 * own are plain sentences. */
		if (pa->kind == PGW_PATTERN_YARA)
			out_text_line(stderr, "", err->msg, "\n");
		else
			fprintf(stderr, "%s\n", err->msg);
		return PGW_EXIT_USAGE;
	}
	if (err->status == PGW_E_IO) {
		out_text_line(stderr, "pgwalk: search: --yara: cannot open '",
			      pa->text, "'\n");
		return PGW_EXIT_NOINPUT;
	}
	pgw_cli_error("search: %s", err->msg);
	return err->status == PGW_E_UNSUPPORTED ? PGW_EXIT_UNSUPPORTED :
						  PGW_EXIT_INTERNAL;
}

/* The patterns to look for: each as given, and with --wide each
 * string's UTF-16LE form after it. */
static int compile(const struct search_args *a, struct pgw_patterns **pat_ret)
{
	struct pgw_err err = { 0 };
	struct pgw_patterns *pat;

	if (pgw_patterns_new(&pat, &err) != PGW_OK) {
		pgw_cli_error("out of memory");
		return PGW_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < a->npat; i++) {
		const struct pattern_arg *pa = &a->pat[i];
		bool wide = a->wide && pa->kind == PGW_PATTERN_STRING;
		int rc = 0;
		if (pgw_patterns_add(pat, pa->kind, pa->text, &err) != PGW_OK)
			rc = refused(pa, false, &err);
		else if (wide && pgw_patterns_add(pat, PGW_PATTERN_WIDE,
						  pa->text, &err) != PGW_OK)
			rc = refused(pa, true, &err);
		if (rc) {
			pgw_patterns_free(pat);
			return rc;
		}
	}
	*pat_ret = pat;
	return 0;
}

int cmd_search(int argc, char **argv)
{
	struct search_args a = { 0 };
	struct session s = { 0 };
	struct pgw_patterns *pat = NULL;
	struct hit_store store = { 0 };
	struct search_summary sum = { 0 };
	int rc, names_rc = 0;

	pgw_argp_parse(&search_argp, argc, argv, &a);
	if ((rc = compile(&a, &pat)))
		return rc;
	/* --all-roots: physical memory once, then every root, compared
	 * with the kernel's own. */
	bool map = a.all_roots || a.map;
	if (map) {
		a.phys = true;
		a.in.opts.space.root.kernel = true;
	}
	s.opts = a.in.opts;
	rc = session_open_image(&s, a.in.image);
	if (!rc && (!a.phys || map))
		rc = session_choose(&s);
	if (rc) {
		session_close(&s);
		pgw_patterns_free(pat);
		return rc;
	}
	if (!a.phys || map)
		session_say(&s);

	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = {
		.f = stdout, .fmt = formatter_by_name(a.in.opts.output_format),
		.mode = a.phys ? NULL : s.space.mode, .phys = a.phys,
	};
	/* Names where asked, or where the task list is read anyway (a
	 * process chosen by pid or comm, every root's owner). */
	struct addr_names names;
	bool by_task = s.why.root.source == PGW_ROOT_TASK || map;
	if ((!a.phys || map) && (a.names || by_task)) {
		names_open(&names, &s, true, a.names);
		out.names = &names;
	}
	struct printer pr = { .out = &out, .hold = map ? &store : NULL,
			      .phys = a.phys };
	sum.patterns = pgw_patterns_count(pat);
	out_table(&out, &search_table, NULL);
	rc = run_search(&s, pat, &a, &pr, &sum);
	if (!rc && map)
		rc = search_map_roots(&s, &out, &store, &sum, &names_rc);
	if (!rc) {
		rc = pgw_exit_worst(conclude(&sum), names_rc);
		search_say_summary(&out, &sum);
		say_unseen(&sum, s.path);
	}
	rc = pgw_cli_flush(rc);
	hit_store_free(&store);
	if (out.names)
		names_close(out.names);
	pgw_patterns_free(pat);
	session_close(&s);
	return rc;
}
