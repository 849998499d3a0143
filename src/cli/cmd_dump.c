/* pgwalk dump: every mapping and hole of an address space, streamed. */
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "addr_names.h"
#include "commands.h"
#include "dump_out.h"
#include "exit_codes.h"
#include "fast_rows.h"
#include "layout_opts.h"
#include "output.h"
#include "session.h"
#include "../walk/runs_bulk.h"

enum {
	OPT_RANGE = 1024, OPT_NO_HOLES, OPT_LEAVES, OPT_NON_PRESENT, OPT_USER,
	OPT_KERNEL, OPT_WRITABLE, OPT_EXECUTABLE, OPT_WX, OPT_NO_SUMMARY,
	OPT_KERNEL_HALF, OPT_NAMES,
};

/* Filters: each one narrows the mappings printed. */
enum {
	F_USER = 1u << 0, F_KERNEL = 1u << 1, F_WRITABLE = 1u << 2,
	F_EXEC = 1u << 3, F_WX = 1u << 4,
};

struct dump_args {
	struct image_args in;
	struct layout_args layout;
	uint64_t start, end;
	const char *range_arg;  /* parsed once --hex is known */
	bool no_holes, leaves, non_present, no_summary, kernel_half, names;
	unsigned filters;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "What to list:", 5 },
	{ "range", OPT_RANGE, "START-END", 0,
	  "Only [START, END); END may be left out for the top of the space",
	  5 },
	{ "leaves", OPT_LEAVES, NULL, 0,
	  "One record per leaf entry (va, pa, size, level, the entry's own "
	  "flags), like QEMU's info tlb, instead of coalesced ranges", 5 },
	{ "no-holes", OPT_NO_HOLES, NULL, 0, "Do not list holes", 5 },
	{ "non-present", OPT_NON_PRESENT, NULL, 0,
	  "List non-present entries that mean something (PROT_NONE, swap, "
	  "migration, ...) as holes of their own, with their details", 5 },
	{ "no-summary", OPT_NO_SUMMARY, NULL, 0, "Leave out the summary", 5 },
	{ "names", OPT_NAMES, NULL, 0,
	  "Name each mapping's first address: a kernel one by its kallsyms "
	  "symbol or its module (symbol+0xOFF [module]), a user one by "
	  "its VMA (path, file offset) when the "
	  "process is known; --pid and --comm name without it", 5 },
	{ "kernel-half", OPT_KERNEL_HALF, NULL, 0,
	  "With --pid or --comm: the kernel half too, which every process "
	  "shares (by default only the process's own, user half)", 5 },
	{ NULL, 0, NULL, 0,
	  "Filters (combine to narrow; holes are not listed with a filter):",
	  6 },
	{ "user", OPT_USER, NULL, 0, "Mappings user mode may access", 6 },
	{ "kernel", OPT_KERNEL, NULL, 0, "Supervisor-only mappings", 6 },
	{ "writable", OPT_WRITABLE, NULL, 0, "Writable mappings", 6 },
	{ "executable", OPT_EXECUTABLE, NULL, 0, "Executable mappings", 6 },
	{ "wx", OPT_WX, NULL, 0, "Writable and executable mappings", 6 },
	{ 0 }
};

