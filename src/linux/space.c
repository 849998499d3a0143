/*
 * An address space from what a caller knows: the mode (named, else
 * detected) and the root (resolved), with the reasons for both.
 */
#include "pgwalk.h"

#include <stdio.h>
#include <string.h>

static enum pgw_status choose_mode(struct pgw_image *img,
				   const struct pgw_space_request *req,
				   struct pgw_mode_choice *ch,
				   struct pgw_err *err)
{
	if (!req->mode)
		return pgw_detect_mode(img, req->root.cr3, req->root.have_cr3,
				       ch, err);
	ch->mode = pgw_mode_by_name(req->mode);
	if (!ch->mode)
		return pgw_err_set(err, PGW_E_ARG, "unknown mode '%s'",
				   req->mode);
	snprintf(ch->why, sizeof(ch->why), "--mode=%s", req->mode);
	return PGW_OK;
}

enum pgw_status pgw_space_open(struct pgw_image *img,
			       const struct pgw_space_request *req,
			       struct pgw_space *space,
			       struct pgw_space_why *why,
			       struct pgw_err *err)
{
	enum pgw_status st;

	memset(why, 0, sizeof(*why));
	memset(space, 0, sizeof(*space));
	st = choose_mode(img, req, &why->mode, err);
	if (st == PGW_OK)
		st = pgw_root_resolve(img, why->mode.mode, &req->root,
				      &why->root, err);
	if (st == PGW_OK) {
		space->img = img;
		space->mode = why->mode.mode;
		space->root = why->root.table;
	}
	return st;
}
