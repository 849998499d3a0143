/*
 * pgwalk diff: two address spaces compared in address order — two roots
 * of one image, a PTI pair's kernel and user copies, or one root in two
 * images of one machine.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "diff_out.h"
#include "output.h"
#include "session.h"

enum { OPT_PTI = 1024, OPT_DATA, OPT_RANGE };

struct diff_args {
	struct image_args in;        /* IMAGE, the options, root A */
	struct session_opts b;       /* root B (its root fields only) */
	char *image2;
	bool pti, data;
	const char *range_arg;
	uint64_t start, end;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "What to compare:", 5 },
	{ "pti", OPT_PTI, NULL, 0,
	  "The chosen root's PTI pair: its kernel copy (a) against its user "
	  "copy (b), what user mode sees of the kernel", 5 },
	{ "data", OPT_DATA, NULL, 0,
	  "Also compare the bytes of pages mapped alike in both (pages an "
	  "image lacks are said uncompared, never equal)", 5 },
	{ "range", OPT_RANGE, "START-END", 0,
	  "Only [START, END); END may be left out for the top of the space",
	  5 },
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
	struct diff_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		session_parse_image(&a->in, "diff", key, arg, state);
		a->in.opts.root_b = &a->b;
		break;
	case OPT_PTI:
		a->pti = true;
		break;
	case OPT_DATA:
		a->data = true;
		break;
	case OPT_RANGE:
		a->range_arg = arg;
		break;
	case ARGP_KEY_ARG:
		if (a->in.image && a->image2)
			pgw_usage_error(state, "diff takes one IMAGE (two roots "
					"of it) or two (one root in each)");
		if (a->in.image)
			a->image2 = arg;
		else
			a->in.image = arg;
		break;
	case ARGP_KEY_SUCCESS:
		session_root_finish(&a->b, state);
		if (a->range_arg &&
		    !parse_range(a->range_arg, &a->start, &a->end))
			pgw_usage_error(state, "--range: '%s' is not START-END "
					"with START < END", a->range_arg);
		if (a->pti && (a->in.opts.nroots > 1 || a->image2))
			pgw_usage_error(state, "--pti compares the two copies of "
					"one root: give one image and at most "
					"one root option");
		if (!a->pti && !a->image2 && a->in.opts.nroots != 2)
			pgw_usage_error(state, "give two roots (--cr3, --cpu, "
					"--root, --pid, --comm, each twice or "
					"mixed), --pti, or two images");
		if (a->image2 && a->in.opts.nroots > 1)
			pgw_usage_error(state, "with two images give one root "
					"option, the same for both (default: "
					"the kernel's)");
		break;
	default:
		return session_parse_image(&a->in, "diff", key, arg, state);
	}
	return 0;
}

static const char doc[] =
	"Compare two address spaces in address order: ranges mapped only in "
	"b (added), only in a (removed), or differently (changed: frame, "
	"permissions, page_size, attributes, and with --data the bytes), "
	"coalesced as dump coalesces them, and a summary.\v"
	"A and b are two roots of one IMAGE (two root options: --cr3=A "
	"--cr3=B, --pid=N --pid=M, mixed), a PTI pair (--pti: the kernel copy "
	"against the user copy of the chosen root, by default the kernel's), "
	"or one root in two images of one machine taken at different times "
	"(IMAGE IMAGE2, one root option for both, --pid resolved in each).  "
	"A page table an image lacks makes its range uncompared "
	"(table-not-in-image), never added or removed; with --data a page "
	"whose bytes an image lacks is uncompared (data-not-in-image); a "
	"frame outside both images' RAM (MMIO) has no bytes to compare: "
	"alike.  "
	"Output: text (+ added, - removed, ~ changed, ? uncompared), json "
	"(JSON Lines: added, removed, changed, uncompared and summary "
	"records), csv or tsv.  Exit status: 0 the spaces are alike, 1 they "
	"differ, 2 part could not be compared (a page the image lacks), 3 no "
	"root, mode or PTI pair (or the spaces' modes differ), 4 the entry "
	"budget ran out (nothing is listed), 64 usage, 65 bad image, 66 "
	"cannot open, 74 cannot write.";

static const struct argp diff_argp = {
	options, parse_opt, "IMAGE [IMAGE2]", doc, session_children, NULL,
	NULL
};

struct diff_state {
	struct out *out;
	uint64_t ranges;
};

/* A side's record: NULL when it maps nothing and nothing is missing. */
static const struct diff_side_rec *side(struct diff_side_rec *rec,
					const struct pgw_mode *mode,
					const struct pgw_diff_side *sd,
					enum pgw_absence absence)
{
	const char *why = absence ? pgw_absence_key(absence) : NULL;

	if (!sd->mapped && !absence)
		return NULL;
	if (!sd->mapped) {
		*rec = (struct diff_side_rec){ .absence = why };
		return rec;
	}
	*rec = (struct diff_side_rec){
		.pa = { sd->pa, true },
		.page_size = { sd->page_size, true },
		.level = out_level_name(mode, sd->level),
		.flags = { sd->flags, true },
		.effective = { sd->eff_flags & (PGW_F_RW | PGW_F_USER |
						 PGW_F_NX | PGW_F_PXN |
						 PGW_F_UXN), true },
		.same_frame = { true, sd->same_frame },
		.absence = why,
	};
	return rec;
}

