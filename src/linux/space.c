/*
 * An address space from what a caller knows: the mode (named, else
 * detected), the memory-encryption bits (given, from VMCOREINFO, else
 * inferred from the root's tables) and the root (resolved), with the
 * reasons for each.
 *
 * Most of what decides them is the kernel's VMCOREINFO.  An image without
 * a valid note (raw, LiME, AVML; an ELF or kdump whose note is missing or
 * damaged) has it in memory all the same, so when the mode or the root
 * needs it, it is looked for there and adopted as the note; without any
 * (older kernels), the kernel-root scan finds the kernel's top table and
 * the mode under which it maps itself.  Each looks at every page once,
 * so neither runs when the request and the image's own notes decide.
 * VMCOREINFO adopted from memory declares the C-bit as the note would;
 * the scan reads entries with the bits chosen by then.
 */
#include "../lib/err.h"
#include "linux.h"
#include "swap_layout.h"
#include "vmcoreinfo.h"
#include "../formats/image_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool root_given(const struct pgw_root_request *r)
{
	return r->have_cr3 || r->have_cpu || r->have_table || r->have_ttbr0 ||
	       r->have_ttbr1;
}

static bool cpu0_has_cr3(struct pgw_image *img)
{
	const struct pgw_cpu *cpus;

	return pgw_image_cpus(img, &cpus) > 0 && cpus[0].has_cr;
}

/* Is the image's own note one to use? */
static void check_note(struct pgw_image *img, struct pgw_facts_why *f)
{
	struct pgw_vmci_check c;
	struct pgw_err e = { 0 };

	switch (pgw_vmcoreinfo_validate(img, &c, &e)) {
	case PGW_OK:
		f->source = PGW_FACTS_NOTE;
		snprintf(f->why, sizeof(f->why), "the image's VMCOREINFO "
			 "note: %.280s", c.why);
		break;
	case PGW_E_NODATA:
		/* A filtered or cut dump: nothing says the note is wrong. */
		f->source = PGW_FACTS_NOTE;
		snprintf(f->why, sizeof(f->why), "the image's VMCOREINFO "
			 "note, not checked: %.260s", e.msg);
		break;
	case PGW_E_NOTFOUND:
		snprintf(f->why, sizeof(f->why), "the image has no "
			 "VMCOREINFO note");
		break;
	default:
		f->note_damaged = true;
		snprintf(f->why, sizeof(f->why), "the image's VMCOREINFO "
			 "note is damaged: %.250s", e.msg);
		break;
	}
}

/* The candidates and the choice, for `info` and -v. */
static void keep_candidates(struct pgw_facts_why *f,
			    const struct pgw_vmci_found *found)
{
	f->ncandidates = found->ncandidates;
	f->nlisted = found->nlisted;
	memcpy(f->cand, found->cand, found->nlisted * sizeof(f->cand[0]));
	f->conflict = found->conflict;
	snprintf(f->choice, sizeof(f->choice), "%s", found->choice);
}

/* Did the hint's pages give what they gave before: the same candidates,
 * each as valid as it was? */
static bool vmci_hint_held(const struct pgw_facts_hint *h,
			   const struct pgw_vmci_found *found)
{
	if (found->ncandidates != h->nvmci || found->nlisted != h->nvmci)
		return false;
	for (size_t i = 0; i < h->nvmci; i++)
		if (found->cand[i].pa != h->vmci_pa[i] ||
		    found->cand[i].valid != h->vmci_valid[i])
			return false;
	return true;
}

void linux_vmci_keep_found(const struct pgw_vmci_found *found,
			   struct pgw_facts_hint *h)
{
	if (!found->scan.complete || found->ncandidates == 0 ||
	    found->ncandidates > found->nlisted)
		return;
	h->nvmci = found->nlisted;
	for (size_t i = 0; i < h->nvmci; i++) {
		h->vmci_pa[i] = found->cand[i].pa;
		h->vmci_valid[i] = found->cand[i].valid;
	}
}

enum pgw_status linux_vmci_find_hinted(struct pgw_image *img,
				       const struct pgw_facts_hint *h,
				       struct pgw_scan_opts *opts,
				       struct pgw_vmci_found *found,
				       bool *held, struct pgw_err *err)
{
	*held = false;
	if (h && h->nvmci && h->nvmci <= PGW_VMCI_MAX_LISTED) {
		opts->only = h->vmci_pa;
		opts->nonly = h->nvmci;
		enum pgw_status st = pgw_vmcoreinfo_find_in_memory(img, opts,
								    found, err);
		opts->only = NULL;
		opts->nonly = 0;
		*held = (st == PGW_OK || st == PGW_E_NOTFOUND) &&
			vmci_hint_held(h, found);
		if (*held)
			return st;
		memset(err, 0, sizeof(*err));
	}
	return pgw_vmcoreinfo_find_in_memory(img, opts, found, err);
}

