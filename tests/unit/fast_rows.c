/*
 * The records spelled by hand (src/cli/fast_rows.h) against their
 * schemas: compact translations and map rows of every kind, in every
 * format, printed both ways must be byte-identical.  A field added to
 * a schema and not to its fast spelling fails here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "cli/dump_out.h"
#include "cli/fast_rows.h"
#include "cli/xlat_out.h"

static const char *const formats[] = { "text", "json", "csv", "tsv" };

/* What o wrote to its file, rows shipped first (NUL-terminated). */
static char *written(struct out *o)
{
	static char buf[1 << 16];
	size_t n;

	out_rows_flush(o);
	fflush(o->f);
	rewind(o->f);
	n = fread(buf, 1, sizeof(buf) - 1, o->f);
	buf[n] = '\0';
	fclose(o->f);
	return buf;
}

static struct out open_out(const char *format, struct rows *rows)
{
	return (struct out){ .f = tmpfile(), .fmt = formatter_by_name(format),
			     .mode = pgw_mode_by_name("x86-64"),
			     .rows = rows };
}

int main(void)
{
	const uint32_t f = PGW_F_PRESENT | PGW_F_RW | PGW_F_USER |
			   PGW_F_ACCESSED;
	const struct pgw_answer a[] = {
		{ .pa = 0x1234567, .page_size = 4096, .level = PGW_PTE,
		  .flags = f, .eff_flags = f | PGW_F_NX },
		{ .pa = 0x40000000, .page_size = 1 << 30, .level = PGW_PUD,
		  .flags = f | PGW_F_NX, .eff_flags = PGW_F_RW, .pkey = 3,
		  .absence = PGW_ABSENT_EXCLUDED },
		{ .stop = PGW_STOP_NOT_PRESENT, .level = PGW_PTE,
		  .np_kind = PGW_NP_PROTNONE, .np_pfn = 0x1234 },
		{ .stop = PGW_STOP_NOT_PRESENT, .level = PGW_PTE,
		  .np_kind = PGW_NP_SWAP, .swap_type = 2,
		  .swap_offset = 0x99 },
		{ .stop = PGW_STOP_NOT_PRESENT, .level = PGW_PMD },
		{ .stop = PGW_STOP_TABLE_NOT_IN_IMAGE, .level = PGW_PMD,
		  .absence = PGW_ABSENT_OUTSIDE },
		{ .stop = PGW_STOP_NONCANONICAL, .level = PGW_PGD },
	};
	const size_t n = sizeof(a) / sizeof(a[0]);
	uint64_t va[sizeof(a) / sizeof(a[0])];
	const struct pgw_run runs[] = {
		{ .va = 0xffff888000000000, .end = 0xffff888040000000,
		  .level = PGW_PMD, .entries = 512, .pa = 0,
		  .page_size = 2 << 20, .flags = f, .eff_flags = f },
		{ .va = 0x1000, .end = 0x11000, .level = PGW_PTE,
		  .entries = 16, .pa = 0x5000, .page_size = 4096,
		  .flags = f, .eff_flags = PGW_F_NX, .same_frame = true,
		  .stride = 0x4000, .pkey = 5 },
		{ .va = 0xfffffffffffff000, .end = 0, .level = PGW_PTE,
		  .entries = 1, .pa = 0x7000, .page_size = 4096, .pkey = 1 },
	};
	const uint64_t absent[] = { 0, 0x1000, 4096 };

	for (size_t i = 0; i < n; i++)
		va[i] = 0x7f0000001000 + (i << 12);
	for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
		static struct rows r1 = ROWS_INIT(r1), r2 = ROWS_INIT(r2);
		struct out o1 = open_out(formats[k], &r1);
		struct out o2 = open_out(formats[k], &r2);
		char *want, *got;

		if (!o1.f || !o2.f || !o1.fmt || !o1.mode)
			return 1;
		o1.table = o2.table = xlat_table(&o1);   /* no header */
		for (size_t i = 0; i < n; i++)
			xlat_print(&o1, va[i], &a[i], NULL, NULL);
		want = strdup(written(&o1));
		ok(fast_xlat(&o2, va, a, n), "%s: a batch spelled fast",
		   formats[k]);
		got = written(&o2);
		if (!ok(strcmp(got, want) == 0,
			"%s: translations spelled fast as their schema does",
			formats[k]))
			printf("# schema:\n%s# fast:\n%s", want, got);
		free(want);

		o1 = open_out(formats[k], &r1);
		o2 = open_out(formats[k], &r2);
		o1.table = o2.table = dump_table(&o1);
		for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
			struct line l;
			l.len = 0;
			dump_print_map(&o1, &runs[i], absent[i]);
			fast_map(&o2, &l, &runs[i], absent[i]);
			fwrite(l.buf, 1, l.len, o2.f);
		}
		want = strdup(written(&o1));
		got = written(&o2);
		if (!ok(strcmp(got, want) == 0,
			"%s: maps spelled fast as their schema does",
			formats[k]))
			printf("# schema:\n%s# fast:\n%s", want, got);
		free(want);
	}
	return tap_done();
}
