/*
 * pgw-cmp-images A B: read every physical page either image claims (the
 * union of their ranges) through the library and compare.
 *
 * An image is a path, or FORMAT:PATH to skip probing (raw:mem.raw), or
 * raw@BASE:PATH for a raw image whose first byte is physical BASE.
 * Prints one line of counts:
 *   pages=N same=N differ=N nodata_a=N nodata_b=N nodata_both=N
 *   errors_a=N errors_b=N state_wrong=N why_a=R:N,... why_b=R:N,...
 * nodata_a/b count the pages each image lacks (PGW_E_NODATA), nodata_both
 * those neither has, why_a/why_b the same by reason (pgw_absence_key,
 * "none" when there are none).  A page missing on one side only is not a
 * difference (filtered and truncated dumps); errors other than NODATA, a
 * NODATA without a reason, and page_state() or absent_bytes() disagreeing
 * with page() (state_wrong) are.  Exit 0 when differ, errors and
 * state_wrong are all 0, else 1; 2 when an image cannot be opened.  -v
 * lists the first differing pages.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgwalk.h"

static struct pgw_image *open_image(const char *arg)
{
	struct pgw_image_open_opts o = { 0 };
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	char fmt[32];
	const char *colon = strchr(arg, ':');
	const char *path = arg;

	if (colon && (size_t)(colon - arg) < sizeof(fmt)) {
		memcpy(fmt, arg, (size_t)(colon - arg));
		fmt[colon - arg] = '\0';
		o.format = fmt;
		path = colon + 1;
		char *at = strchr(fmt, '@');
		if (at) {
			*at = '\0';
			o.raw_base = strtoull(at + 1, NULL, 0);
		}
	}
	if (pgw_image_open(&img, path, &o, &err) != PGW_OK) {
		fprintf(stderr, "pgw-cmp-images: %s\n", err.msg);
		exit(2);
	}
	return img;
}

struct span {
	uint64_t start, end;   /* pfns, end exclusive */
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Union of both images' ranges, in pfns. */
static size_t spans(struct pgw_image *a, struct pgw_image *b,
		    struct span **out)
{
	const struct pgw_phys_range *ra, *rb;
	size_t na = pgw_image_ranges(a, &ra), nb = pgw_image_ranges(b, &rb);
	struct span *s = calloc(na + nb + 1, sizeof(*s));
	size_t n = 0;

	for (size_t i = 0; i < na + nb; i++) {
		const struct pgw_phys_range *r = i < na ? &ra[i] : &rb[i - na];
		s[n].start = r->start >> 12;
		s[n].end = (r->start + r->size + 4095) >> 12;
		n++;
	}
	qsort(s, n, sizeof(*s), span_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && s[i].start <= s[m - 1].end) {
			if (s[i].end > s[m - 1].end)
				s[m - 1].end = s[i].end;
		} else {
			s[m++] = s[i];
		}
	}
	*out = s;
	return m;
}

/*
 * Does the cheap state agree with reading the page?  A page read is
 * NONE; a page absent has the same reason both ways (a NONE state for a
 * page only decoding found damaged excepted), and absent_bytes of the
 * page says the state too.
 */
static int state_wrong(struct pgw_image *img, uint64_t pfn,
		       enum pgw_status st, const struct pgw_err *err,
		       bool verbose)
{
	enum pgw_absence state = pgw_image_page_state(img, pfn);
	uint64_t counts[PGW_NABSENCES];
	bool wrong;

	(void)pgw_image_absent_bytes(img, pfn << 12, 4096, counts);
	if (st == PGW_OK)
		wrong = state != PGW_ABSENT_NONE;
	else if (st == PGW_E_NODATA)
		wrong = err->absence == PGW_ABSENT_NONE ||
			(state != err->absence &&
			 !(state == PGW_ABSENT_NONE &&
			   err->absence == PGW_ABSENT_CORRUPT));
	else
		wrong = false;   /* counted as an error */
	wrong |= counts[state] != 4096;
	if (wrong && verbose)
		printf("# pfn 0x%" PRIx64 ": state %s, read %s (%s)\n", pfn,
		       pgw_absence_key(state), pgw_status_name(st),
		       pgw_absence_key(err->absence));
	return wrong;
}