/* The candidates where the hint says they are (the cache's, else what a
 * whole scan of this very image found: the raw base's), when they still
 * are; else every page is looked at. */
static enum pgw_status find_vmci(struct pgw_image *img,
				 const struct pgw_facts_hint *h,
				 struct pgw_scan_opts *opts,
				 struct pgw_vmci_found *found,
				 struct pgw_facts_why *f, struct pgw_err *err)
{
	bool cached = h && h->nvmci, held;

	if (!cached)
		h = pgw_image_scan_hint(img);
	enum pgw_status st = linux_vmci_find_hinted(img, h, opts, found,
						    &held, err);
	f->vmci_hinted = cached && held;
	if (held) {
		f->found.nvmci = h->nvmci;
		memcpy(f->found.vmci_pa, h->vmci_pa, sizeof(h->vmci_pa));
		memcpy(f->found.vmci_valid, h->vmci_valid,
		       sizeof(h->vmci_valid));
	} else if (st == PGW_OK || st == PGW_E_NOTFOUND)
		linux_vmci_keep_found(found, &f->found);
	return st;
}

/* VMCOREINFO in memory, adopted in the note's place when found (or when
 * the request names one). */
static enum pgw_status search_memory(struct pgw_image *img,
				     const struct pgw_space_request *req,
				     const struct pgw_enc_bits *enc,
				     struct pgw_facts_why *f,
				     struct pgw_err *err)
{
	struct pgw_vmci_found *found = malloc(sizeof(*found));
	struct pgw_scan_opts opts = {
		.enc = *enc, .have_pa = req->have_vmcoreinfo_pa,
		.pa = req->vmcoreinfo_pa,
	};
	struct pgw_err e = { 0 };
	char before[sizeof(f->why)];
	enum pgw_status st;

	if (!found)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	snprintf(before, sizeof(before), "%s", f->why);
	st = find_vmci(img, req->hint, &opts, found, f, &e);
	keep_candidates(f, found);
	if (st == PGW_OK)
		st = pgw_image_adopt_vmcoreinfo(img, found->text, found->len,
						found->chosen.pa, &e);
	if (st == PGW_OK) {
		f->source = PGW_FACTS_MEMORY;
		f->pa = found->chosen.pa;
		snprintf(f->why, sizeof(f->why), "VMCOREINFO found in memory "
			 "at 0x%llx (the kernel's %s; %.150s)",
			 (unsigned long long)found->chosen.pa,
			 pgw_vmci_place_key(found->chosen.place), before);
	} else if (st == PGW_E_NOMEM || req->have_vmcoreinfo_pa) {
		/* A candidate asked for and not there is the caller's
		 * mistake to hear about, not a kernel without facts. */
		*err = e;
	} else {
		f->source = PGW_FACTS_NONE;
		snprintf(f->why, sizeof(f->why), "%.120s; %.190s", before,
			 e.msg);
		st = PGW_OK;
	}
	free(found);
	return st;
}

/* Is the hint's kernel root one for this scan (same mode asked, same
 * bits)? */
static bool kroot_hint_fits(const struct pgw_facts_hint *h,
			    const struct pgw_mode *mode,
			    const struct pgw_enc_bits *enc)
{
	return h && h->have_kroot && h->kroot_asked == mode &&
	       h->kroot_enc.enc == enc->enc &&
	       h->kroot_enc.shared == enc->shared;
}

/* The kernel-root scan, over the hint's table alone when it fits and
 * still is the one valid table, else over every page. */
static enum pgw_status kroot_scan(struct pgw_image *img,
				  const struct pgw_facts_hint *h,
				  const struct pgw_mode *mode,
				  const struct pgw_enc_bits *enc,
				  struct pgw_facts_why *f,
				  struct pgw_kernel_root_found *k,
				  struct pgw_err *err)
{
	struct pgw_scan_opts opts = { .enc = *enc };
	enum pgw_status st;

