/*
 * pgwalk ptov: physical to virtual.  Every virtual address that maps a
 * physical address, in one root or (--all-roots) in every root the roots
 * scan finds, named by the task list where the image carries one.  Each
 * root is walked once into a reverse map (pgw_rmap), so a batch of a
 * million addresses costs a lookup each.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "emit.h"
#include "exit_codes.h"
#include "lines.h"
#include "addr_names.h"
#include "budget_jobs.h"
#include "output.h"
#include "owned_roots.h"
#include "ptov_out.h"
#include "session.h"

enum { OPT_ALL_ROOTS = 1024, OPT_NAMES };


struct ptov_args {
	struct image_args in;
	char **addrs;
	int naddrs;
	bool all_roots;
	bool names;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Ptov:", 5 },
	{ "all-roots", OPT_ALL_ROOTS, NULL, 0,
	  "Every root `pgwalk roots` finds, the kernel's and each "
	  "process's (named by the task list where the image has one), "
	  "instead of one", 5 },
	{ "names", OPT_NAMES, NULL, 0,
	  "Name each mapping's address: a kernel one by its kallsyms "
	  "symbol or its module (symbol+0xOFF [module]), a user one by "
	  "its VMA (path, file offset) when the "
	  "process is known; --all-roots, --pid and --comm name without it",
	  5 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct ptov_args *a = state->input;
	const struct pgw_root_request *r = &a->in.opts.space.root;

	switch (key) {
	case OPT_ALL_ROOTS:
		a->all_roots = true;
		break;
	case OPT_NAMES:
		a->names = true;
		break;
	case ARGP_KEY_ARG:
		if (!a->in.image) {
			a->in.image = arg;
			break;
		}
		return ARGP_ERR_UNKNOWN;   /* the PADDRs: ARGP_KEY_ARGS */
	case ARGP_KEY_ARGS:
		a->addrs = state->argv + state->next;
		a->naddrs = state->argc - state->next;
		break;
	case ARGP_KEY_END:
		if (!a->in.image || a->naddrs == 0)
			pgw_usage_error(state, "give an IMAGE and at least one "
				   "PADDR (or - to read addresses from stdin)");
		break;
	case ARGP_KEY_SUCCESS:
		if (a->all_roots && (r->have_cpu || r->have_pid || r->comm ||
				     r->kernel_half))
			pgw_usage_error(state, "--all-roots walks every root; "
					"only --root or --cr3 may name the "
					"kernel's");
		break;
	default:
		return session_parse_image(&a->in, "ptov", key, arg, state);
	}
	return 0;
}

static const char doc[] =
	"Physical to virtual: every virtual address that maps each PADDR, "
	"with the page size, level, flags and effective permissions of the "
	"mapping and the root (pid and comm when known) that maps it.  One "
	"root (the kernel's unless --cr3, --cpu, --root, --pid or --comm "
	"chooses another), or with --all-roots every root the roots scan "
	"finds: the kernel's whole space, and each process's user half (its "
	"kernel half is the kernel's; a root whose kernel half differs is "
	"walked whole; under PTI the user half is its user copy's).  A "
	"PROT_NONE pte or huge pmd, not present to the CPU but holding its "
	"frame, is listed with access protnone.\v"
	"PADDR is hex with 0x (bare hex with --hex) or decimal with 0d; - "
	"reads one address per line from stdin.  Each root is walked once; "
	"each address is then a lookup.  Output: text (a table), json "
	"(mapping records: pa, va, root, pid, comm, kind, page_size, level, "
	"flags, effective; va null when no root maps it), csv or tsv.  Exit "
	"status: 0 every address mapped, 1 some mapped nowhere (or were not "
	"addresses), 2 a page table or a task the image lacks leaves the "
	"answer partial, 3 no root or mode, 4 the entry budget cut a walk, "
	"64 usage, 65 bad image, 66 cannot open or read, 74 cannot write.";

static const struct argp ptov_argp = {
	options, parse_opt, "IMAGE PADDR...", doc, session_children, NULL,
	NULL
};

struct batch {
	struct session *s;
	struct out *out;
	const struct pgw_rmap *rm;
	const struct owner *owners;
	struct pgw_rmap_hit *hits;
	size_t cap;
	int rc;
	unsigned long bad_lines;
};

