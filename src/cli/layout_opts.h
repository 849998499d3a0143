/*
 * The memory-map options dump and regions share (--layout and the base
 * overrides) and the one way both resolve a layout for a session.
 */
#ifndef PGW_LAYOUT_OPTS_H
#define PGW_LAYOUT_OPTS_H

#include <argp.h>

#include "session.h"

/* argp child; its input is a struct pgw_layout_request. */
extern const struct argp layout_argp;

/* Resolve the layout for s (mode and root chosen).  Bases are inferred
 * from the kernel's own page tables when VMCOREINFO names them, else from
 * the session's root.  0 or an exit status (message printed). */
int cli_layout(struct session *s, const struct pgw_layout_request *req,
	       struct pgw_layout *layout);

#endif