	if (kroot_hint_fits(h, mode, enc)) {
		opts.only = &h->kroot;
		opts.nonly = 1;
		st = pgw_kernel_root_scan(img, mode, &opts, k, err);
		f->kroot_hinted = st == PGW_OK && k->table == h->kroot &&
				  k->mode == h->kroot_mode && k->ntied == 0;
		opts.only = NULL;
		opts.nonly = 0;
		if (f->kroot_hinted)
			goto found;
		memset(err, 0, sizeof(*err));
	}
	st = pgw_kernel_root_scan(img, mode, &opts, k, err);
	if (st != PGW_OK || k->ntied || !k->scan.complete)
		return st;
found:
	f->found.have_kroot = true;
	f->found.kroot_asked = mode;
	f->found.kroot_enc = *enc;
	f->found.kroot = k->table;
	f->found.kroot_mode = k->mode;
	return st;
}

/* The kernel's top table and its mode (NULL: any) by scanning; *found
 * false, with the reason in f, when there is none. */
static enum pgw_status scan_kernel_root(struct pgw_image *img,
					const struct pgw_facts_hint *hint,
					const struct pgw_mode *mode,
					const struct pgw_enc_bits *enc,
					struct pgw_facts_why *f,
					struct linux_scanned_root *scanned,
					const struct pgw_mode **mode_ret,
					bool *found, struct pgw_err *err)
{
	struct pgw_kernel_root_found *k = malloc(sizeof(*k));
	struct pgw_err e = { 0 };
	size_t n = strlen(f->why);
	enum pgw_status st;

	f->kernel_root_scanned = true;
	*found = false;
	if (!k)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	st = kroot_scan(img, hint, mode, enc, f, k, &e);
	if (st == PGW_OK) {
		*found = true;
		scanned->have = true;
		scanned->table = k->table;
		/* k->why begins by naming the scan already. */
		static const char said[] = "kernel-root scan: ";
		const char *detail = k->why;
		if (!strncmp(detail, said, sizeof(said) - 1))
			detail += sizeof(said) - 1;
		snprintf(scanned->why, sizeof(scanned->why),
			 "kernel root found by scan: %.170s", detail);
		*mode_ret = k->mode;
		snprintf(f->why + n, sizeof(f->why) - n,
			 "; the kernel root found by scan");
	} else if (st == PGW_E_NOMEM) {
		*err = e;
	} else {
		snprintf(f->why + n, sizeof(f->why) - n,
			 "; the kernel-root scan: %s", e.msg);
		st = PGW_OK;
	}
	free(k);
	return st;
}

static enum pgw_status detect(struct pgw_image *img,
			      const struct pgw_space_request *req,
			      const struct pgw_enc_choice *enc,
			      struct pgw_mode_choice *ch, struct pgw_err *err)
{
	const struct pgw_root_request *r = &req->root;

	if (req->mode) {
		ch->mode = pgw_mode_by_name(req->mode);
		if (!ch->mode)
			return pgw_err_set(err, PGW_E_ARG, "unknown mode '%s'",
					   req->mode);
		ch->rule = PGW_MODE_NAMED;
		snprintf(ch->why, sizeof(ch->why), "--mode=%s", req->mode);
		return PGW_OK;
	}
	/* A root given is the validation walk's (--cr3 first, as the root
	 * resolves). */
	if (!r->have_cr3 && r->have_table)
		return pgw_detect_mode(img, r->table, true, enc, ch, err);
	return pgw_detect_mode(img, r->cr3, r->have_cr3, enc, ch, err);
}

/* Mode and facts: the request and the image's own notes, then memory,
 * then the kernel-root scan, as far as each is needed. */
static enum pgw_status choose_mode(struct pgw_image *img,
				   const struct pgw_space_request *req,
				   struct pgw_space_why *why,
				   struct linux_scanned_root *scanned,
				   struct pgw_err *err)
{
	struct pgw_mode_choice *ch = &why->mode;
	struct pgw_facts_why *f = &why->facts;
	enum pgw_status st = detect(img, req, &why->enc, ch, err);