static void one(struct batch *b, uint64_t pa)
{
	size_t n = pgw_rmap_lookup(b->rm, pa, b->hits, b->cap);

	if (n > b->cap) {
		struct pgw_rmap_hit *h = realloc(b->hits, n * sizeof(*h));
		if (!h) {
			/* Said, and the exit status says the answer is cut. */
			if (b->rc != PGW_EXIT_INTERNAL)
				pgw_cli_error("out of memory: 0x%llx has %zu "
					      "mappings, %zu listed",
					      (unsigned long long)pa, n, b->cap);
			b->rc = PGW_EXIT_INTERNAL;
			n = b->cap;
		} else {
			b->hits = h;
			b->cap = n;
			n = pgw_rmap_lookup(b->rm, pa, b->hits, b->cap);
		}
	}
	if (n == 0) {
		struct mapping_rec none = { .pa = pa };
		b->rc = pgw_exit_worst(b->rc, PGW_EXIT_NOANSWER);
		out_record(b->out, &mapping_rec_type, &none);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct owner *o = &b->owners[b->hits[i].owner];
		const struct pgw_rmap_hit *h = &b->hits[i];
		struct mapping_rec m = {
			.pa = pa, .va = { h->va, true },
			.root = { o->root, true },
			.pid = { (uint64_t)o->pid, o->comm != NULL },
			.comm = { (const char *)o->comm, o->comm_len },
			.kind = o->kind,
			.page_size = { h->page_size, true },
			.level = out_level_name(b->out->mode, h->level),
			.flags = { h->flags, true },
			.effective = { h->eff_flags, true },
			.same_frame_pages = { h->pages, h->pages > 1 },
			.protnone = { true, h->protnone },
		};
		struct addr_name nm;
		struct name_rec name;
		m.name = name_rec_of(b->out, o->comm ? o->pid : -1, h->va,
				     &nm, &name);
		out_record(b->out, &mapping_rec_type, &m);
	}
}

/* A line that is not an address: said on stderr (the first ten), and a
 * record of its own with the line echoed (escaped, at most ECHO_MAX). */
static void bad(void *arg, const char *text, size_t n, unsigned long lineno)
{
	struct batch *b = arg;
	if (n > ECHO_MAX)
		n = ECHO_MAX;
	b->rc = pgw_exit_worst(b->rc, PGW_EXIT_NOANSWER);
	stdin_bad_line(&b->bad_lines, text, n, lineno);
	struct ptov_bad_rec r = { .input = { text, n },
				  .reason = "not-an-address" };
	out_record(b->out, &ptov_bad_rec_type, &r);
}

static void stdin_line(void *arg, char *line, size_t n, unsigned long lineno)
{
	uint64_t pa;

	if (!memchr(line, '\0', n) && pgw_parse_u64(line, &pa))
		one(arg, pa);
	else
		bad(arg, line, n, lineno);
}

