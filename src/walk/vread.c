/*
 * Reading virtual memory through an address space: translate once per
 * leaf page (4 KiB, 2 MiB, 1 GiB or 4 MiB), then copy its frames one
 * 4 KiB page at a time from the image.  A byte that cannot be read ends
 * the copy there: the caller learns how far it got and why, and never
 * sees zeros in place of memory the image does not hold.
 */
#include "../lib/err.h"
#include "../formats/format.h"
#include "../formats/image_page.h"
#include "in_place.h"

#include <string.h>

/* Why the translation of va stopped, as PGW_E_UNMAPPED (or the I/O error
 * underneath). */
static enum pgw_status unmapped(const struct pgw_space *space, uint64_t va,
				const struct pgw_xlat *x, struct pgw_err *err)
{
	const char *lvl = space->mode->level[x->level].name;
	const char *why = pgw_stop_text(x->stop);

	switch (x->stop) {
	case PGW_STOP_NONCANONICAL:
	case PGW_STOP_BEYOND_SPACE:
		return pgw_err_set(err, PGW_E_UNMAPPED,
				   "virtual address 0x%llx: %s in %s paging",
				   (unsigned long long)va, why,
				   space->mode->name);
	case PGW_STOP_TABLE_NOT_IN_IMAGE:
	case PGW_STOP_TABLE_BEYOND_MEMORY: {
		struct pgw_err io;
		pgw_xlat_error(space, x, &io);
		return pgw_err_set(err, PGW_E_UNMAPPED,
				   "virtual address 0x%llx: %s (the %s table "
				   "at 0x%llx: %s)", (unsigned long long)va,
				   why, lvl,
				   (unsigned long long)x->step[x->nsteps - 1]
					   .table, io.msg);
	}
	case PGW_STOP_READ_ERROR:
		pgw_xlat_error(space, x, err);
		return pgw_err_prefix(err, "virtual address 0x%llx: %s table",
				      (unsigned long long)va, lvl);
	default:
		break;
	}
	if (x->nsteps == 0)     /* a half of a two-root mode without a table */
		return pgw_err_set(err, PGW_E_UNMAPPED,
				   "virtual address 0x%llx: %s (its half of the "
				   "space has no top table)",
				   (unsigned long long)va, why);
	const struct pgw_step *s = &x->step[x->nsteps - 1];
	return pgw_err_set(err, PGW_E_UNMAPPED,
			   "virtual address 0x%llx: %s (%s entry 0x%llx at "
			   "physical 0x%llx)", (unsigned long long)va, why, lvl,
			   (unsigned long long)s->entry.raw,
			   (unsigned long long)s->entry_pa);
}

/* Copy up to `len` bytes of the leaf x maps at va; *copied says how many
 * were copied before a frame the image lacks stopped it. */
static enum pgw_status copy_leaf(const struct pgw_space *space, uint64_t va,
				 const struct pgw_xlat *x, uint8_t *out,
				 size_t len, size_t *copied,
				 struct pgw_err *err)
{
	uint64_t in_leaf = x->page_size - (va & (x->page_size - 1));
	size_t want = in_leaf < len ? (size_t)in_leaf : len;
	uint64_t pa = x->pa;

	*copied = 0;
	while (*copied < want) {
		size_t off = (size_t)(pa & (PGW_PAGE_SIZE - 1));
		size_t n = PGW_PAGE_SIZE - off;
		const uint8_t *page;

		if (n > want - *copied)
			n = want - *copied;
		enum pgw_status st = pgw_image_page(
			space->img, pa >> PGW_PAGE_SHIFT, &page, err);
		if (st != PGW_OK)
			return pgw_err_prefix(err, "virtual address 0x%llx "
					      "(physical 0x%llx)",
					      (unsigned long long)(va + *copied),
					      (unsigned long long)pa);
		memcpy(out + *copied, page + off, n);
		*copied += n;
		pa += n;
	}
	return PGW_OK;
}

enum pgw_status pgw_read_virt(const struct pgw_space *space, uint64_t va,
			      void *buf, size_t len, size_t *done_ret,
			      struct pgw_err *err)
{
	uint8_t *out = buf;
	size_t done = 0;
	enum pgw_status st = PGW_OK;

	while (done < len) {
		struct pgw_xlat x;
		size_t copied;

		if (done > 0 && va == 0) {
			st = pgw_err_set(err, PGW_E_UNMAPPED,
					 "read of %zu bytes runs past the top "
					 "of the virtual address space", len);
			break;
		}
		if (pgw_translate(space, NULL, va, &x) != PGW_STOP_OK) {
			st = unmapped(space, va, &x, err);
			break;
		}
		st = copy_leaf(space, va, &x, out + done, len - done, &copied,
			       err);
		done += copied;
		va += copied;
		if (st != PGW_OK)
			break;
	}
	if (done_ret)
		*done_ret = done;
	return st;
}

const uint8_t *pgw_virt_in_place(const struct pgw_space *space, uint64_t va,
				 size_t len)
{
	const uint8_t *start = NULL;
	size_t done = 0;

	if (!space->img->zero_copy || len == 0)
		return NULL;
	while (done < len) {
		struct pgw_xlat x;
		if (pgw_translate(space, NULL, va + done, &x) != PGW_STOP_OK)
			return NULL;
		uint64_t in_leaf = x.page_size - ((va + done) &
						  (x.page_size - 1));
		size_t want = in_leaf < len - done ? (size_t)in_leaf :
						     len - done;
		for (uint64_t pa = x.pa, end = x.pa + want; pa < end;) {
			const uint8_t *page;
			struct pgw_err err;
			size_t off = (size_t)(pa & (PGW_PAGE_SIZE - 1));
			if (pgw_image_page(space->img, pa >> PGW_PAGE_SHIFT,
					   &page, &err) != PGW_OK)
				return NULL;
			/* Frames one after another in the file, or a copy. */
			if (!start)
				start = page + off;
			else if (page + off != start + done + (pa - x.pa))
				return NULL;
			pa += PGW_PAGE_SIZE - off;
		}
		done += want;
	}
	return start;
}
