/* Gathered records out to stdout in one writev (output.h's struct rows). */
#include "output.h"
#include "exit_codes.h"

#include <errno.h>
#include <sys/uio.h>

void out_rows_ship(struct out *o)
{
	struct rows *r = o->rows;
	struct iovec iov[ROWS_LINES], *v = iov;
	int n = 0;

	for (struct line *l = r->line; l <= r->at; l++) {
		if (l->len)
			iov[n++] = (struct iovec){ l->buf, l->len };
		/* The bytes stay until the next record: written below. */
		l->len = 0;
	}
	r->at = r->line;
	if (r->stdio) {
		for (int i = 0; i < n; i++)
			fwrite(iov[i].iov_base, 1, iov[i].iov_len, o->f);
		return;
	}
	/* Once refused, nothing more is written (the command stops at
	 * pgw_output_failed and says why). */
	if (fflush(o->f) != 0 || pgw_output_failed())
		return;
	while (n > 0) {
		ssize_t w = writev(fileno(o->f), v, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {   /* 0: no progress, which would loop */
			pgw_output_error(w < 0 ? errno : EIO);
			return;
		}
		for (; n > 0 && (size_t)w >= v->iov_len; v++, n--)
			w -= (ssize_t)v->iov_len;
		if (n > 0) {
			v->iov_base = (char *)v->iov_base + w;
			v->iov_len -= (size_t)w;
		}
	}
}
