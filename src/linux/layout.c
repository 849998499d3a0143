/*
 * Choosing a memory-map layout and turning its rows into regions.  Which
 * era: --layout, else OSRELEASE from VMCOREINFO, else the era whose fixed
 * direct-map base the page tables show (a randomized one means a modern
 * kernel).  The era's resolver then reads or infers the bases.
 */
#include "../lib/err.h"
#include "layout.h"
#include "../lib/names.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct layout_era *const eras[] = {
	&pgw_era_x86_64_2611, &pgw_era_x86_64_2627, &pgw_era_x86_64_420,
	&pgw_era_la57_414, &pgw_era_la57_420, &pgw_era_i386,
	&pgw_era_arm64_48, &pgw_era_arm64_69,
};
#define NERAS PGW_NELEMS(eras)

const char *pgw_base_source_name(enum pgw_base_source src)
{
	static const char *const names[] = {
		[PGW_BASE_LAYOUT] = "layout",
		[PGW_BASE_VMCOREINFO] = "vmcoreinfo",
		[PGW_BASE_CPU] = "cpu",
		[PGW_BASE_OPTION] = "option",
		[PGW_BASE_INFERRED] = "inferred",
		[PGW_BASE_DEFAULT] = "default",
	};
	return PGW_NAME(names, src, "?");
}

const char *const *pgw_layout_names(void)
{
	static const char *names[NERAS + 1];

	for (size_t i = 0; i < NERAS; i++)
		names[i] = eras[i]->name;
	return names;
}

const char *pgw_layout_describe(const char *name)
{
	for (size_t i = 0; i < NERAS; i++)
		if (strcmp(eras[i]->name, name) == 0)
			return eras[i]->desc;
	return NULL;
}

bool pgw_layout_default_region(const char *name, const struct pgw_mode *mode,
			       const char *key, uint64_t *start_ret,
			       uint64_t *end_ret)
{
	const struct layout_era *e = NULL;

	for (size_t i = 0; i < NERAS; i++)
		if (strcmp(eras[i]->name, name) == 0)
			e = eras[i];
	if (!e || !layout_era_fits(e, mode))
		return false;
	for (size_t i = 0; i < e->nrows; i++) {
		const struct layout_row *r = &e->rows[i];
		if (strcmp(r->key, key) != 0 || r->end_var || r->size_var)
			continue;
		uint64_t end = r->start + r->size;
		/* A row without a size runs to the next row's start. */
		for (size_t k = 0; !r->size && k < e->nrows; k++)
			if (e->rows[k].start > r->start &&
			    (end == r->start || e->rows[k].start < end))
				end = e->rows[k].start;
		if (end == r->start)
			return false;
		*start_ret = r->start;
		*end_ret = end;
		return true;
	}
	return false;
}

uint32_t layout_release_version(const char *s)
{
	unsigned long part[3] = { 0, 0, 0 };
	char *end;

	for (int i = 0; i < 3; i++) {
		if (*s < '0' || *s > '9')
			return i >= 2 ? KV(part[0], part[1], 0) : 0;
		part[i] = strtoul(s, &end, 10);
		if (part[i] > 255)
			return 0;
		s = end;
		if (*s != '.')
			break;
		s++;
	}
	return part[0] ? KV(part[0], part[1], part[2]) : 0;
}

bool layout_era_fits(const struct layout_era *era, const struct pgw_mode *mode)
{
	if (era->elf_machine && era->elf_machine == mode->hints.elf_machine)
		return true;
	for (size_t i = 0; i < PGW_NELEMS(era->modes); i++)
		if (era->modes[i] == mode)
			return true;
	return false;
}

static const struct layout_era *choose(const struct pgw_space *space,
				       uint32_t version, const char *release,
				       struct pgw_layout *out)
{
	const struct layout_era *newest = NULL, *oldest = NULL;
	uint64_t dm = 0;
	unsigned matches;