static bool parse_range(const char *arg, uint64_t *start, uint64_t *end)
{
	const char *dash = strchr(arg, '-');
	char buf[64];

	if (!dash || (size_t)(dash - arg) >= sizeof(buf))
		return false;
	memcpy(buf, arg, (size_t)(dash - arg));
	buf[dash - arg] = '\0';
	if (!pgw_parse_u64(buf, start))
		return false;
	if (dash[1] == '\0') {
		*end = 0;
		return true;
	}
	return pgw_parse_u64(dash + 1, end) && *end > *start;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct dump_args *a = state->input;
	static const struct { int key; unsigned flag; } filters[] = {
		{ OPT_USER, F_USER }, { OPT_KERNEL, F_KERNEL },
		{ OPT_WRITABLE, F_WRITABLE }, { OPT_EXECUTABLE, F_EXEC },
		{ OPT_WX, F_WX },
	};

	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		if (key == filters[i].key) {
			a->filters |= filters[i].flag;
			return 0;
		}
	}
	/* Child 1 of layout_children; session_parse_image sets child 0. */
	if (key == ARGP_KEY_INIT)
		state->child_inputs[1] = &a->layout;
	switch (key) {
	case OPT_RANGE:
		a->range_arg = arg;
		break;
	case OPT_NO_HOLES:
		a->no_holes = true;
		break;
	case OPT_LEAVES:
		a->leaves = true;
		break;
	case OPT_NON_PRESENT:
		a->non_present = true;
		break;
	case OPT_NAMES:
		a->names = true;
		break;
	case OPT_NO_SUMMARY:
		a->no_summary = true;
		break;
	case OPT_KERNEL_HALF:
		a->kernel_half = true;
		break;
	case ARGP_KEY_SUCCESS:     /* after ARGP_KEY_END required an IMAGE */
		if (a->range_arg &&
		    !parse_range(a->range_arg, &a->start, &a->end))
			pgw_usage_error(state, "--range: '%s' is not START-END "
					"with START < END (addresses as 0x... "
					"hex, 0d... decimal%s)", a->range_arg,
					pgw_cli_bare_hex ? ", or bare hex" :
					", or bare hex with --hex");
		if ((a->filters & F_USER) && (a->filters & F_KERNEL))
			pgw_usage_error(state, "--user and --kernel exclude each "
				   "other");
		if (a->kernel_half && !a->in.opts.space.root.have_pid &&
		    !a->in.opts.space.root.comm)
			pgw_usage_error(state, "--kernel-half goes with --pid or "
					"--comm (other roots are dumped whole)");
		break;
	default:
		return session_parse_image(&a->in, "dump", key, arg, state);
	}
	return 0;
}

static const char doc[] =
	"List every mapping of an address space as coalesced ranges, with the "
	"holes between them and the kernel memory-map regions they lie in.\v"
	"A range continues while virtual and physical addresses stay "
	"contiguous, the page size is the same and so are the effective "
	"permissions (USER and RW ANDed down the levels, NX ORed) and the "
	"GLOBAL/PCD/PWT/PAT bits; it ends at a region boundary.  Holes cover "
	"the rest, each with the highest level at which nothing was found "
	"and its reason.  The root is chosen as for translate (--cr3, --cpu, "
	"--root, --pid, --comm, else the kernel's).  Output streams: text "
	"(ptdump-like, region markers inline), json (JSON Lines: region, map, "
	"hole and summary records), csv or tsv (the same columns, a header "
	"row).  Exit status: 0, 2 a page table the image lacks left holes "
	"(the summary says complete false), 3 no root or mode (or no such "
	"process), 4 the entry budget ran out (the output so far is valid), "
	"64 usage, 65 bad image, 66 cannot open, 74 cannot write.";

static const struct argp dump_argp = {
	options, parse_opt, "IMAGE", doc, layout_children, NULL, NULL
};

struct dump_state {
	struct out *out;
	struct pgw_image *img;
	const struct pgw_layout *layout;
	unsigned filters;
	bool holes;
	size_t shown_region;    /* last region announced, +1 (0: none) */
	size_t pending_region;  /* region entered, +1 */
	struct dump_summary sum;
};

static bool selected(unsigned filters, uint32_t eff)
{
	bool user = eff & PGW_F_USER, rw = eff & PGW_F_RW,
	     x = pgw_cli_executable(eff);

	return !((filters & F_USER) && !user) &&
	       !((filters & F_KERNEL) && user) &&
	       !((filters & F_WRITABLE) && !rw) &&
	       !((filters & F_EXEC) && !x) &&
	       !((filters & F_WX) && !(rw && x));
}

/* Region markers go out lazily, before the first record printed in a
 * region, so filtered listings stay short. */
static void announce(struct dump_state *d)
{
	if (!d->pending_region || d->pending_region == d->shown_region)
		return;
	d->shown_region = d->pending_region;
	out_rows_flush(d->out);
	dump_print_region(d->out, &d->layout->region[d->pending_region - 1]);
}

static int on_region(void *arg, size_t idx)
{
	struct dump_state *d = arg;

	d->pending_region = idx + 1;
	return 0;
}

/* Bytes a map run maps: a pattern one page every stride. */
static uint64_t mapped_bytes(const struct pgw_run *run)
{
	uint64_t size = run->end - run->va;

	if (!run->stride)
		return size;
	return ((size - run->page_size) / run->stride + 1) * run->page_size;
}

/* Bytes of a map run whose data the image lacks: a same-frame run maps
 * its one frame again and again. */
static uint64_t not_in_image(struct pgw_image *img, const struct pgw_run *run)
{
	uint64_t size = mapped_bytes(run);

	if (!run->same_frame)
		return pgw_image_absent_bytes(img, run->pa, size, NULL);
	return pgw_image_absent_bytes(img, run->pa, run->page_size, NULL) *
	       (size / run->page_size);
}

