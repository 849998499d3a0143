/*
 * Where a raw image's RAM starts.  A raw file says nothing of the
 * physical address of its first byte: pmemsave from 0 or a /dev/mem copy
 * start at 0, but arm64 RAM rarely does (QEMU virt: 0x40000000), and a
 * dump of RAM alone starts where RAM does.  The kernel's own facts say
 * where its tables are: VMCOREINFO (found in the file, whose text does
 * not move with the base) gives swapper_pg_dir's physical address
 * (__pa_symbol) and where RAM begins (arm64: NUMBER(PHYS_OFFSET), which
 * a kernel built for 52-bit VAs biases by the difference of the
 * PAGE_OFFSETs of VA_BITS and the VA size it runs with).  A base is the
 * right one when, read with it, swapper_pg_dir maps itself and _stext:
 * tables at the wrong offset do not.
 */
#include "../lib/err.h"
#include "arm64.h"
#include "linux.h"
#include "vmcoreinfo.h"
#include "../formats/image_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bases tried: 0 and what the facts name. */
#define MAX_BASES 3

/* arm64's PAGE_OFFSET for a VA size: the linear map's start (5.4+). */
static uint64_t page_offset(uint64_t va_bits)
{
	return ~UINT64_C(0) << va_bits;
}

/* Where RAM starts by the facts of s: PHYS_OFFSET, unbiased when the
 * kernel runs fewer VA bits than it was built for. */
static size_t bases_of(const struct pgw_vmci_source *s, uint64_t *base,
		       const char **from)
{
	uint64_t po, t1sz, va_bits;
	size_t n = 0;

	if (!linux_arm64_number(s, "NUMBER(PHYS_OFFSET)", &po))
		return 0;
	if (po < (UINT64_C(1) << 52) && !(po & (PGW_PAGE_SIZE - 1))) {
		base[n] = po;
		from[n++] = "NUMBER(PHYS_OFFSET)";
	}
	if (linux_arm64_number(s, "NUMBER(TCR_EL1_T1SZ)", &t1sz) &&
	    linux_arm64_number(s, "NUMBER(VA_BITS)", &va_bits) &&
	    t1sz < 64 && 64 - t1sz < va_bits && va_bits < 64) {
		uint64_t b = po + page_offset(64 - t1sz) - page_offset(va_bits);
		if (b < (UINT64_C(1) << 52) && !(b & (PGW_PAGE_SIZE - 1))) {
			base[n] = b;
			from[n++] = "NUMBER(PHYS_OFFSET) unbiased (VA_BITS "
				    "vs TCR_EL1_T1SZ)";
		}
	}
	return n;
}

/* Does the kernel of s walk with byte 0 of path at `base`? */
static enum pgw_status walks_at(const char *path,
				const struct pgw_image_open_opts *opts,
				uint64_t base, const struct pgw_vmci_source *s,
				bool *ok_ret, char *why, size_t n,
				struct pgw_err *err)
{
	struct pgw_image_open_opts o = *opts;
	struct pgw_image *img;
	const struct pgw_mode *mode;
	uint64_t table;

	o.format = "raw";
	o.raw_base = base;
	o.raw_base_why = NULL;
	enum pgw_status st = pgw_image_open(&img, path, &o, err);
	if (st != PGW_OK)
		return st;
	char detail[240];
	*ok_ret = linux_arm64_kernel(img, s, &mode, &table, detail,
				     sizeof(detail));
	if (*ok_ret)
		snprintf(why, n, "swapper_pg_dir 0x%llx maps itself and "
			 "_stext under %s", (unsigned long long)table,
			 mode->name);
	pgw_image_close(img);
	return PGW_OK;
}

/* Each base of the facts tried; the one that walks chosen. */
static enum pgw_status choose(const char *path,
			      const struct pgw_image_open_opts *opts,
			      const struct pgw_vmci_source *s,
			      uint64_t text_pa, struct pgw_raw_base *rb,
			      struct pgw_err *err)
{
	uint64_t base[MAX_BASES];
	const char *from[MAX_BASES];
	size_t nb = bases_of(s, base, from), good = 0, first = 0;
	char why[200], tried[120] = "0";
	size_t len = 1;