	for (size_t i = 0; i < NERAS; i++) {
		const struct layout_era *e = eras[i];
		if (!layout_era_fits(e, space->mode))
			continue;
		if (!oldest)
			oldest = e;
		newest = e;
		if (version && version >= e->from &&
		    (e->until == 0 || version < e->until)) {
			snprintf(out->why, sizeof(out->why),
				 "VMCOREINFO OSRELEASE=%s", release);
			return e;
		}
	}
	if (!newest)
		return NULL;
	if (version) {
		snprintf(out->why, sizeof(out->why),
			 "OSRELEASE=%s predates every %s layout; the oldest "
			 "is used", release, space->mode->name);
		return oldest;
	}
	if (pgw_find_direct_map(space, &dm, &matches)) {
		for (size_t i = 0; i < NERAS; i++) {
			const struct layout_era *e = eras[i];
			if (layout_era_fits(e, space->mode) &&
			    e->direct_default == dm) {
				snprintf(out->why, sizeof(out->why),
					 "no OSRELEASE; the direct map is at "
					 "this era's base 0x%llx",
					 (unsigned long long)dm);
				return e;
			}
		}
	}
	snprintf(out->why, sizeof(out->why),
		 "no OSRELEASE; the newest %s layout is assumed",
		 space->mode->name);
	return newest;
}

/* The kernel's own root when VMCOREINFO names one, else space's. */
static struct pgw_space kernel_space(const struct pgw_space *space)
{
	struct pgw_root_request kernel = { .enc = space->enc };
	struct pgw_space k = *space;
	struct pgw_root root;
	struct pgw_err err;

	if (pgw_root_resolve(space->img, space->mode, &kernel, &root, &err) ==
		    PGW_OK &&
	    root.source == PGW_ROOT_VMCOREINFO) {
		k.root = root.table;
		if (space->mode->root_select_bit) {
			k.root = root.lower;
			k.root_upper = root.upper;
		}
	}
	return k;
}

enum pgw_status pgw_layout_resolve(const struct pgw_space *given,
				   const struct pgw_layout_request *req,
				   struct pgw_layout *out,
				   struct pgw_err *err)
{
	static const struct pgw_layout_request none = { 0 };
	const struct pgw_space kspace = kernel_space(given);
	const struct pgw_space *space = &kspace;
	const char *release = pgw_vmcoreinfo_get(space->img, "OSRELEASE");
	const struct layout_era *era = NULL;
	struct layout_vals vals;

	if (!req)
		req = &none;
	memset(out, 0, sizeof(*out));
	memset(&vals, 0, sizeof(vals));
	vals.version = release ? layout_release_version(release) : 0;
	if (req->name) {
		for (size_t i = 0; i < NERAS && !era; i++)
			if (strcmp(eras[i]->name, req->name) == 0)
				era = eras[i];
		if (!era)
			return pgw_err_set(err, PGW_E_ARG,
					   "no layout '%s'", req->name);
		if (!layout_era_fits(era, space->mode))
			return pgw_err_set(err, PGW_E_ARG,
					   "layout %s is for %s paging, the "
					   "image uses %s", era->name,
					   era->modes[0]->name,
					   space->mode->name);
		snprintf(out->why, sizeof(out->why), "--layout=%s",
			 req->name);
	} else {
		era = choose(space, vals.version, release, out);
		if (!era)
			return pgw_err_set(err, PGW_E_UNSUPPORTED,
					   "no memory-map layout for %s paging",
					   space->mode->name);
	}
	out->name = era->name;
	out->desc = era->desc;
	layout_defaults(era, &vals);
	era->resolve(era, space, req, &vals, out);
	uint64_t top = space->mode->va_bits >= 64 ||
				       (space->mode->quirks & PGW_Q_CANONICAL) ||
				       space->mode->root_select_bit ?
			       0 : UINT64_C(1) << space->mode->va_bits;
	layout_build(era, &vals, top, out);
	return PGW_OK;
}

void layout_defaults(const struct layout_era *era, struct layout_vals *vals)
{
	for (size_t i = 0; i < era->nrows; i++) {
		const struct layout_row *r = &era->rows[i];
		if (r->start_var && !vals->known[r->start_var]) {
			vals->v[r->start_var] = r->start;
			vals->known[r->start_var] = true;
		}
	}
}

void layout_base(struct pgw_layout *out, const char *name, uint64_t value,
		 enum pgw_base_source src, const char *fmt, ...)
{
	va_list ap;

	if (out->nbases >= PGW_LAYOUT_MAX_BASES)
		return;
	struct pgw_layout_base *b = &out->base[out->nbases++];
	b->name = name;
	b->value = value;
	b->source = src;
	va_start(ap, fmt);
	vsnprintf(b->why, sizeof(b->why), fmt, ap);
	va_end(ap);
}

