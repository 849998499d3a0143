/*
 * What `info` prints: one record describing the image and how pgwalk
 * would walk it (info_out.c: its type and its text; cmd_info.c fills
 * the view in).  JSON and text only: an image is not a table.
 */
#ifndef PGW_INFO_OUT_H
#define PGW_INFO_OUT_H

#include "record.h"
#include "pgwalk.h"

struct out;

/* What info shows: the image, and how pgwalk would walk it. */
struct info_view {
	struct pgw_image *img;
	const struct pgw_space_why *why;   /* why->mode.mode NULL: no mode */
	bool have_root;                    /* false: no root (why->root unset) */
	uint64_t root;
	const struct pgw_pti *pti;         /* one per CPU; NULL without a mode */
	struct pgw_evidence ev;
	/* The task list read through the kernel root (with a mode only):
	 * how many tasks, how they were named, or why there are none. */
	bool names_tried;
	const char *names_method;          /* NULL: no task list */
	size_t ntasks, nprocesses;
	bool names_complete;
	char names_why[1024];
};

/* The view as info's record, printed in o's format. */
void info_print(struct out *o, const struct info_view *v);

#endif
