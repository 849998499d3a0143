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

#include "commands.h"
#include "exit_codes.h"
#include "layout_opts.h"
#include "search_out.h"
#include "search_roots.h"
#include "search_scan.h"
#include "session.h"
#include "yara_rules.h"

enum { OPT_STRING = 1024, OPT_WIDE, OPT_HEXPAT, OPT_REGEX, OPT_YARA, OPT_PHYS,
       OPT_CONTEXT, OPT_MAX_HITS, OPT_ALL_ROOTS, OPT_MAP, OPT_KERNEL_HALF };

/* Patterns a search takes (each also wide: twice as many compiled). */
#define MAX_PATTERNS 256
#define CONTEXT_MAX 4096
#define DEFAULT_MAX_HITS 1000

struct pattern_arg {
	enum pattern_kind kind;
	const char *text;
};

struct search_args {
	struct image_args in;
	struct pattern_arg pat[MAX_PATTERNS];
	size_t npat;
	bool wide, phys, all_roots, map, kernel_half;
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
			enum pattern_kind kind, const char *text)
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
		add_pattern(a, state, PAT_STRING, arg);
		break;
	case OPT_WIDE:
		a->wide = true;
		break;
	case OPT_REGEX:
		add_pattern(a, state, PAT_REGEX, arg);
		break;
	case OPT_YARA:
		add_pattern(a, state, PAT_YARA, arg);
		break;
	case OPT_HEXPAT:
		if (arg)
			add_pattern(a, state, PAT_HEX, arg);
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
	case OPT_KERNEL_HALF:
		a->kernel_half = true;
		break;
	case OPT_CONTEXT:
		if (!parse_count(arg, CONTEXT_MAX, &v))
			pgw_usage_error(state, "--context: '%s' is not a count "
					"of bytes from 0 to %d", arg,
					CONTEXT_MAX);
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

struct searcher {
	struct session *s;
	struct out *out;
	const struct pattern *pat;
	bool phys;
	size_t context;
	uint64_t max_hits;
	struct hit_store *hold;       /* --all-roots: hits kept to be
					 mapped; NULL: printed at once */
	bool oom;
	struct search_hit base;       /* root, pid, comm of every hit */
	uint64_t same_frame_pages;    /* the leaf being searched: a shared
					 table maps it this many times */
	uint64_t page_size;
	struct search_summary sum;
	uint8_t page[PGW_PAGE_SIZE];
};

/* The frame behind addr (a va, or a pa with --phys), PROT_NONE pages'
 * too; false when there is none. */
static bool frame_of(struct searcher *se, uint64_t addr, uint64_t *pa)
{
	struct pgw_xlat x;

	if (se->phys) {
		*pa = addr;
		return true;
	}
	if (pgw_translate(&se->s->space, addr, &x) == PGW_STOP_OK) {
		*pa = x.pa;
		return true;
	}
	if (x.stop != PGW_STOP_NOT_PRESENT || x.nsteps == 0)
		return false;
	const struct pgw_step *st = &x.step[x.nsteps - 1];
	if (!st->read_ok || st->entry.np_kind != PGW_NP_PROTNONE)
		return false;
	uint64_t span = UINT64_C(1) << se->s->space.mode->level[st->level].shift;
	*pa = (st->entry.np_pfn << PGW_PAGE_SHIFT) + (addr & (span - 1));
	return true;
}

/* Up to n bytes at addr, as far as they can be read. */
static size_t fetch(struct searcher *se, uint64_t addr, uint8_t *out,
		    size_t n)
{
	size_t got = 0;
	struct pgw_err err = { 0 };

	while (got < n) {
		uint64_t pa;
		size_t off = (size_t)(addr & (PGW_PAGE_SIZE - 1));
		size_t take = PGW_PAGE_SIZE - off;
		if (take > n - got)
			take = n - got;
		if (!frame_of(se, addr, &pa) ||
		    pgw_image_read_page(se->s->img, pa >> PGW_PAGE_SHIFT,
					se->page, &err) != PGW_OK)
			break;
		memcpy(out + got, se->page + (pa & (PGW_PAGE_SIZE - 1)),
		       take);
		got += take;
		addr += take;
	}
	return got;
}

