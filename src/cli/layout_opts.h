/*
 * The memory-map options dump and regions share (--layout and the base
 * overrides) and the one way both resolve a layout for a session.
 */
#ifndef PGW_LAYOUT_OPTS_H
#define PGW_LAYOUT_OPTS_H

#include <argp.h>

#include "session.h"

/* What the options ask; the bases are parsed once every option is known
 * (--hex). */
struct layout_args {
	struct pgw_layout_request req;
	const char *page_offset_arg, *vmalloc_arg, *vmemmap_arg;
};

/* argp child; its input is a struct layout_args. */
extern const struct argp layout_argp;
/* The children of a subcommand with the shared and the layout options:
 * session_argp (child 0), layout_argp (child 1). */
extern const struct argp_child layout_children[];

/* Resolve the layout for s (mode and root chosen): pgw_layout_resolve.
 * 0 or an exit status (message printed). */
int cli_layout(struct session *s, const struct pgw_layout_request *req,
	       struct pgw_layout *layout);

/* The end of a process's own, user half: the layout's user region, else
 * the lower half of the address space (dump and search --pid). */
uint64_t cli_user_end(const struct pgw_layout *lay,
		      const struct pgw_mode *mode);

#endif