/* A row placed in the address space, bounds inclusive (the top of a
 * 64-bit space is 2^64 - 1, which an exclusive end cannot say). */
struct span {
	const struct layout_row *row;
	uint64_t first, last;
	bool to_next;
};

static bool row_span(const struct layout_row *r, const struct layout_vals *v,
		     struct span *s)
{
	uint64_t start = r->start, end = 0;

	if (r->since && v->version && v->version < r->since)
		return false;
	if (r->unrandomized && v->randomized)
		return false;
	if (r->start_var) {
		if (!v->known[r->start_var])
			return false;
		start = v->v[r->start_var];
	}
	s->row = r;
	s->first = start;
	s->to_next = false;
	if (r->end_var && v->known[r->end_var])
		end = v->v[r->end_var];
	else if (r->size_var && v->known[r->size_var])
		end = start + v->v[r->size_var];
	else if (r->size)
		end = start + r->size;
	else
		s->to_next = true;
	if (!s->to_next) {
		if (end != 0 && end <= start)
			return false;
		s->last = end - 1;  /* end 0 is 2^64: last is 2^64 - 1 */
	}
	return true;
}

static void emit(struct pgw_layout *out, const char *key, const char *name,
		 uint64_t first, uint64_t last)
{
	if (out->nregions >= PGW_LAYOUT_MAX_REGIONS)
		return;
	struct pgw_region *g = &out->region[out->nregions++];
	g->key = key;
	g->name = name;
	g->start = first;
	g->end = last + 1;
}

void layout_build(const struct layout_era *era, const struct layout_vals *vals,
		  uint64_t top, struct pgw_layout *out)
{
	struct span s[PGW_LAYOUT_MAX_REGIONS];
	size_t n = 0;
	uint64_t top_last = top - 1;  /* top 0 is 2^64 */

	for (size_t i = 0; i < era->nrows && n < PGW_LAYOUT_MAX_REGIONS; i++)
		if (row_span(&era->rows[i], vals, &s[n]) &&
		    s[n].first <= top_last)
			n++;
	/* Insertion sort by start: a handful of rows. */
	for (size_t i = 1; i < n; i++) {
		struct span t = s[i];
		size_t j = i;
		for (; j > 0 && s[j - 1].first > t.first; j--)
			s[j] = s[j - 1];
		s[j] = t;
	}
	uint64_t cur = 0;
	bool full = false;
	out->nregions = 0;
	for (size_t i = 0; i < n && !full; i++) {
		uint64_t first = s[i].first > cur ? s[i].first : cur;
		uint64_t last = s[i].to_next ? top_last : s[i].last;
		/* A later row wins where two overlap. */
		if (i + 1 < n && s[i + 1].first <= last)
			last = s[i + 1].first - 1;
		if (last > top_last)
			last = top_last;
		if (s[i].first < cur && s[i].last < cur && !s[i].to_next)
			continue;
		if (first > last)
			continue;
		if (first > cur)
			emit(out, "unused", "unused", cur, first - 1);
		emit(out, s[i].row->key, s[i].row->name, first, last);
		if (last == top_last)
			full = true;
		else
			cur = last + 1;
	}
	if (!full)
		emit(out, "unused", "unused", cur, top_last);
}

struct first_leaf {
	struct pgw_leaf leaf;
	bool found;
};

static int first_leaf_cb(void *arg, const struct pgw_leaf *leaf)
{
	struct first_leaf *f = arg;

	f->leaf = *leaf;
	f->found = true;
	return 1;
}

bool layout_first_leaf(const struct pgw_space *space, uint64_t start,
		       uint64_t end, struct pgw_leaf *leaf_ret)
{
	struct first_leaf f = { .found = false };
	struct pgw_walk_ops ops = { .leaf = first_leaf_cb };
	struct pgw_walk_opts opts = {
		.start = start, .end = end,
		.max_entries = PGW_DEFAULT_MAX_ENTRIES,   /* hostile tables */
	};
	struct pgw_err err;

	(void)pgw_walk_range(space, &opts, &ops, &f, NULL, NULL, &err);
	if (f.found)
		*leaf_ret = f.leaf;
	return f.found;
}
