/*
 * VMCOREINFO found in physical memory, for images without the note (raw,
 * LiME, AVML) or with a damaged one.  The kernel allocates both copies a
 * page at a time (crash_save_vmcoreinfo_init: get_zeroed_page for the
 * text, alloc_pages_exact for the note), so a look at the first bytes of
 * each page finds them; each candidate is then checked in full.
 */
#include "../lib/err.h"
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

static void look(const void *arg, struct pgw_scan_chunk *chunk, uint64_t pa,
		 const uint8_t *page)
{
	struct spot spot = { .pa = pa };

	(void)arg;
	if (memcmp(page, osrelease, OSRELEASE_LEN) == 0)
		spot.place = PGW_VMCI_DATA;
	else if (get32(page) == NOTE_NAMESZ && get32(page + 8) == 0 &&
		 memcmp(page + 12, note_name, sizeof(note_name)) == 0 &&
		 memcmp(page + NOTE_TEXT, osrelease, OSRELEASE_LEN) == 0)
		spot.place = PGW_VMCI_NOTE;
	else
		return;
	pgw_scan_emit(chunk, pa, &spot);
}

static int take(void *arg, const void *rec)
{
	struct finder *f = arg;

	if (pgw_grow(&f->spots, f->n, sizeof(*f->spots), &f->err) != PGW_OK) {
		f->failed = true;
		return 1;
	}
	memcpy(&f->spots[f->n++], rec, sizeof(*f->spots));
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

bool linux_vmci_candidate_text(struct pgw_image *img,
				const struct pgw_vmci_candidate *c, char *buf,
				size_t *len_ret, char *why, size_t n)
{
	struct spot s = { .pa = c->pa, .place = c->place };
	uint64_t text_pa;

	return read_text(img, &s, buf, len_ret, &text_pa, why, n);
}

/* The evidence for a valid candidate: the image's CPUs (their CR3s are
 * the hardware's word, which no text in memory controls). */
static void weigh(struct pgw_image *img, const struct pgw_scan_opts *opts,
		  const struct pgw_vmci_found *tmp,
		  struct pgw_vmci_candidate *c)
{
	const struct pgw_mode *mode = tmp->check.mode;
	struct pgw_enc_bits enc = opts ? opts->enc : (struct pgw_enc_bits){ 0 };
	struct pgw_vmci_text t = { tmp->text, tmp->len };
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(img, &cpus);
	char v[24];
	uint64_t stext = 0;
	bool have_stext = false;
	struct pgw_xlat own;

	c->kernel_root = tmp->check.kernel_root;
	if (pgw_vmci_text_get(&t, "SYMBOL(_stext)", v, sizeof(v))) {
		char *end;
		stext = strtoull(v, &end, 16);
		struct pgw_space sp = { img, mode, c->kernel_root, enc };
		have_stext = *end == '\0' &&
			     pgw_translate(&sp, NULL, stext, &own) ==
				     PGW_STOP_OK;
	}
	for (size_t i = 0; i < ncpus; i++) {
		if (!cpus[i].has_cr)
			continue;
		uint64_t table = pgw_cr3_table(mode, cpus[i].cr3, &enc);
		/* PTI: the user copy is the kernel root's odd page. */
		if (table == c->kernel_root ||
		    (mode->va_bits > 32 && table == (c->kernel_root | 0x1000))) {
			c->cpus_on_root++;
			continue;
		}
		struct pgw_space sp = { img, mode, table, enc };
		struct pgw_xlat x;
		if (have_stext &&
		    pgw_translate(&sp, NULL, stext, &x) == PGW_STOP_OK &&
		    x.pa == own.pa)
			c->cpus_map_text++;
	}
}

static bool check_spot(struct pgw_image *img, const struct pgw_scan_opts *opts,
		       const struct spot *s, struct pgw_vmci_found *tmp,
		       struct pgw_vmci_candidate *c)
{
	char *why = c->why;
	size_t n = sizeof(c->why);
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
	weigh(img, opts, tmp, c);
	return true;
}

/* Is c a better choice than the one chosen so far?  The CPUs first: a
 * root the hardware runs on, then one whose text the CPUs' roots map;
 * then a note (what the kernel exports, and what a crash adds CRASHTIME
 * to); then the first in memory. */
static bool better(const struct pgw_vmci_found *found,
		   const struct pgw_vmci_candidate *c)
{
	const struct pgw_vmci_candidate *b = &found->chosen;

	if (found->nvalid == 0)
		return true;
	if (c->cpus_on_root != b->cpus_on_root)
		return c->cpus_on_root > b->cpus_on_root;
	if (c->cpus_map_text != b->cpus_map_text)
		return c->cpus_map_text > b->cpus_map_text;
	return c->place == PGW_VMCI_NOTE && b->place != PGW_VMCI_NOTE;
}

static void adopt(struct pgw_vmci_found *found,
		  const struct pgw_vmci_candidate *c,
		  const struct pgw_vmci_found *tmp)
{
	found->chosen = *c;
	found->check = tmp->check;
	found->text_pa = tmp->text_pa;
	found->len = tmp->len;
	memcpy(found->text, tmp->text, tmp->len + 1);
}

/* Why the chosen one: said always, and loudly when valid candidates
 * disagree on the kernel root. */
static void say_choice(struct pgw_vmci_found *found, bool by_pa)
{
	const struct pgw_vmci_candidate *b = &found->chosen;
	size_t n = 0, others = 0;
	char *p = found->choice;
	size_t cap = sizeof(found->choice);

	for (size_t i = 0; i < found->nlisted; i++) {
		const struct pgw_vmci_candidate *c = &found->cand[i];
		if (c->valid && c->pa != b->pa && c->kernel_root != b->kernel_root)
			others++;
	}
	found->conflict = others > 0;
	if (found->conflict)
		n += (size_t)snprintf(p + n, cap - n, "CONFLICT: %zu valid "
				      "candidate%s name%s another kernel root "
				      "than 0x%llx; ", others,
				      others == 1 ? "" : "s",
				      others == 1 ? "s" : "",
				      (unsigned long long)b->kernel_root);
	if (n >= cap)
		return;
	if (by_pa)
		snprintf(p + n, cap - n, "0x%llx chosen by --vmcoreinfo",
			 (unsigned long long)b->pa);
	else if (found->nvalid == 1)
		snprintf(p + n, cap - n, "0x%llx (%s), the only valid "
			 "candidate", (unsigned long long)b->pa,
			 pgw_vmci_place_key(b->place));
	else if (!found->conflict)
		snprintf(p + n, cap - n, "0x%llx (%s), of %zu valid candidates "
			 "that agree on the kernel root 0x%llx",
			 (unsigned long long)b->pa,
			 pgw_vmci_place_key(b->place), found->nvalid,
			 (unsigned long long)b->kernel_root);
	else
		snprintf(p + n, cap - n, "0x%llx (%s) chosen: %u CPU%s on its "
			 "root 0x%llx, %u more map%s its _stext where it "
			 "does; then a note before a data page, then the first "
			 "in memory%s", (unsigned long long)b->pa,
			 pgw_vmci_place_key(b->place), b->cpus_on_root,
			 b->cpus_on_root == 1 ? "" : "s",
			 (unsigned long long)b->kernel_root, b->cpus_map_text,
			 b->cpus_map_text == 1 ? "s" : "",
			 found->conflict ? "; --vmcoreinfo=PA chooses another" :
					   "");
}

enum pgw_status pgw_vmcoreinfo_find_in_memory(struct pgw_image *img,
					      const struct pgw_scan_opts *opts,
					      struct pgw_vmci_found *found,
					      struct pgw_err *err)
{
	struct finder f = { 0 };
	struct pgw_vmci_found *tmp = malloc(sizeof(*tmp));
	bool by_pa = opts && opts->have_pa;
	struct pgw_vmci_candidate asked = { 0 };
	bool asked_seen = false;
	enum pgw_status st;

	memset(found, 0, sizeof(*found));
	if (!tmp)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	struct pgw_finder finder = {
		.arg = &f, .rec_size = sizeof(struct spot), .look = look,
		.take = take,
	};
	st = pgw_phys_scan(img, opts, &finder, &found->scan, err);
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
		c.valid = check_spot(img, opts, &f.spots[i], tmp, &c);
		bool wanted = by_pa ? c.pa == opts->pa : better(found, &c);
		if (c.valid && wanted)
			adopt(found, &c, tmp);
		found->nvalid += c.valid;
		if (found->nlisted < PGW_VMCI_MAX_LISTED)
			found->cand[found->nlisted++] = c;
		if (by_pa && c.pa == opts->pa) {
			asked = c;
			asked_seen = true;
		}
	}
	if (by_pa && !asked.valid) {
		st = pgw_err_set(err, PGW_E_NOTFOUND, "--vmcoreinfo=0x%llx: %s%s",
				 (unsigned long long)opts->pa,
				 asked_seen ? "not valid: " :
					      "no candidate begins there "
					      "(pgwalk info lists them)",
				 asked_seen ? asked.why : "");
		goto out;
	}
	for (size_t i = 0; found->nvalid && i < found->nlisted; i++)
		found->cand[i].chosen = found->cand[i].valid &&
					found->cand[i].pa == found->chosen.pa;
	if (found->nvalid)
		say_choice(found, by_pa);
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
