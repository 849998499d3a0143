/* Gathered records out to stdout in one writev (output.h's struct rows). */
#include "output.h"
#include "exit_codes.h"
#include "rows_sink.h"

#include <errno.h>
#include <sys/uio.h>

void out_rows_ship(struct out *o)
{
	struct rows *r = o->rows;
	struct iovec iov[ROWS_LINES];
	int n = 0;

	if (r->sink) {
		rows_sink_more(r);
		return;
	}
	for (struct line *l = r->line; l <= r->at; l++) {
		if (l->len)
			iov[n++] = (struct iovec){ l->buf, l->len };
		/* The bytes stay until the next record: written below. */
		l->len = 0;
	}
	r->at = r->line;
	/* Once refused, nothing more is written (the command stops at
	 * pgw_output_failed and says why). */
	if (fflush(o->f) != 0 || pgw_output_failed())
		return;
	int e = rows_writev(fileno(o->f), iov, n);
	if (e)
		pgw_output_error(e);
}