/* Usual input lines, parsed by the reader. */
static void stdin_addrs(void *arg, const uint64_t *pa, size_t n)
{
	for (size_t i = 0; i < n; i++)
		one(arg, pa[i]);
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* What the map was built from, for the exit status and -v. */
struct build {
	struct owned_roots all;  /* --all-roots */
	struct owner *owners;
	size_t nowners;
	struct pgw_walk_stats walked;
	/* One entry budget for the whole command (--max-entries, else the
	 * image's default): the roots scan's walks and every root's walk
	 * draw on it, so a thousand roots sharing one huge user half cost
	 * one budget, not a thousand (and the map's memory stays bounded
	 * with it). */
	uint64_t entries_left;
	size_t unwalked;         /* walks the budget left undone */
	double ms;
};

/* Add the walk of root (and, in a mode with two, root_upper) over
 * [start, end) to rm as owner. */
static enum pgw_status add(struct pgw_rmap *rm, const struct session *s,
			   uint64_t root, uint64_t root_upper, uint64_t start,
			   uint64_t end, uint32_t owner, struct build *bd,
			   struct pgw_err *err)
{
	struct pgw_space sp = { .img = s->img, .mode = s->space.mode,
				.root = root, .root_upper = root_upper,
				.enc = s->space.enc };
	struct pgw_walk_opts wo = { .start = start, .end = end,
				    .max_entries = bd->entries_left };
	struct pgw_walk_stats st = { 0 };

	if (bd->entries_left == 0) {
		bd->unwalked++;
		return PGW_OK;
	}
	enum pgw_status rc = pgw_rmap_add(rm, &sp, &wo, owner, &st, err);

	bd->entries_left -= st.entries < bd->entries_left ? st.entries :
							     bd->entries_left;
	bd->walked.entries += st.entries;
	bd->walked.tables += st.tables;
	bd->walked.leaves += st.leaves;
	return rc == PGW_E_LIMIT ? PGW_OK : rc;
}

/* The one root the session chose, named when a process was asked for. */
static enum pgw_status build_one(struct pgw_rmap *rm, struct session *s,
				 struct build *bd, struct pgw_err *err)
{
	const struct pgw_root *r = &s->why.root;

	if (!(bd->owners = calloc(1, sizeof(*bd->owners))))
		return pgw_cli_out_of_memory(err);
	bd->nowners = 1;
	bd->owners[0].root = r->table;
	if (r->source == PGW_ROOT_TASK) {
		bd->owners[0].pid = r->pid;
		bd->owners[0].comm = r->comm;
		bd->owners[0].comm_len = r->comm_len;
	}
	return add(rm, s, s->space.root, s->space.root_upper, 0, 0, 0, bd,
		   err);
}

/*
 * Every root's walks on the image's threads, each into a map of its own,
 * taken into rm in order, the command's budget spent in order
 * (budget_jobs.h).
 */
struct all_walks {
	struct pgw_rmap *rm;
	const struct session *s;
	struct build *bd;
	struct pgw_space *spaces;
	struct root_walk *w;
	uint32_t *owner;
	size_t n;
	struct pgw_rmap **maps;  /* each walk's own */
	struct pgw_walk_stats *stats;
	enum pgw_status st;      /* the first walk that failed */
	struct pgw_err *err;
};

static enum pgw_status walk_ahead(void *arg, size_t i,
				  const struct pgw_space *space,
				  uint64_t max_entries, uint64_t *spent_ret,
				  struct pgw_err *err)
{
	struct all_walks *a = arg;
	struct pgw_walk_opts wo = { .start = a->w[i].start,
				    .end = a->w[i].end,
				    .max_entries = max_entries };
	enum pgw_status st = pgw_rmap_new(&a->maps[i], err);

	if (st == PGW_OK)
		st = pgw_rmap_add(a->maps[i], space, &wo, a->owner[i],
				  &a->stats[i], err);
	*spent_ret = a->stats[i].entries;
	return st;
}

static int walk_turn(void *arg, size_t i, bool taken, uint64_t spent)
{
	struct all_walks *a = arg;
	struct build *bd = a->bd;
	enum pgw_status st;

	if (taken) {
		st = pgw_rmap_take(a->rm, a->maps[i], a->err);
		bd->entries_left -= spent;
		bd->walked.entries += spent;
		bd->walked.tables += a->stats[i].tables;
		bd->walked.leaves += a->stats[i].leaves;
	} else {
		st = add(a->rm, a->s, a->w[i].table, a->w[i].upper,
			 a->w[i].start, a->w[i].end, a->owner[i], bd, a->err);
	}
	pgw_rmap_free(a->maps[i]);
	a->maps[i] = NULL;
	a->st = st;
	return st != PGW_OK;
}

/* Every root, each in the stretches owned_root_walks says. */
static enum pgw_status build_all(struct pgw_rmap *rm, struct session *s,
				 struct build *bd, struct pgw_err *err)
{
	enum pgw_status st = owned_roots_open(s, bd->entries_left, &bd->all,
					      err);

	if (st != PGW_OK)
		return st;
	uint64_t scanned = bd->all.roots->scan.entries;
	bd->walked.entries += scanned;
	bd->entries_left -= scanned < bd->entries_left ? scanned :
							 bd->entries_left;
	bd->owners = bd->all.owners;
	bd->nowners = bd->all.nowners;
	size_t most = 2 * bd->nowners + 1;
	struct all_walks a = {
		.rm = rm, .s = s, .bd = bd, .err = err,
		.spaces = calloc(most, sizeof(*a.spaces)),
		.w = calloc(most, sizeof(*a.w)),
		.owner = calloc(most, sizeof(*a.owner)),
		.maps = calloc(most, sizeof(*a.maps)),
		.stats = calloc(most, sizeof(*a.stats)),
	};
	if (!a.spaces || !a.w || !a.owner || !a.maps || !a.stats)
		st = pgw_cli_out_of_memory(err);
	for (size_t i = 0; i < bd->nowners && st == PGW_OK; i++) {
		size_t n = owned_root_walks(&bd->all, s->space.mode, i,
					    a.w + a.n);
		for (size_t j = 0; j < n; j++, a.n++) {
			a.owner[a.n] = (uint32_t)i;
			a.spaces[a.n] = (struct pgw_space){
				.img = s->img, .mode = s->space.mode,
				.root = a.w[a.n].table,
				.root_upper = a.w[a.n].upper,
				.enc = s->space.enc };
		}
	}
	struct budget_jobs jobs = {
		.spaces = a.spaces, .n = a.n, .left = &bd->entries_left,
		.ahead = walk_ahead, .turn = walk_turn, .arg = &a,
	};
	if (st == PGW_OK && (st = budget_jobs_run(&jobs, err)) == PGW_OK)
		st = a.st;
	for (size_t i = 0; a.maps && i < a.n; i++)
		pgw_rmap_free(a.maps[i]);
	free(a.spaces);
	free(a.w);
	free(a.owner);
	free(a.maps);
	free(a.stats);
	return st;
}

static void build_free(struct build *bd)
{
	if (bd->owners != bd->all.owners)
		free(bd->owners);
	owned_roots_free(&bd->all);
}

/* The status the map itself calls for, as roots says it of the names: a
 * table the image lacks may hide mappings (2), a task list cut short by
 * a page the image lacks leaves roots unnamed (2), a budget cut a walk
 * or the list (4), a damaged list (65). */
static int build_status(const struct build *bd, const struct pgw_rmap *rm)
{
	struct pgw_rmap_stats st;
	int rc = 0;

	pgw_rmap_stats(rm, &st);
	if (st.tables_not_in_image)
		rc = PGW_EXIT_EVIDENCE;
	rc = pgw_exit_worst(rc, owned_roots_status(&bd->all));
	if (st.budget_stops || bd->unwalked)
		rc = PGW_EXIT_LIMIT;
	return rc;
}

static void say(const struct session *s, const struct build *bd,
		const struct pgw_rmap *rm)
{
	struct pgw_rmap_stats st;

	owned_roots_say(&bd->all, s->path);
	pgw_rmap_stats(rm, &st);
	if (st.tables_not_in_image)
		pgw_cli_error("%s: %llu page tables are not in the image: "
			      "what they map is not listed",
			      s->path,
			      (unsigned long long)st.tables_not_in_image);
	if (st.budget_stops || bd->unwalked)
		pgw_cli_error("%s: the entry budget cut %llu walks short and "
			      "left %zu undone (--max-entries; one budget for "
			      "the command): mappings are missing", s->path,
			      (unsigned long long)st.budget_stops,
			      bd->unwalked);
	if (!s->opts.verbose)
		return;
	session_say(s);
	fprintf(stderr, "pgwalk: reverse map: %zu roots, %zu walks left "
		"undone (%llu entries with the roots scan's, %llu tables, "
		"%llu leaves) into %llu ranges, %.1f ms\n", bd->nowners,
		bd->unwalked,
		(unsigned long long)bd->walked.entries,
		(unsigned long long)bd->walked.tables,
		(unsigned long long)bd->walked.leaves,
		(unsigned long long)st.ranges, bd->ms);
}

int cmd_ptov(int argc, char **argv)
{
	struct ptov_args a = { 0 };
	struct session s = { 0 };
	struct build bd = { 0 };
	struct pgw_rmap *rm = NULL;
	struct pgw_err err = { 0 };
	bool from_stdin_too = false;
	int rc;

	pgw_argp_parse(&ptov_argp, argc, argv, &a);
	const struct formatter *fmt =
		formatter_by_name(a.in.opts.output_format);
	if ((rc = addr_args_check(a.addrs, a.naddrs, &from_stdin_too)))
		return rc;
	/* Every root is compared with the kernel's own. */
	if (a.all_roots)
		a.in.opts.space.root.kernel = true;
	rc = session_start(&s, &a.in);
	if (rc) {
		session_close(&s);
		return rc;
	}
	double t0 = now_ms();
	bd.entries_left = s.opts.max_entries ? s.opts.max_entries :
					       pgw_default_budget(s.img);
	enum pgw_status st = pgw_rmap_new(&rm, &err);
	if (st == PGW_OK)
		st = a.all_roots ? build_all(rm, &s, &bd, &err) :
				   build_one(rm, &s, &bd, &err);
	if (st != PGW_OK) {
		pgw_cli_error("%s: %s", s.path, err.msg);
		rc = pgw_exit_for(st);
		goto out;
	}
	pgw_rmap_finish(rm);
	bd.ms = now_ms() - t0;
	say(&s, &bd, rm);

	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = { .f = stdout, .fmt = fmt, .mode = s.space.mode };
	/* Names where asked, or where the task list was read anyway. */
	struct addr_names names;
	if (a.names || a.all_roots || s.why.root.source == PGW_ROOT_TASK) {
		names_open(&names, &s, true, a.names);
		out.names = &names;
	}
	struct batch b = { .s = &s, .out = &out, .rm = rm,
			   .owners = bd.owners };
	out_table(&out, &ptov_table, NULL);
	rc = 0;
	for (int i = 0; i < a.naddrs && !rc; i++) {
		uint64_t pa;
		if (strcmp(a.addrs[i], "-") == 0)
			rc = stdin_lines(&(struct line_reader){
				stdin_line, stdin_addrs, bad, &b });
		else if (pgw_parse_u64(a.addrs[i], &pa))
			one(&b, pa);
	}
	if (b.bad_lines > 10)
		pgw_cli_error("%lu lines on stdin were not addresses",
			      b.bad_lines);
	free(b.hits);
	if (out.names)
		names_close(out.names);
	rc = pgw_cli_flush(rc ? rc : pgw_exit_worst(b.rc,
						    build_status(&bd, rm)));
out:
	pgw_rmap_free(rm);
	build_free(&bd);
	session_close(&s);
	return rc;
}