	for (size_t i = 0; i < nb; i++) {
		bool ok = false, seen = false;
		for (size_t j = 0; j < i; j++)
			seen |= base[j] == base[i];
		if (seen || base[i] == 0)
			continue;
		len += (size_t)snprintf(tried + len, sizeof(tried) - len,
					", 0x%llx", (unsigned long long)base[i]);
		enum pgw_status st = walks_at(path, opts, base[i], s, &ok, why,
					      sizeof(why), err);
		if (st != PGW_OK)
			return st;
		if (ok && good++ == 0) {
			first = i;
			snprintf(rb->why, sizeof(rb->why), "%s of the "
				 "VMCOREINFO at file offset 0x%llx: with byte "
				 "0 there, %.150s", from[i],
				 (unsigned long long)text_pa, why);
		}
	}
	if (good == 1) {
		rb->base = base[first];
		rb->decided = true;
		return PGW_OK;
	}
	if (good > 1)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "raw image: where its RAM starts is "
				   "ambiguous: the arm64 VMCOREINFO at file "
				   "offset 0x%llx names kernel tables that walk "
				   "with byte 0 at %zu of %s; give --base=ADDR",
				   (unsigned long long)text_pa, good, tried);
	return pgw_err_set(err, PGW_E_NOTFOUND,
			   "raw image: where its RAM starts is unknown: the "
			   "arm64 VMCOREINFO at file offset 0x%llx names "
			   "kernel tables that walk with byte 0 at none of %s; "
			   "give --base=ADDR (the physical address of the "
			   "file's first byte)", (unsigned long long)text_pa,
			   tried);
}

enum pgw_status pgw_raw_base_find(struct pgw_image *img, const char *path,
				  const struct pgw_image_open_opts *opts,
				  struct pgw_raw_base *rb, struct pgw_err *err)
{
	struct pgw_vmci_found *found = malloc(sizeof(*found));
	struct pgw_err e = { 0 };
	char text[PGW_VMCI_TEXT_MAX + 1], why[200];
	size_t len;
	enum pgw_status st;

	memset(rb, 0, sizeof(*rb));
	if (!found)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	/* The pages the facts cache names (the caller keeps its hint on
	 * the image), checked again; else every page, and the session asks
	 * again of this image when the base stays 0: the pages are known
	 * then. */
	struct pgw_scan_opts scan = { 0 };
	bool held;
	st = linux_vmci_find_hinted(img, pgw_image_scan_hint(img), &scan,
				    found, &held, &e);
	if (!held && (st == PGW_OK || st == PGW_E_NOTFOUND)) {
		struct pgw_facts_hint h = { 0 };
		linux_vmci_keep_found(found, &h);
		pgw_image_keep_scan_hint(img, &h);
	}
	if (st == PGW_OK) {
		rb->decided = true;
		snprintf(rb->why, sizeof(rb->why), "VMCOREINFO at 0x%llx "
			 "walks with byte 0 at physical 0",
			 (unsigned long long)found->chosen.pa);
	} else if (st == PGW_E_NOMEM) {
		*err = e;
	} else {
		st = PGW_OK;
		snprintf(rb->why, sizeof(rb->why), "byte 0 taken as physical "
			 "0: %.200s", e.msg);
		/* The first arm64 text decides; others' facts are not
		 * this file's to weigh. */
		for (size_t i = 0; i < found->nlisted; i++) {
			struct pgw_vmci_text t;
			struct pgw_vmci_source src = { pgw_vmci_text_get, &t };
			if (!linux_vmci_candidate_text(img, &found->cand[i],
						       text, &len, why,
						       sizeof(why)))
				continue;
			t = (struct pgw_vmci_text){ text, len };
			if (!linux_arm64_facts(&src))
				continue;
			st = choose(path, opts, &src, found->cand[i].pa, rb,
				    err);
			break;
		}
	}
	free(found);
	return st;
}
