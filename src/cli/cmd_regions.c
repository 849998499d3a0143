/* pgwalk regions: the kernel memory map, its bases, and what is mapped. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "layout_opts.h"
#include "output.h"
#include "regions_out.h"
#include "session.h"

struct regions_args {
	struct image_args in;
	struct layout_args layout;
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct regions_args *a = state->input;

	/* Child 1 of layout_children; session_parse_image sets child 0. */
	if (key == ARGP_KEY_INIT)
		state->child_inputs[1] = &a->layout;
	return session_parse_image(&a->in, "regions", key, arg, state);
}

static const char doc[] =
	"Show the kernel's virtual memory map for IMAGE: the layout of its "
	"kernel era, each base and where it came from (read from VMCOREINFO "
	"or CPU state, given as an option, inferred from the page tables, or "
	"the era's fixed value), then one row per region with how much of it "
	"the page tables map, and a summary.\v"
	"KASLR moves page_offset_base, vmalloc_base and vmemmap_base (4.8+) "
	"and VMCOREINFO does not say where; they are inferred from the page "
	"tables of the kernel's root (see man pgwalk).  Exit status: 0, 2 a "
	"page table the image lacks (mapped sizes partial), 3 no root or "
	"mode, 4 the entry budget ran out, 64 usage, 65 bad image, 66 cannot "
	"open, 74 cannot write.";

static const struct argp regions_argp = {
	NULL, parse_opt, "IMAGE", doc, layout_children, NULL, NULL
};

struct usage_walk {
	const struct pgw_layout *layout;
	struct region_usage *use;
	size_t cur;
	uint64_t tables_missing;   /* holes where a table is not in the image */
};

static int usage_hole(void *arg, const struct pgw_hole *hole)
{
	struct usage_walk *u = arg;

	u->tables_missing += hole->stop == PGW_STOP_TABLE_NOT_IN_IMAGE;
	return 0;
}

/* Leaves arrive in address order: advance through the regions, splitting
 * a leaf's bytes where it crosses a boundary. */
static uint64_t div_up(uint64_t n, uint64_t d)
{
	return n / d + (n % d != 0);
}

/* Leaves of a (possibly repeated) leaf that start in [a, b), where b == 0
 * means 2^64: the starts are va + k * size for k < count. */
static uint64_t starts_in(const struct pgw_leaf *leaf, uint64_t a, uint64_t b)
{
	uint64_t lo = div_up(a - leaf->va, leaf->size);
	uint64_t hi = div_up(b - leaf->va, leaf->size);  /* wraps right */

	if (hi > leaf->count)
		hi = leaf->count;
	return hi > lo ? hi - lo : 0;
}

static int usage_leaf(void *arg, const struct pgw_leaf *leaf)
{
	struct usage_walk *u = arg;
	const struct pgw_layout *lay = u->layout;
	uint64_t va = leaf->va, end = leaf->va + leaf->size * leaf->count;

	u->cur = pgw_layout_find(lay, va);
	for (size_t i = u->cur; i < lay->nregions; i++) {
		uint64_t rend = lay->region[i].end;
		uint64_t cut = rend != 0 && (end == 0 || end > rend) ? rend :
								       end;
		u->use[i].mapped += cut - va;
		u->use[i].leaves += starts_in(leaf, va, cut);
		if (cut == end)
			break;
		va = cut;
	}
	return 0;
}

/* The layout and the bases its regions stand on. */
static void say_layout(struct out *o, const struct pgw_layout *lay)
{
	struct layout_rec l = { lay->name, lay->desc, lay->why };

	out_record(o, &layout_rec_type, &l);
	for (size_t i = 0; i < lay->nbases; i++) {
		const struct pgw_layout_base *b = &lay->base[i];
		struct base_rec r = { b->name, b->value,
				      pgw_base_source_name(b->source),
				      b->why };
		out_record(o, &base_rec_type, &r);
	}
}

int cmd_regions(int argc, char **argv)
{
	struct regions_args a = { 0 };
	struct session s = { 0 };
	struct pgw_layout *layout = NULL;
	struct region_usage *use = NULL;
	struct pgw_err err = { 0 };
	int rc;

	pgw_argp_parse(&regions_argp, argc, argv, &a);
	const struct formatter *fmt =
		formatter_by_name(a.in.opts.output_format);
	rc = session_start(&s, &a.in);
	if (rc == 0 && (!(layout = malloc(sizeof(*layout))) ||
			!(use = calloc(PGW_LAYOUT_MAX_REGIONS,
				       sizeof(*use))))) {
		pgw_cli_error("out of memory");
		rc = PGW_EXIT_INTERNAL;
	}
	if (rc == 0)
		rc = cli_layout(&s, &a.layout.req, layout);
	if (rc) {
		free(use);
		free(layout);
		session_close(&s);
		return rc;
	}
	session_say(&s);

	struct usage_walk u = { layout, use, 0, 0 };
	struct pgw_walk_ops ops = { .leaf = usage_leaf, .hole = usage_hole };
	struct pgw_walk_opts wo = { .max_entries = a.in.opts.max_entries };
	enum pgw_status st = pgw_walk_range(&s.space, &wo, &ops, &u, NULL,
					    NULL, &err);
	struct out out = { stdout, fmt, s.space.mode, layout, false };
	struct regions_summary_rec sum = { 0 };
	out_table(&out, &regions_table, NULL);
	say_layout(&out, layout);
	for (size_t i = 0; i < layout->nregions; i++) {
		const struct pgw_region *r = &layout->region[i];
		struct region_rec rec = {
			.span = { r->start, r->end },
			.region = r->key,
			.name = r->name,
			.mapped = use[i].mapped,
			.leaves = use[i].leaves,
		};
		out_record(&out, &region_rec_type, &rec);
		sum.mapped += use[i].mapped;
		sum.leaves += use[i].leaves;
	}
	/* What the summary says of itself: whole, or cut and why. */
	if (st == PGW_E_LIMIT)
		sum.reason = "budget";
	else if (st != PGW_OK)
		sum.reason = pgw_stop_key(PGW_STOP_READ_ERROR);
	else if (u.tables_missing)
		sum.reason = pgw_stop_key(PGW_STOP_TABLE_NOT_IN_IMAGE);
	sum.complete = !sum.reason;
	out_record(&out, &regions_summary_rec_type, &sum);
	rc = u.tables_missing ? PGW_EXIT_EVIDENCE : PGW_EXIT_OK;
	if (st != PGW_OK) {
		fflush(stdout);
		pgw_cli_error("%s: %s (mapped sizes are partial)", s.path,
			      err.msg);
		rc = pgw_exit_for(st);
	}
	rc = pgw_cli_flush(rc);
	free(use);
	free(layout);
	session_close(&s);
	return rc;
}