static int on_range(void *arg, const struct pgw_diff_range *r)
{
	struct diff_state *d = arg;
	struct diff_side_rec a, b;
	struct diff_range_rec rec = {
		.kind = pgw_diff_kind_key(r->kind),
		.range = { r->va, r->end },
		.a = side(&a, d->out->mode, &r->a, r->absence_a),
		.b = side(&b, d->out->mode, &r->b, r->absence_b),
		.changes = { r->changes, pgw_diff_change_key,
			     PGW_NDIFF_CHANGES },
		.reason = r->kind != PGW_DIFF_UNCOMPARED ? NULL :
			  r->table_absent ?
			  pgw_stop_key(PGW_STOP_TABLE_NOT_IN_IMAGE) :
			  "data-not-in-image",
	};

	d->ranges++;
	out_record(d->out, &diff_range_rec_type, &rec);
	return pgw_output_failed();
}

/* Why a diff is not complete (NULL: it is): every format says the same,
 * and the exit status (2) follows the same ranges. */
static const char *incomplete(const struct pgw_diff_stats *t)
{
	return t->table_absent ? "table-not-in-image" :
	       t->uncompared ? "data-not-in-image" : NULL;
}

/* --pti: the kernel and user copies of the chosen root's pair. */
static int pti_pair(const struct session *s, struct pgw_space *a,
		    struct pgw_space *b)
{
	struct pgw_pti p;
	uint64_t t = s->space.root;

	pgw_pti_check(s->img, s->space.mode, &s->space.enc, t, &p);
	if (!p.is_user_root) {
		pgw_pti_check(s->img, s->space.mode, &s->space.enc,
			      t + PGW_PAGE_SIZE, &p);
		if (!p.is_user_root || p.kernel_table != t) {
			pgw_cli_error("%s: root 0x%llx has no PTI user copy "
				      "(the kernel runs without page-table "
				      "isolation)", s->path,
				      (unsigned long long)t);
			return PGW_EXIT_NOROOT;
		}
		t += PGW_PAGE_SIZE;
	}
	*a = (struct pgw_space){ s->img, s->space.mode, p.kernel_table,
				 s->space.enc };
	*b = (struct pgw_space){ s->img, s->space.mode, t, s->space.enc };
	return 0;
}

/* Root b of the same image. */
static int second_root(struct session *s, const struct diff_args *a,
		       struct pgw_space *b)
{
	struct pgw_space_request req = s->opts.space;
	struct pgw_space_why why;
	struct pgw_err err = { 0 };

	req.root = a->b.space.root;
	enum pgw_status st = pgw_space_open(s->img, &req, b, &why, &err);
	if (st != PGW_OK) {
		pgw_cli_error("%s: second root: %s", s->path, err.msg);
		return pgw_exit_for(st);
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { 0 };
	struct session s = { 0 }, s2 = { 0 };
	struct pgw_space sa, sb;
	struct pgw_err err = { 0 };
	int rc;

	pgw_argp_parse(&diff_argp, argc, argv, &a);
	const struct formatter *fmt =
		formatter_by_name(a.in.opts.output_format);
	rc = session_start(&s, &a.in);
	if (!rc && a.image2) {
		struct image_args in2 = a.in;
		in2.image = a.image2;
		rc = session_start(&s2, &in2);
		sa = s.space;
		sb = s2.space;
	} else if (!rc && a.pti) {
		rc = pti_pair(&s, &sa, &sb);
	} else if (!rc) {
		sa = s.space;
		rc = second_root(&s, &a, &sb);
	}
	if (!rc && sa.mode != sb.mode) {
		pgw_cli_error("the two spaces are in different paging modes "
			      "(%s, %s): nothing to compare address by "
			      "address", sa.mode->name, sb.mode->name);
		rc = PGW_EXIT_NOROOT;
	}
	if (rc) {
		session_close(&s2);
		session_close(&s);
		return rc;
	}
	session_say(&s);
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = { stdout, fmt, sa.mode, NULL, false };
	struct diff_state d = { .out = &out };
	struct diff_head head = { sa.root, sb.root };
	struct pgw_diff_stats t = { 0 };
	struct pgw_diff_opts opts = {
		.walk = { .start = a.start, .end = a.end,
			  .max_entries = a.in.opts.max_entries },
		.data = a.data,
	};
	out_table(&out, &diff_table, &head);
	enum pgw_status st = pgw_diff_spaces(&sa, &sb, &opts, on_range, &d,
					     &t, &err);
	if (st == PGW_OK) {
		struct diff_summary_rec sum = {
			.root_a = sa.root, .root_b = sb.root,
			.ranges = d.ranges, .added = t.added,
			.removed = t.removed, .changed = t.changed,
			.uncompared = t.uncompared, .same = t.same,
			.data_compared = { t.data_compared, a.data },
			.table_not_in_image = t.table_absent,
			.complete = !incomplete(&t), .reason = incomplete(&t),
		};
		out_record(&out, &diff_summary_rec_type, &sum);
		rc = t.uncompared ? PGW_EXIT_EVIDENCE :
		     t.added || t.removed || t.changed ? PGW_EXIT_NOANSWER :
							 PGW_EXIT_OK;
	} else if (st != PGW_E_STOPPED) {
		pgw_cli_error("%s: %s", s.path, err.msg);
		rc = pgw_exit_for(st);
	}
	rc = pgw_cli_flush(rc);
	session_close(&s2);
	session_close(&s);
	return rc;
}
