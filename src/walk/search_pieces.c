/*
 * The workers and pieces both threaded searches of physical memory use
 * (search_pieces.h says what each holds).
 */
#include "search_pieces.h"
#include "../formats/image_page.h"

#include <stdlib.h>

void search_worker_hit(void *arg, const struct scan_hit *h)
{
	struct search_worker *w = arg;
	struct search_piece *p = w->piece;

	if (p->oom)
		return;
	if (!scan_hits_push(&p->hits, &p->nhits, &p->cap, h))
		p->oom = true;
}

/* sc's patterns, the regular expressions compiled again; NULL: out of
 * memory. */
static struct pattern **own_patterns(struct pattern *const *pat, size_t n)
{
	struct pattern **own = calloc(n ? n : 1, sizeof(*own));
	struct pgw_err ignored;
	bool ok = own != NULL;

	for (size_t i = 0; ok && i < n; i++) {
		own[i] = pat[i];
		if (pat[i]->kind != PGW_PATTERN_REGEX)
			continue;
		own[i] = calloc(1, sizeof(*own[i]));
		ok = own[i] && pattern_compile(own[i], PGW_PATTERN_REGEX,
					       pat[i]->text, &ignored);
		if (!ok && own[i]) {
			free(own[i]);
			own[i] = NULL;
		}
	}
	return ok ? own : NULL;
}

static void free_patterns(struct pattern **own, struct pattern *const *pat,
			  size_t n)
{
	for (size_t i = 0; own && i < n; i++)
		if (own[i] && own[i] != pat[i]) {
			pattern_free(own[i]);
			free(own[i]);
		}
	free(own);
}

struct search_worker *search_workers_open(struct pgw_image *img,
					  unsigned *threads, size_t n,
					  const struct scanner *sc,
					  void (*hit)(void *,
						      const struct scan_hit *))
{
	struct pgw_image *const *images;
	struct search_worker *w;
	struct pgw_err err;

	if (*threads > n)
		*threads = (unsigned)n;
	if (*threads < 2 ||
	    pgw_image_workers(img, *threads, &images, &err) != PGW_OK ||
	    !(w = calloc(*threads, sizeof(*w))))
		return NULL;
	for (unsigned t = 0; t < *threads; t++) {
		w[t].img = images[t];
		w[t].pat = own_patterns(sc->pat, sc->npat);
		w[t].ready = w[t].pat && scan_init(&w[t].sc, w[t].pat, sc->npat,
						   hit, &w[t]);
	}
	return w;
}

void search_workers_close(struct search_worker *w, unsigned threads,
			  const struct scanner *sc)
{
	for (unsigned t = 0; t < threads; t++) {
		scan_free(&w[t].sc);
		free_patterns(w[t].pat, sc->pat, sc->npat);
	}
	free(w);
}

void search_piece_take(const struct search_piece *p, struct scanner *sc,
		       uint64_t not_in_image[PGW_NABSENCES],
		       const int *stopped)
{
	for (size_t k = 0; k < p->nhits && !*stopped; k++)
		sc->hit(sc->arg, &p->hits[k]);
	sc->bytes += p->bytes;
	sc->oom |= p->oom;
	for (int a = 0; a < PGW_NABSENCES; a++)
		not_in_image[a] += p->not_in_image[a];
}
