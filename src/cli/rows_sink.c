/* A piece's records kept in memory until written in order (rows_sink.h). */
#include "rows_sink.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* Chunk k of s, its lines emptied (a kept chunk holds a past piece's):
 * NULL when out of memory. */
static struct line *chunk_at(struct rows_sink *s, size_t k)
{
	if (k == s->nchunks) {
		struct line **c = realloc(s->chunk, (k + 1) * sizeof(*c));
		if (!c)
			return NULL;
		s->chunk = c;
		if (!(c[k] = malloc(ROWS_LINES * sizeof(*c[k]))))
			return NULL;
		s->nchunks++;
	}
	for (int i = 0; i < ROWS_LINES; i++)
		s->chunk[k][i].len = 0;
	return s->chunk[k];
}

static void point(struct rows *r, struct line *lines)
{
	r->line = r->at = lines;
	r->end = lines + ROWS_LINES;
}

bool rows_sink_take(struct rows_sink *s, struct rows *r)
{
	struct line *first = chunk_at(s, 0);

	s->used = 0;
	s->last = NULL;
	s->nomem = false;
	if (!first)
		return false;
	s->used = 1;
	r->sink = s;
	point(r, first);
	return true;
}

void rows_sink_more(struct rows *r)
{
	struct rows_sink *s = r->sink;
	struct line *next = chunk_at(s, s->used);

	if (!next) {
		/* The piece is lost (nomem says so): the lines refilled. */
		s->nomem = true;
		point(r, r->line);
		for (int i = 0; i < ROWS_LINES; i++)
			r->line[i].len = 0;
		return;
	}
	s->used++;
	point(r, next);
}

void rows_sink_done(struct rows_sink *s, const struct rows *r)
{
	s->last = r->at;
}

int rows_writev(int fd, struct iovec *v, int n)
{
	while (n > 0) {
		ssize_t w = writev(fd, v, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)   /* 0: no progress, which would loop */
			return w < 0 ? errno : EIO;
		for (; n > 0 && (size_t)w >= v->iov_len; v++, n--)
			w -= (ssize_t)v->iov_len;
		if (n > 0) {
			v->iov_base = (char *)v->iov_base + w;
			v->iov_len -= (size_t)w;
		}
	}
	return 0;
}

int rows_sink_write(const struct rows_sink *s, int fd)
{
	enum { MOST = IOV_MAX < 1024 ? IOV_MAX : 1024 };
	struct iovec iov[MOST];
	int n = 0, e;

	for (size_t k = 0; k < s->used; k++) {
		struct line *l = s->chunk[k];
		struct line *end = k + 1 == s->used && s->last ?
				   s->last + 1 : l + ROWS_LINES;
		for (; l < end; l++) {
			if (!l->len)
				continue;
			iov[n++] = (struct iovec){ l->buf, l->len };
			if (n == MOST) {
				if ((e = rows_writev(fd, iov, n)))
					return e;
				n = 0;
			}
		}
	}
	return rows_writev(fd, iov, n);
}

void rows_sink_free(struct rows_sink *s)
{
	for (size_t k = 0; k < s->nchunks; k++)
		free(s->chunk[k]);
	free(s->chunk);
	*s = (struct rows_sink){ 0 };
}

/* Into o->rows, a line's room at a time. */
static ssize_t stream_write(void *cookie, const char *buf, size_t n)
{
	struct out *o = cookie;

	for (size_t left = n; left > 0;) {
		struct line *l = out_row(o);
		size_t room = sizeof(l->buf) - l->len;
		size_t k = left < room ? left : room;
		memcpy(l->buf + l->len, buf, k);
		l->len += k;
		buf += k;
		left -= k;
	}
	return (ssize_t)n;
}

FILE *rows_sink_stream(struct out *o)
{
	FILE *f = fopencookie(o, "w", (cookie_io_functions_t){
		.write = stream_write });

	if (f)
		setvbuf(f, NULL, _IONBF, 0);
	return f;
}