static void count_hole(struct dump_summary *sum, const struct pgw_run *run)
{
	uint64_t size = run->end - run->va;

	sum->holes++;
	sum->hole_bytes += size;
	sum->nonpresent += run->np_kind != PGW_NP_NONE;
	if (run->stop == PGW_STOP_CYCLE)
		sum->unknown_perm_bytes += size;
	if (run->stop == PGW_STOP_TABLE_NOT_IN_IMAGE)
		sum->tables_missing++;
}

static int on_run(void *arg, const struct pgw_run *run)
{
	struct dump_state *d = arg;
	struct out *o = d->out;
	uint64_t size = mapped_bytes(run);

	if (run->kind == PGW_RUN_HOLE) {
		count_hole(&d->sum, run);
		bool show = d->holes || (run->np_kind != PGW_NP_NONE &&
					 !d->filters);
		if (show) {
			announce(d);
			out_rows_flush(o);
			dump_print_hole(o, run);
		}
		return pgw_output_failed();
	}
	if (!selected(d->filters, run->eff_flags))
		return 0;
	uint64_t absent = not_in_image(d->img, run);
	d->sum.maps++;
	d->sum.mapped += size;
	d->sum.level_bytes[run->level] += size;
	d->sum.not_in_image += absent;
	if ((run->eff_flags & PGW_F_RW) &&
	    pgw_cli_executable(run->eff_flags)) {
		d->sum.wx++;
		d->sum.wx_bytes += size;
	}
	announce(d);
	dump_print_map(o, run, absent);
	/* Stop walking when nobody can read the output (a full disk). */
	return pgw_output_failed();
}

/* The record of run as a stencil in st (false: the formatter cannot). */
static bool spell_stencil(struct out *o, struct stencil *st,
			  const struct pgw_run *run, uint64_t not_in_image)
{
	st->tmpl.len = 0;
	st->marked = 0;
	o->stencil = st;
	fast_map(o, &st->tmpl, run, not_in_image);
	o->stencil = NULL;
	return stencil_ready(st);
}

/* --leaves: n leaves frame after frame (runs_bulk.h).  When the
 * image holds all their frames, or none, the first's record is spelled
 * once and copied for the rest with their numbers (stencil.h); otherwise
 * each goes through on_run. */
static int on_leaf_runs(void *arg, const struct pgw_run *first, uint64_t n)
{
	struct dump_state *d = arg;
	struct out *o = d->out;
	uint64_t size = first->page_size, len = size * n, back = len - size;
	static struct stencil st;

	if (!selected(d->filters, first->eff_flags))
		return 0;
	uint64_t absent = pgw_image_absent_bytes(d->img, first->pa, len, NULL);
	uint64_t v[ST_NSLOTS] = { first->va, first->end, first->pa };
	const uint64_t last[ST_NSLOTS] = { v[0] + back, v[1] + back,
					   v[2] + back };
	/* Names differ leaf by leaf: no stencil for them. */
	if ((absent != 0 && absent != len) || o->names ||
	    !spell_stencil(o, &st, first, absent ? size : 0) ||
	    !stencil_plan(&st, v, last)) {
		struct pgw_run leaf = *first;
		for (uint64_t k = 0; k < n; k++) {
			int r = on_run(d, &leaf);
			if (r)
				return r;
			leaf.va += size;
			leaf.end += size;
			leaf.pa += size;
		}
		return 0;
	}
	d->sum.maps += n;
	d->sum.mapped += len;
	d->sum.level_bytes[first->level] += len;
	d->sum.not_in_image += absent;
	if ((first->eff_flags & PGW_F_RW) &&
	    pgw_cli_executable(first->eff_flags)) {
		d->sum.wx += n;
		d->sum.wx_bytes += len;
	}
	announce(d);
	for (uint64_t k = 0; k < n; k++) {
		stencil_put(out_row(o), &st, v);
		v[0] += size;
		v[1] += size;
		v[2] += size;
	}
	return pgw_output_failed();
}

/* -v: how the space and its memory map were chosen, on stderr. */
static void say(const struct session *s, const struct pgw_layout *lay)
{
	char head[160];

	if (!s->opts.verbose)
		return;
	session_say(s);
	snprintf(head, sizeof(head), "pgwalk: layout %s (", lay->name);
	out_text_line(stderr, head, lay->why, ")\n");
	for (size_t i = 0; i < lay->nbases; i++) {
		snprintf(head, sizeof(head), "pgwalk: %s 0x%llx %s: ",
			 lay->base[i].name,
			 (unsigned long long)lay->base[i].value,
			 pgw_base_source_name(lay->base[i].source));
		out_text_line(stderr, head, lay->base[i].why, "\n");
	}
}

