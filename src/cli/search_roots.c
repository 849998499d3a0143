#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "owned_roots.h"
#include "search_roots.h"

bool hit_store_add(struct hit_store *st, const struct search_hit *h)
{
	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 64;
		struct search_hit *n = realloc(st->hit, cap * sizeof(*n));
		if (!n)
			return false;
		st->hit = n;
		st->cap = cap;
	}
	uint8_t *bytes = malloc(h->context_len ? h->context_len : 1);
	if (!bytes)
		return false;
	memcpy(bytes, h->context, h->context_len);
	struct search_hit *k = &st->hit[st->n++];
	*k = *h;
	k->context = bytes;
	k->match = bytes + h->before;
	return true;
}

void hit_store_free(struct hit_store *st)
{
	for (size_t i = 0; i < st->n; i++)
		free((void *)st->hit[i].context);
	free(st->hit);
}

/* A mapping of a kept hit's frame. */
struct hit_map {
	size_t hit;
	uint32_t owner;
	uint64_t va;
	uint64_t same_frame_pages, page_size;
};

struct mapper {
	const struct hit_store *st;
	size_t *by_pa;           /* hit indexes sorted by pa */
	uint32_t owner;
	struct hit_map *map;
	size_t n, cap;
	uint64_t tables_missing;
	bool oom;
};

static const struct hit_store *sort_store;

static int cmp_pa(const void *a, const void *b)
{
	uint64_t x = sort_store->hit[*(const size_t *)a].pa;
	uint64_t y = sort_store->hit[*(const size_t *)b].pa;

	return x < y ? -1 : x > y;
}