	if (st == PGW_E_ARG)
		return st;
	bool settled = st == PGW_OK &&
		       (ch->rule == PGW_MODE_NAMED || ch->rule == PGW_MODE_CPU ||
			ch->rule == PGW_MODE_VALIDATION ||
			(ch->rule == PGW_MODE_VMCOREINFO &&
			 f->source == PGW_FACTS_NOTE));
	if (req->have_vmcoreinfo_pa || (f->source != PGW_FACTS_NOTE &&
	    (!settled || !root_given(&req->root)))) {
		enum pgw_status s = search_memory(img, req, &why->enc.bits, f,
						  err);
		if (s != PGW_OK)
			return s;
		/* The adopted text's NUMBER(sme_mask) counts as the note's. */
		if (f->source == PGW_FACTS_MEMORY &&
		    (s = linux_enc_declared(img, &req->enc, &why->enc, err)) !=
			    PGW_OK)
			return s;
		if (f->source == PGW_FACTS_MEMORY &&
		    (!settled || ch->rule == PGW_MODE_VMCOREINFO))
			st = detect(img, req, &why->enc, ch, err);
	}
	bool weak = st != PGW_OK || ch->rule == PGW_MODE_MACHINE;
	if (weak && f->source != PGW_FACTS_NOTE &&
	    f->source != PGW_FACTS_MEMORY) {
		const struct pgw_mode *mode = NULL;
		bool found;
		enum pgw_status s = scan_kernel_root(img, req->hint, NULL,
						     &why->enc.bits, f,
						     scanned, &mode, &found,
						     err);
		if (s != PGW_OK)
			return s;
		if (found) {
			ch->mode = mode;
			ch->rule = PGW_MODE_SCAN;
			snprintf(ch->why, sizeof(ch->why), "kernel-root scan: "
				 "the kernel's top table 0x%llx maps itself "
				 "under %s", (unsigned long long)scanned->table,
				 mode->name);
			return PGW_OK;
		}
		if (st != PGW_OK)
			return pgw_err_set(err, PGW_E_NOTFOUND,
					   "cannot tell the paging mode: the "
					   "image has no CPU state or ELF "
					   "machine%s; %s; give --mode",
					   root_given(&req->root) ?
						   ", no mode maps a "
						   "consistent direct map from "
						   "that root" : "", f->why);
	}
	return st;
}

/* The bits in mode: i386's 32-bit entries have none to give; nothing
 * declared, the root's tables are asked. */
static enum pgw_status choose_enc(struct pgw_image *img,
				  const struct pgw_space_request *req,
				  const struct pgw_mode *mode,
				  const struct linux_scanned_root *scanned,
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
	    linux_root_cr3(img, mode, &req->root, scanned, &cr3))
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
	const struct pgw_root_request *r = &req->root;
	struct linux_scanned_root scanned = { 0 };
	struct pgw_root_request root;
	enum pgw_status st;

	memset(why, 0, sizeof(*why));
	memset(space, 0, sizeof(*space));
	why->root.cpu = -1;
	check_note(img, &why->facts);
	st = linux_enc_declared(img, &req->enc, &why->enc, err);
	if (st != PGW_OK)
		return st;
	st = choose_mode(img, req, why, &scanned, err);
	if (st != PGW_OK) {
		why->mode.mode = NULL;
		return st;
	}
	st = choose_enc(img, req, why->mode.mode,
			scanned.have ? &scanned : NULL, &why->enc, err);
	if (st != PGW_OK)
		return st;
	why->enc.bits.swap = linux_swap_layout(img, why->mode.mode);
	/* The kernel's root, wanted and not named by VMCOREINFO. */
	const char *sym;
	uint64_t va;
	/* A root given is the kernel's too where the mode has one root
	 * (pick takes it first): scanning for another would read, and
	 * decompress, every page for nothing. */
	bool one_root = !why->mode.mode->root_select_bit;
	bool want_kernel = (r->kernel && !(root_given(r) && one_root)) ||
			   r->have_pid || r->comm ||
			   (r->have_cpu && !one_root) ||
			   (!root_given(r) && !cpu0_has_cr3(img));
	if (want_kernel && !why->facts.kernel_root_scanned &&
	    !linux_kernel_root_symbol(img, &sym, &va)) {
		const struct pgw_mode *mode = NULL;
		bool found;
		st = scan_kernel_root(img, req->hint, why->mode.mode,
				      &why->enc.bits,
				      &why->facts, &scanned, &mode, &found,
				      err);
		if (st != PGW_OK)
			return st;
	}
	root = *r;
	root.enc = why->enc.bits;
	st = linux_root_resolve(img, why->mode.mode, &root,
				why->facts.kernel_root_scanned ? &scanned :
								 NULL,
				&why->root, err);
	if (st == PGW_OK) {
		space->img = img;
		space->mode = why->mode.mode;
		space->root = why->root.table;
		space->enc = why->enc.bits;
		if (space->mode->root_select_bit) {
			space->root = why->root.lower;
			space->root_upper = why->root.upper;
		}
	}
	return st;
}