int cmd_dump(int argc, char **argv)
{
	struct dump_args a = { 0 };
	struct session s = { 0 };
	struct pgw_layout *layout = NULL;
	struct pgw_err err = { 0 };
	int rc;

	pgw_argp_parse(&dump_argp, argc, argv, &a);
	const struct formatter *fmt =
		formatter_by_name(a.in.opts.output_format);
	rc = session_start(&s, &a.in);
	if (rc == 0 && !(layout = malloc(sizeof(*layout)))) {
		pgw_cli_error("out of memory");
		rc = PGW_EXIT_INTERNAL;
	}
	if (rc == 0)
		rc = cli_layout(&s, &a.layout.req, layout);
	if (rc) {
		free(layout);
		session_close(&s);
		return rc;
	}
	say(&s, layout);
	/* A mode without an execute-never bit: x86's NX where the mode has
	 * it, AArch64's PXN and UXN always. */
	bool no_nx = !(s.space.mode->quirks & PGW_Q_NX) &&
		     !(s.space.mode->perm.or_bits & (PGW_F_PXN | PGW_F_UXN));
	if (no_nx && (a.filters & (F_WX | F_EXEC)))
		pgw_cli_error("note: %s paging has no NX bit: every mapping is "
			      "executable, so every writable one is W+X",
			      s.space.mode->name);

	static char obuf[1 << 16];
	static struct rows rows = ROWS_INIT(rows);
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = { .f = stdout, .fmt = fmt, .mode = s.space.mode,
			    .layout = layout, .rows = &rows };
	/* Names where asked, or where the task list was read anyway. */
	struct addr_names names;
	if (a.names || s.why.root.source == PGW_ROOT_TASK) {
		names_open(&names, &s, true, a.names);
		out.names = &names;
	}
	struct dump_state d = {
		.out = &out, .img = s.img, .layout = layout,
		.filters = a.filters, .holes = !a.no_holes && !a.filters,
		.sum.no_nx = no_nx,
	};
	struct pgw_run_opts ro = {
		.walk = { .start = a.start, .end = a.end,
			  .max_entries = a.in.opts.max_entries },
		.leaves = a.leaves,
		.non_present = a.non_present,
		.patterns = !a.leaves,
		.layout = layout,
	};
	/* A process is its user half: the kernel half is every process's
	 * (--kernel-half adds it; --range says itself what to walk). */
	const struct pgw_root_request *rq = &a.in.opts.space.root;
	if ((rq->have_pid || rq->comm) && !a.kernel_half && !a.range_arg)
		ro.walk.end = cli_user_end(layout, s.space.mode);
	struct pgw_run_ops ops = { .run = on_run, .region = on_region };
	out_table(&out, dump_table(&out), NULL);
	/* Leaves in bulk: not in the public API, worth 5 times a record
	 * at a time (runs_bulk.h). */
	enum pgw_status st = pgw_walk_runs_bulk(&s.space, &ro, &ops,
						on_leaf_runs, &d,
						&d.sum.stats, NULL, &err);
	/* The summary says in itself whether the answer is whole: a budget
	 * stop, or page tables the image lacks. */
	if (st == PGW_E_LIMIT)
		d.sum.reason = "budget";
	else if (d.sum.tables_missing)
		d.sum.reason = pgw_stop_key(PGW_STOP_TABLE_NOT_IN_IMAGE);
	d.sum.complete = st == PGW_OK && !d.sum.reason;
	out_rows_flush(&out);
	if ((st == PGW_OK || st == PGW_E_LIMIT) && !a.no_summary)
		dump_print_summary(&out, &d.sum);
	rc = d.sum.tables_missing ? PGW_EXIT_EVIDENCE : PGW_EXIT_OK;
	/* PGW_E_STOPPED: on_run stopped at an output error, which the
	 * flush below reports. */
	if (st != PGW_OK && st != PGW_E_STOPPED) {
		out_rows_flush(&out);
		fflush(stdout);
		pgw_cli_error("%s: %s", s.path, err.msg);
		rc = pgw_exit_for(st);
	}
	out_rows_flush(&out);
	rc = pgw_cli_flush(rc);
	if (out.names)
		names_close(out.names);
	free(layout);
	session_close(&s);
	return rc;
}