/* The context before addr: the bytes nearest it that can be read. */
static size_t fetch_before(struct searcher *se, uint64_t addr, uint8_t *out,
			   size_t n)
{
	if (n > addr)
		n = (size_t)addr;
	size_t got = 0;
	while (got < n) {
		/* The piece just before what is already fetched, within one
		 * page. */
		uint64_t end = addr - got;
		size_t take = (size_t)(((end - 1) & (PGW_PAGE_SIZE - 1)) + 1);
		if (take > n - got)
			take = n - got;
		if (fetch(se, end - take, out + n - got - take, take) != take)
			break;
		got += take;
	}
	memmove(out, out + n - got, got);
	return got;
}

static void on_hit(void *arg, const struct scan_hit *sh)
{
	struct searcher *se = arg;
	const struct pattern *p = &se->pat[sh->pattern];
	static uint8_t ctx[2 * CONTEXT_MAX + PATTERN_MAX];

	se->sum.hits++;
	if (se->sum.listed == se->max_hits)
		return;
	se->sum.listed++;
	size_t before = fetch_before(se, sh->addr, ctx, se->context);
	size_t got = fetch(se, sh->addr, ctx + before, sh->len);
	size_t after = got == sh->len ?
		fetch(se, sh->addr + sh->len, ctx + before + sh->len,
		      se->context) : 0;
	struct search_hit h = se->base;
	h.pa = sh->pa;
	h.have_va = !se->phys;
	h.va = sh->addr;
	h.pattern = p;
	h.rule = sh->rule;
	h.rule_string = sh->string;
	h.match = ctx + before;
	h.size = got;
	h.context_start = sh->addr - before;
	h.context = ctx;
	h.context_len = before + got + after;
	h.before = before;
	h.same_frame_pages = se->same_frame_pages;
	h.page_size = se->page_size;
	if (!se->hold)
		search_say_hit(se->out, &h);
	else if (!hit_store_add(se->hold, &h))
		se->oom = true;
}

/* The page at addr, frame pa, into the scanner, or counted as not in
 * the image. */
static void feed(struct searcher *se, struct scanner *sc, uint64_t addr,
		 uint64_t pa)
{
	struct pgw_image *img = se->s->img;
	uint64_t pfn = pa >> PGW_PAGE_SHIFT;
	enum pgw_absence why = pgw_image_page_state(img, pfn);
	struct pgw_err err = { 0 };

	if (why == PGW_ABSENT_NONE) {
		uint8_t *slot = scan_slot(sc, addr, pa);
		if (pgw_image_read_page(img, pfn, slot, &err) == PGW_OK) {
			scan_commit(sc);
			return;
		}
		why = err.absence != PGW_ABSENT_NONE ? err.absence :
						       PGW_ABSENT_CORRUPT;
	}
	se->sum.not_in_image[why] += PGW_PAGE_SIZE;
	scan_break(sc);
}

/* ---- physical memory ---- */