static void print_why(const char *name, const uint64_t *why)
{
	bool any = false;

	printf(" %s=", name);
	for (size_t k = 0; k < PGW_NABSENCES; k++)
		if (why[k]) {
			printf("%s%s:%" PRIu64, any ? "," : "",
			       pgw_absence_key((enum pgw_absence)k), why[k]);
			any = true;
		}
	if (!any)
		printf("none");
}

int main(int argc, char **argv)
{
	bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	if (argc != 3 + verbose) {
		fprintf(stderr, "usage: pgw-cmp-images [-v] A B\n");
		return 64;
	}
	struct pgw_image *a = open_image(argv[1 + verbose]);
	struct pgw_image *b = open_image(argv[2 + verbose]);
	struct span *s;
	size_t ns = spans(a, b, &s);
	uint64_t pages = 0, same = 0, differ = 0, na = 0, nb = 0, nboth = 0;
	uint64_t ea = 0, eb = 0, hp = 0;
	uint64_t why_a[PGW_NABSENCES] = { 0 }, why_b[PGW_NABSENCES] = { 0 };
	static uint8_t pa[PGW_PAGE_SIZE], pb[PGW_PAGE_SIZE];

	for (size_t i = 0; i < ns; i++) {
		for (uint64_t pfn = s[i].start; pfn < s[i].end; pfn++) {
			struct pgw_err erra = { 0 }, errb = { 0 };
			enum pgw_status sa = pgw_image_read_page(a, pfn, pa,
								 &erra);
			enum pgw_status sb = pgw_image_read_page(b, pfn, pb,
								 &errb);
			pages++;
			hp += state_wrong(a, pfn, sa, &erra, verbose);
			hp += state_wrong(b, pfn, sb, &errb, verbose);
			if (sa == PGW_E_NODATA)
				why_a[erra.absence]++;
			if (sb == PGW_E_NODATA)
				why_b[errb.absence]++;
			if (sa != PGW_OK && sa != PGW_E_NODATA) {
				if (verbose && ea < 5)
					printf("# A pfn 0x%" PRIx64 ": %s\n",
					       pfn, erra.msg);
				ea++;
			}
			if (sb != PGW_OK && sb != PGW_E_NODATA) {
				if (verbose && eb < 5)
					printf("# B pfn 0x%" PRIx64 ": %s\n",
					       pfn, errb.msg);
				eb++;
			}
			if (sa == PGW_OK && sb == PGW_OK) {
				if (memcmp(pa, pb, sizeof(pa)) == 0) {
					same++;
				} else {
					if (verbose && differ < 5)
						printf("# pfn 0x%" PRIx64
						       " differs\n", pfn);
					differ++;
				}
			}
			na += sa == PGW_E_NODATA;
			nb += sb == PGW_E_NODATA;
			nboth += sa == PGW_E_NODATA && sb == PGW_E_NODATA;
		}
	}
	printf("pages=%" PRIu64 " same=%" PRIu64 " differ=%" PRIu64
	       " nodata_a=%" PRIu64 " nodata_b=%" PRIu64 " nodata_both=%" PRIu64
	       " errors_a=%" PRIu64 " errors_b=%" PRIu64
	       " state_wrong=%" PRIu64,
	       pages, same, differ, na, nb, nboth, ea, eb, hp);
	print_why("why_a", why_a);
	print_why("why_b", why_b);
	putchar('\n');
	free(s);
	pgw_image_close(a);
	pgw_image_close(b);
	return (differ || ea || eb || hp) ? 1 : 0;
}
