/*
 * VMCOREINFO found in physical memory, for images without the note (raw,
 * LiME, AVML) or with a damaged one.  The kernel allocates both copies a
 * page at a time (crash_save_vmcoreinfo_init: get_zeroed_page for the
 * text, alloc_pages_exact for the note), so a look at the first bytes of
 * each page finds them; each candidate is then checked in full.
 */
#include "../formats/image_page.h"
#include "scan.h"
#include "vmcoreinfo.h"
#include "../lib/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char osrelease[] = "OSRELEASE=";
#define OSRELEASE_LEN (sizeof(osrelease) - 1)

/* The note: n_namesz 11 ("VMCOREINFO" and its NUL), n_descsz, n_type 0,
 * the name padded to 12 bytes, then the text. */
enum {
	NOTE_NAMESZ = 11,
	NOTE_TEXT = 24,
};
static const char note_name[12] = "VMCOREINFO";

const char *pgw_vmci_place_key(enum pgw_vmci_place place)
{
	return place == PGW_VMCI_NOTE ? "note" : "data";
}

struct spot {
	uint64_t pa;
	enum pgw_vmci_place place;
};

struct finder {
	struct spot *spots;
	size_t n;
	struct pgw_err err;      /* out of memory while listing */
	bool failed;
};

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static int visit(void *arg, uint64_t pa, const uint8_t *page)
{
	struct finder *f = arg;
	enum pgw_vmci_place place;

	if (memcmp(page, osrelease, OSRELEASE_LEN) == 0)
		place = PGW_VMCI_DATA;
	else if (get32(page) == NOTE_NAMESZ && get32(page + 8) == 0 &&
		 memcmp(page + 12, note_name, sizeof(note_name)) == 0 &&
		 memcmp(page + NOTE_TEXT, osrelease, OSRELEASE_LEN) == 0)
		place = PGW_VMCI_NOTE;
	else
		return 0;
	if (pgw_grow(&f->spots, f->n, sizeof(*f->spots), &f->err) != PGW_OK) {
		f->failed = true;
		return 1;
	}
	f->spots[f->n].pa = pa;
	f->spots[f->n].place = place;
	f->n++;
	return 0;
}

/* The candidate's text into buf (PGW_VMCI_TEXT_MAX + 1 bytes). */
static bool read_text(struct pgw_image *img, const struct spot *s, char *buf,
		      size_t *len, uint64_t *text_pa, char *why, size_t n)
{
	struct pgw_err err;
	const uint8_t *page;

	if (s->place == PGW_VMCI_DATA) {
		/* A zeroed page: the text ends at the first NUL. */
		if (pgw_image_page(img, s->pa >> PGW_PAGE_SHIFT, &page,
				   &err) != PGW_OK) {
			snprintf(why, n, "%.180s", err.msg);
			return false;
		}
		*len = strnlen((const char *)page, PGW_VMCI_TEXT_MAX);
		memcpy(buf, page, *len);
		*text_pa = s->pa;
	} else {
		uint8_t hdr[8];
		if (pgw_image_read(img, s->pa, hdr, sizeof(hdr), &err) !=
		    PGW_OK) {
			snprintf(why, n, "%.180s", err.msg);
			return false;
		}
		uint32_t descsz = get32(hdr + 4);
		if (descsz == 0 || descsz > PGW_VMCI_TEXT_MAX) {
			snprintf(why, n, "note descriptor size %u (the kernel "
				 "writes 1..%d)", descsz, PGW_VMCI_TEXT_MAX);
			return false;
		}
		/* alloc_pages_exact: the text may run on into the next
		 * page, which is physically contiguous. */
		if (pgw_image_read(img, s->pa + NOTE_TEXT, buf, descsz,
				   &err) != PGW_OK) {
			snprintf(why, n, "text of %u bytes: %.150s", descsz,
				 err.msg);
			return false;
		}
		*len = descsz;
		*text_pa = s->pa + NOTE_TEXT;
	}
	buf[*len] = '\0';
	return true;
}

static bool check_spot(struct pgw_image *img, const struct spot *s,
		       struct pgw_vmci_found *tmp, char *why, size_t n)
{
	unsigned lines;

	if (!read_text(img, s, tmp->text, &tmp->len, &tmp->text_pa, why, n))
		return false;
	if (!pgw_vmci_check_lines(tmp->text, tmp->len, &lines, why, n))
		return false;
	struct pgw_vmci_text t = { tmp->text, tmp->len };
	struct pgw_vmci_source src = { pgw_vmci_text_get, &t };
	if (!pgw_vmci_check_facts(img, &src, &tmp->check, why, n))
		return false;
	tmp->check.lines = lines;
	snprintf(why, n, "%u lines; %.180s", lines, tmp->check.why);
	return true;
}

/* A valid note beats a valid data page: it is what the kernel exports
 * (and what a crash adds CRASHTIME to); otherwise the first wins. */
static bool better(const struct pgw_vmci_found *found,
		   enum pgw_vmci_place place)
{
	return found->nvalid == 0 ||
	       (place == PGW_VMCI_NOTE && found->chosen.place != PGW_VMCI_NOTE);
}

enum pgw_status pgw_vmcoreinfo_find_in_memory(struct pgw_image *img,
					      const struct pgw_scan_opts *opts,
					      struct pgw_vmci_found *found,
					      struct pgw_err *err)
{
	struct finder f = { 0 };
	struct pgw_vmci_found *tmp = malloc(sizeof(*tmp));
	enum pgw_status st;

	memset(found, 0, sizeof(*found));
	if (!tmp)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	st = pgw_phys_scan(img, opts, visit, &f, &found->scan, err);
	if (f.failed)
		st = pgw_err_set(err, f.err.status, "%s", f.err.msg);
	if (st != PGW_OK)
		goto out;
	found->ncandidates = f.n;
	found->scan.candidates = f.n;
	for (size_t i = 0; i < f.n; i++) {
		struct pgw_vmci_candidate c = {
			.pa = f.spots[i].pa, .place = f.spots[i].place,
		};
		memset(tmp, 0, sizeof(*tmp));
		c.valid = check_spot(img, &f.spots[i], tmp, c.why,
				     sizeof(c.why));
		if (c.valid && better(found, c.place)) {
			found->chosen = c;
			found->check = tmp->check;
			found->text_pa = tmp->text_pa;
			found->len = tmp->len;
			memcpy(found->text, tmp->text, tmp->len + 1);
		}
		found->nvalid += c.valid;
		if (found->nlisted < PGW_VMCI_MAX_LISTED)
			found->cand[found->nlisted++] = c;
	}
	if (found->nvalid == 0) {
		if (f.n == 0)
			st = pgw_err_set(err, PGW_E_NOTFOUND,
					 "no VMCOREINFO in memory (%llu pages "
					 "looked at%s%s)",
					 (unsigned long long)
					 found->scan.scanned,
					 found->scan.complete ? "" : "; ",
					 found->scan.complete ? "" :
					 found->scan.why);
		else
			st = pgw_err_set(err, PGW_E_NOTFOUND,
					 "%zu page%s in memory begin%s like "
					 "VMCOREINFO, none valid: 0x%llx "
					 "(%s): %s", f.n, f.n == 1 ? "" : "s",
					 f.n == 1 ? "s" : "",
					 (unsigned long long)found->cand[0].pa,
					 pgw_vmci_place_key(
						 found->cand[0].place),
					 found->cand[0].why);
	}
out:
	free(f.spots);
	free(tmp);
	return st;
}
