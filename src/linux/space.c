/*
 * An address space from what a caller knows: the mode (named, else
 * detected), the memory-encryption bits (given, from VMCOREINFO, else
 * inferred from the root's tables) and the root (resolved), with the
 * reasons for each.
 */
#include "linux.h"

#include <stdio.h>
#include <string.h>

static enum pgw_status choose_mode(struct pgw_image *img,
				   const struct pgw_space_request *req,
				   const struct pgw_enc_choice *enc,
				   struct pgw_mode_choice *ch,
				   struct pgw_err *err)
{
	if (!req->mode)
		return pgw_detect_mode(img, req->root.cr3, req->root.have_cr3,
				       enc, ch, err);
	ch->mode = pgw_mode_by_name(req->mode);
	if (!ch->mode)
		return pgw_err_set(err, PGW_E_ARG, "unknown mode '%s'",
				   req->mode);
	snprintf(ch->why, sizeof(ch->why), "--mode=%s", req->mode);
	return PGW_OK;
}

/* The bits in mode: i386's 32-bit entries have none to give; nothing
 * declared, the root's tables are asked. */
static enum pgw_status choose_enc(struct pgw_image *img,
				  const struct pgw_space_request *req,
				  const struct pgw_mode *mode,
				  struct pgw_enc_choice *enc,
				  struct pgw_err *err)
{
	uint64_t cr3;

	if (mode->entry_size < 8 && (enc->bits.enc || enc->bits.shared)) {
		if (enc->source == PGW_ENC_OPTION ||
		    enc->shared_source == PGW_ENC_OPTION)
			return pgw_err_set(err, PGW_E_ARG,
					   "--sme-mask/--shared-mask: %s "
					   "entries are 32 bits, with no "
					   "encryption bit", mode->name);
		/* VMCOREINFO of no 32-bit kernel names one. */
		size_t n = strlen(enc->why);
		snprintf(enc->why + n, sizeof(enc->why) - n,
			 "; not used: %s entries are 32 bits", mode->name);
		memset(&enc->bits, 0, sizeof(enc->bits));
		enc->source = PGW_ENC_NONE;
		return PGW_OK;
	}
	if (enc->source == PGW_ENC_NONE &&
	    linux_root_cr3(img, mode, &req->root, &cr3))
		(void)pgw_enc_infer(img, mode, cr3, enc);
	linux_enc_say_shared(enc);
	return PGW_OK;
}

enum pgw_status pgw_space_open(struct pgw_image *img,
			       const struct pgw_space_request *req,
			       struct pgw_space *space,
			       struct pgw_space_why *why,
			       struct pgw_err *err)
{
	struct pgw_root_request root;
	enum pgw_status st;

	memset(why, 0, sizeof(*why));
	memset(space, 0, sizeof(*space));
	st = linux_enc_declared(img, &req->enc, &why->enc, err);
	if (st == PGW_OK)
		st = choose_mode(img, req, &why->enc, &why->mode, err);
	if (st == PGW_OK)
		st = choose_enc(img, req, why->mode.mode, &why->enc, err);
	if (st != PGW_OK)
		return st;
	root = req->root;
	root.enc = why->enc.bits;
	st = pgw_root_resolve(img, why->mode.mode, &root, &why->root, err);
	if (st == PGW_OK) {
		space->img = img;
		space->mode = why->mode.mode;
		space->root = why->root.table;
		space->enc = why->enc.bits;
	}
	return st;
}