/* Every kept hit whose frame lies in [pa, pa + size), mapped at va. */
static void cover(struct mapper *m, uint64_t va, uint64_t pa, uint64_t size,
		  uint64_t count)
{
	size_t lo = 0, hi = m->st->n;

	while (lo < hi) {    /* the first hit at or above pa */
		size_t mid = lo + (hi - lo) / 2;
		if (m->st->hit[m->by_pa[mid]].pa < pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->st->n; lo++) {
		size_t i = m->by_pa[lo];
		uint64_t off = m->st->hit[i].pa - pa;
		if (off >= size)
			break;
		if (m->n == m->cap) {
			size_t cap = m->cap ? 2 * m->cap : 64;
			struct hit_map *n = realloc(m->map, cap * sizeof(*n));
			if (!n) {
				m->oom = true;
				return;
			}
			m->map = n;
			m->cap = cap;
		}
		m->map[m->n++] = (struct hit_map){
			.hit = i, .owner = m->owner, .va = va + off,
			.same_frame_pages = count, .page_size = size,
		};
	}
}

static int on_leaf(void *arg, const struct pgw_leaf *lf)
{
	struct mapper *m = arg;

	cover(m, lf->va, lf->pa, lf->size, lf->count);
	return m->oom;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct mapper *m = arg;

	if (h->stop == PGW_STOP_TABLE_NOT_IN_IMAGE)
		m->tables_missing++;
	/* PROT_NONE: the frame is still the process's. */
	if (h->stop == PGW_STOP_NOT_PRESENT &&
	    h->entry.np_kind == PGW_NP_PROTNONE)
		cover(m, h->va, h->entry.np_pfn << PGW_PAGE_SHIFT,
		      h->end - h->va, 1);
	return m->oom;
}

static int cmp_map(const void *a, const void *b)
{
	const struct hit_map *x = a, *y = b;

	if (x->hit != y->hit)
		return x->hit < y->hit ? -1 : 1;
	if (x->owner != y->owner)
		return x->owner < y->owner ? -1 : 1;
	return x->va < y->va ? -1 : x->va > y->va;
}

/* Each kept hit, once per mapping (in the order of the roots, then by
 * va), or once with va null. */
static void emit(struct out *out, const struct hit_store *st,
		 const struct owned_roots *o, const struct hit_map *map,
		 size_t n)
{
	size_t j = 0;

	for (size_t i = 0; i < st->n && !pgw_output_failed(); i++) {
		struct search_hit h = st->hit[i];
		if (j == n || map[j].hit != i) {
			search_say_hit(out, &h);
			continue;
		}
		for (; j < n && map[j].hit == i; j++) {
			const struct owner *w = &o->owners[map[j].owner];
			h.have_va = h.have_root = true;
			h.va = map[j].va;
			h.root = w->root;
			h.have_pid = w->comm != NULL;
			h.pid = w->pid;
			h.comm = w->comm;
			h.comm_len = w->comm_len;
			h.same_frame_pages = map[j].same_frame_pages;
			h.page_size = map[j].page_size;
			search_say_hit(out, &h);
		}
	}
}

/*
 * Each root's walks on the image's threads (pgw_space_jobs_run), each
 * with a mapper of its own (the hits shared, only read), put together in
 * order: each walk has a budget of its own, so the maps are those of the
 * walks one after another.  A walk that failed is walked again in turn
 * through the command's image, for its message.
 */
struct map_walks {
	const struct mapper *base;   /* the hits, sorted */
	struct mapper *m;            /* the whole map, in order */
	struct mapper *apart;        /* one per walk */
	const struct pgw_space *spaces;
	struct root_walk *w;
	uint32_t *owner;
	uint64_t max_entries;
	const char **reason;
	enum pgw_status rc;
	struct pgw_err *err;
};

static enum pgw_status map_walk(struct mapper *m, const struct pgw_space *sp,
				const struct root_walk *w, uint64_t budget,
				struct pgw_err *err)
{
	struct pgw_walk_opts wo = { .start = w->start, .end = w->end,
				    .max_entries = budget };
	struct pgw_walk_ops ops = { .leaf = on_leaf, .hole = on_hole };
	int stopped = 0;

	return pgw_walk_range(sp, &wo, &ops, m, NULL, &stopped, err);
}

static enum pgw_status map_apart(void *arg, size_t i,
				 const struct pgw_space *space,
				 struct pgw_err *err)
{
	struct map_walks *a = arg;
	struct mapper *m = &a->apart[i];

	*m = (struct mapper){ .st = a->base->st, .by_pa = a->base->by_pa,
			      .owner = a->owner[i] };
	return map_walk(m, space, &a->w[i], a->max_entries, err);
}

static int map_take(void *arg, size_t i, enum pgw_status rc,
		    const struct pgw_err *werr)
{
	struct map_walks *a = arg;
	struct mapper *m = a->m, *p = &a->apart[i];

	(void)werr;
	if (rc != PGW_OK && rc != PGW_E_LIMIT && rc != PGW_E_STOPPED) {
		p->tables_missing = 0;
		m->owner = a->owner[i];
		rc = map_walk(m, &a->spaces[i], &a->w[i], a->max_entries,
			      a->err);
	} else if (p->n) {
		struct hit_map *g = realloc(m->map, (m->n + p->n) *
							  sizeof(*g));
		if (g) {
			memcpy(g + m->n, p->map, p->n * sizeof(*g));
			m->map = g;
			m->n += p->n;
			m->cap = m->n;
		}
		m->oom |= !g;
	}
	m->tables_missing += p->tables_missing;
	m->oom |= p->oom;
	free(p->map);
	p->map = NULL;
	if (rc == PGW_E_LIMIT)
		*a->reason = "budget";
	else if (rc != PGW_E_STOPPED)
		a->rc = rc;
	return a->rc != PGW_OK || m->oom;
}

/* The walks of every root into m, in the roots' order. */
static enum pgw_status map_all(struct session *s, const struct owned_roots *o,
			       struct mapper *m, const char **reason,
			       struct pgw_err *err)
{
	size_t most = 2 * o->nowners + 1, n = 0;
	struct pgw_space *spaces = calloc(most, sizeof(*spaces));
	struct map_walks a = {
		.base = m, .m = m, .max_entries = s->opts.max_entries,
		.reason = reason, .err = err,
		.apart = calloc(most, sizeof(*a.apart)),
		.w = calloc(most, sizeof(*a.w)),
		.owner = calloc(most, sizeof(*a.owner)),
	};
	enum pgw_status rc = PGW_OK;

	if (!spaces || !a.apart || !a.w || !a.owner)
		rc = pgw_cli_out_of_memory(err);
	for (size_t i = 0; rc == PGW_OK && i < o->nowners; i++) {
		size_t nw = owned_root_walks(o, s->space.mode, i, a.w + n);
		for (size_t k = 0; k < nw; k++, n++) {
			a.owner[n] = (uint32_t)i;
			spaces[n] = (struct pgw_space){
				.img = s->img, .mode = s->space.mode,
				.root = a.w[n].table, .root_upper = a.w[n].upper,
				.enc = s->space.enc };
		}
	}
	a.spaces = spaces;
	struct pgw_space_jobs jobs = {
		.spaces = spaces, .n = n, .run = map_apart, .merge = map_take,
		.arg = &a,
	};
	if (rc == PGW_OK && (rc = pgw_space_jobs_run(&jobs, err)) == PGW_OK)
		rc = a.rc;
	for (size_t i = 0; a.apart && i < n; i++)
		free(a.apart[i].map);
	free(spaces);
	free(a.apart);
	free(a.w);
	free(a.owner);
	return rc;
}

int search_map_roots(struct session *s, struct out *out,
		     const struct hit_store *st, struct search_summary *sum,
		     int *names_rc)
{
	struct owned_roots o = { 0 };
	struct mapper m = { .st = st };
	struct pgw_err err = { 0 };
	enum pgw_status rc;
	int exit = 0;

	if (!(m.by_pa = malloc((st->n ? st->n : 1) * sizeof(*m.by_pa)))) {
		pgw_cli_error("out of memory");
		return PGW_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < st->n; i++)
		m.by_pa[i] = i;
	sort_store = st;
	if (st->n)
		qsort(m.by_pa, st->n, sizeof(*m.by_pa), cmp_pa);
	rc = owned_roots_open(s, s->opts.max_entries, &o, &err);
	if (rc == PGW_OK)
		rc = map_all(s, &o, &m, &sum->reason, &err);
	if (rc != PGW_OK) {
		pgw_cli_error("%s: %s", s->path, err.msg);
		exit = pgw_exit_for(rc);
	} else if (m.oom) {
		pgw_cli_error("out of memory: mappings were lost");
		exit = PGW_EXIT_INTERNAL;
	} else {
		if (m.n)
			qsort(m.map, m.n, sizeof(*m.map), cmp_map);
		emit(out, st, &o, m.map, m.n);
		sum->tables_not_in_image += m.tables_missing;
		owned_roots_say(&o, s->path);
		*names_rc = owned_roots_status(&o);
	}
	free(m.map);
	free(m.by_pa);
	owned_roots_free(&o);
	return exit;
}