static int cmp_range(const void *a, const void *b)
{
	const struct pgw_phys_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Every frame the image describes, once (ranges may overlap). */
static int search_phys(struct searcher *se, struct scanner *sc)
{
	const struct pgw_phys_range *r0;
	size_t n = pgw_image_ranges(se->s->img, &r0);
	struct pgw_phys_range *r = malloc((n ? n : 1) * sizeof(*r));
	uint64_t done = 0;   /* frames below this were searched */

	if (!r) {
		pgw_cli_error("out of memory");
		return PGW_EXIT_INTERNAL;
	}
	if (n) {
		memcpy(r, r0, n * sizeof(*r));
		qsort(r, n, sizeof(*r), cmp_range);
	}
	for (size_t i = 0; i < n && !pgw_output_failed(); i++) {
		uint64_t pa = r[i].start & ~(PGW_PAGE_SIZE - 1);
		uint64_t end = r[i].start + r[i].size;
		if (pa < done)
			pa = done;
		for (; pa < end && pa >= done; pa += PGW_PAGE_SIZE)
			feed(se, sc, pa, pa);
		if (pa > done)
			done = pa;
	}
	scan_break(sc);
	free(r);
	return 0;
}

/* ---- an address space ---- */

struct virt_walk {
	struct searcher *se;
	struct scanner *sc;
};

static int on_leaf(void *arg, const struct pgw_leaf *lf)
{
	struct virt_walk *w = arg;

	/* A shared table that maps one frame everywhere: its first page
	 * searched once, the hits naming how often it repeats. */
	if (lf->count > 1) {
		scan_break(w->sc);
		w->se->same_frame_pages = lf->count;
		w->se->page_size = lf->size;
	}
	for (uint64_t off = 0; off < lf->size; off += PGW_PAGE_SIZE)
		feed(w->se, w->sc, lf->va + off, lf->pa + off);
	if (lf->count > 1) {
		scan_break(w->sc);
		w->se->same_frame_pages = 0;
	}
	return pgw_output_failed();
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct virt_walk *w = arg;

	if (h->stop == PGW_STOP_TABLE_NOT_IN_IMAGE)
		w->se->sum.tables_not_in_image++;
	if (h->stop != PGW_STOP_NOT_PRESENT ||
	    h->entry.np_kind != PGW_NP_PROTNONE)
		return 0;
	/* PROT_NONE: not present to the CPU, but the frame is the
	 * process's memory all the same. */
	uint64_t pa = h->entry.np_pfn << PGW_PAGE_SHIFT;
	for (uint64_t va = h->va; va != h->end; va += PGW_PAGE_SIZE)
		feed(w->se, w->sc, va, pa + (va - h->va));
	return pgw_output_failed();
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

static int search_virt(struct searcher *se, struct scanner *sc,
		       bool kernel_half)
{
	struct session *s = se->s;
	const struct pgw_root *r = &s->why.root;
	struct virt_walk w = { se, sc };
	struct pgw_walk_ops ops = { .leaf = on_leaf, .hole = on_hole };
	struct pgw_walk_opts wo = { .max_entries = s->opts.max_entries };
	int rc = virt_end(s, kernel_half, &wo.end);

	if (rc)
		return rc;
	struct pgw_err err = { 0 };
	int stopped = 0;

	se->base.have_root = true;
	se->base.root = s->space.root;
	if (r->source == PGW_ROOT_TASK) {
		se->base.have_pid = true;
		se->base.pid = r->pid;
		se->base.comm = r->comm;
		se->base.comm_len = r->comm_len;
	}
	enum pgw_status st = pgw_walk_range(&s->space, &wo, &ops, &w, NULL,
					    &stopped, &err);
	scan_break(sc);
	if (st == PGW_E_LIMIT) {
		pgw_cli_error("%s: the entry budget stopped the walk "
			      "(--max-entries): the rest was not searched",
			      s->path);
		se->sum.reason = "budget";
		return 0;
	}
	if (st != PGW_OK && st != PGW_E_STOPPED) {
		pgw_cli_error("%s: %s", s->path, err.msg);
		return pgw_exit_for(st);
	}
	return 0;
}

/* ---- the end ---- */

/* The summary's verdict and the exit status: device memory outside the
 * image was never RAM the image promised, so it does not make the answer
 * partial; every other absence does. */
static int conclude(struct searcher *se)
{
	struct search_summary *s = &se->sum;
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

static void say_unseen(const struct searcher *se)
{
	const struct search_summary *s = &se->sum;

	for (int i = 1; i < PGW_NABSENCES; i++)
		if (s->not_in_image[i])
			pgw_cli_error("%s: %llu bytes not searched: not in the "
				      "image (%s)", se->s->path,
				      (unsigned long long)s->not_in_image[i],
				      pgw_absence_key((enum pgw_absence)i));
	if (s->tables_not_in_image)
		pgw_cli_error("%s: %llu page tables are not in the image: "
			      "what they map was not searched", se->s->path,
			      (unsigned long long)s->tables_not_in_image);
	if (s->hits > s->listed)
		pgw_cli_error("%llu hits, %llu listed (--max-hits)",
			      (unsigned long long)s->hits,
			      (unsigned long long)s->listed);
}

static void patterns_free(struct pattern *pat, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		pattern_free(&pat[i]);
		yara_rules_free(pat[i].yara);
	}
	free(pat);
}

/* The patterns to look for: each as given, and with --wide each
 * string's UTF-16LE form after it. */
static int compile(const struct search_args *a, struct pattern **pat_ret,
		   size_t *n_ret)
{
	struct pattern *pat = calloc(2 * a->npat, sizeof(*pat));
	size_t n = 0;

	if (!pat) {
		pgw_cli_error("out of memory");
		return PGW_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < a->npat; i++) {
		const char *why = "";
		const struct pattern_arg *pa = &a->pat[i];
		if (!pattern_compile(&pat[n++], pa->kind, pa->text, &why)) {
			static const char *const opt[] = {
				[PAT_STRING] = "pgwalk: search: --string='",
				[PAT_HEX] = "pgwalk: search: --hex='",
				[PAT_REGEX] = "pgwalk: search: --regex='",
				[PAT_YARA] = "pgwalk: search: --yara='",
			};
			out_text_line(stderr, opt[pa->kind], pa->text, "' ");
			fprintf(stderr, "%s\n", why);
			patterns_free(pat, n);
			return PGW_EXIT_USAGE;
		}
		int rc = pa->kind == PAT_YARA ?
			yara_rules_load(pa->text, &pat[n - 1].yara) : 0;
		if (rc) {
			patterns_free(pat, n);
			return rc;
		}
		if (a->wide && pa->kind == PAT_STRING &&
		    !pattern_compile(&pat[n++], PAT_WIDE, pa->text, &why)) {
			out_text_line(stderr, "pgwalk: search: --wide '",
				      pa->text, "' ");
			fprintf(stderr, "%s\n", why);
			patterns_free(pat, n);
			return PGW_EXIT_USAGE;
		}
	}
	*pat_ret = pat;
	*n_ret = n;
	return 0;
}

int cmd_search(int argc, char **argv)
{
	struct search_args a = { 0 };
	struct session s = { 0 };
	struct pattern *pat = NULL;
	struct scanner sc;
	struct hit_store store = { 0 };
	size_t npat = 0;
	int rc, names_rc = 0;

	pgw_argp_parse(&search_argp, argc, argv, &a);
	if ((rc = compile(&a, &pat, &npat)))
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
		patterns_free(pat, npat);
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
	struct searcher *se = calloc(1, sizeof(*se));
	if (!se || !scan_init(&sc, pat, npat, on_hit, se)) {
		pgw_cli_error("out of memory");
		free(se);
		patterns_free(pat, npat);
		session_close(&s);
		return PGW_EXIT_INTERNAL;
	}
	se->s = &s;
	se->out = &out;
	se->pat = pat;
	se->phys = a.phys;
	se->context = a.context;
	se->max_hits = a.max_hits;
	se->sum.patterns = npat;
	se->hold = map ? &store : NULL;
	out_table(&out, &search_table, NULL);
	rc = a.phys ? search_phys(se, &sc) :
		      search_virt(se, &sc, a.kernel_half);
	se->sum.bytes_searched = sc.bytes;
	if (!rc && sc.failed) {
		pgw_cli_error("search: --yara: %s", sc.failed);
		rc = PGW_EXIT_INTERNAL;
	} else if (!rc && (sc.oom || se->oom)) {
		pgw_cli_error("out of memory: hits were lost");
		rc = PGW_EXIT_INTERNAL;
	}
	if (!rc && map)
		rc = search_map_roots(&s, &out, &store, &se->sum, &names_rc);
	if (!rc) {
		rc = pgw_exit_worst(conclude(se), names_rc);
		search_say_summary(&out, &se->sum);
		say_unseen(se);
	}
	rc = pgw_cli_flush(rc);
	scan_free(&sc);
	hit_store_free(&store);
	free(se);
	patterns_free(pat, npat);
	session_close(&s);
	return rc;
}
