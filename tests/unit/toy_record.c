/*
 * A command's output is its record schema plus one text layout: a toy
 * record type declared here alone, printed by pgwalk's own formatters
 * (text, JSON, CSV, TSV) and compared with what docs/output.md says each
 * spells.  Nothing in src/cli knows it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "cli/output.h"
#include "cli/text_cells.h"

/* The toy: a shelf of jars (a text cell with a comma and a quote, a byte
 * string with a NUL and an escape, absent and null fields), then a
 * summary whose counts go in CSV's detail cell. */
#define JAR_FIELDS(F, S)                                                  \
	F(S, span, SPAN, 0)                                               \
	F(S, label, TEXT, 0)                                              \
	F(S, tag, BYTES, 0)                                               \
	F(S, shelf, OU64, RF_NULL)                                        \
	F(S, sealed, BOOL, 0)                                             \
	F(S, lid, OHEX, 0)                                                \
	F(S, kind, WORD, RF_NULL)                                         \
	F(S, note, TEXT, RF_JSON)
RECORD_STRUCT(jar_rec, JAR_FIELDS);

#define SHELF_FIELDS(F, S)                                                \
	F(S, jars, U64, RF_DETAIL)                                        \
	F(S, sealed, U64, RF_DETAIL)                                      \
	F(S, complete, BOOL, 0)
RECORD_STRUCT(shelf_rec, SHELF_FIELDS);

static void text_jar(struct out *o, const void *rec)
{
	const struct jar_rec *j = rec;
	struct line l;
	l.len = 0;

	emit_str(&l, j->sealed ? "* " : "  ");
	emit_hex(&l, j->span.va);
	emit_char(&l, ' ');
	text_size(&l, j->span.end - j->span.va, 6);
	emit_char(&l, ' ');
	emit_text_strn(&l, j->label, 64);
	text_put(o, &l);
}

static void text_shelf(struct out *o, const void *rec)
{
	const struct shelf_rec *s = rec;

	fprintf(o->f, "# %llu jars, %llu sealed\n",
		(unsigned long long)s->jars, (unsigned long long)s->sealed);
}

static void text_head(struct out *o, const void *ctx)
{
	fprintf(o->f, "# %s\n", (const char *)ctx);
}

RECORD_TYPE(jar_rec, "jar", JAR_FIELDS, text_jar);
RECORD_TYPE(shelf_rec, "summary", SHELF_FIELDS, text_shelf);
static const struct rec_type *const jar_types[] = {
	&jar_rec_type, &shelf_rec_type, NULL,
};
/* Released with three columns; the rest are appended as they come. */
static const struct rec_table jar_table = { "type,label,va", jar_types,
					    text_head };

static const char *const want[] = {
	"text",
	"# ADDR SIZE LABEL\n"
	"* 0x1000     4K plum, \"dark\"\n"
	"  0xfffff000     4K fig\n"
	"# 2 jars, 1 sealed\n",
	"json",
	"{\"type\":\"jar\",\"va\":\"0x1000\",\"end\":\"0x2000\",\"size\":4096,"
	"\"label\":\"plum, \\\"dark\\\"\",\"tag\":\"a\\u0000\\u001b\","
	"\"shelf\":3,\"sealed\":true,\"lid\":\"0xbeef\",\"kind\":\"jam\","
	"\"note\":\"JSON only\"}\n"
	"{\"type\":\"jar\",\"va\":\"0xfffff000\",\"end\":\"0x100000000\","
	"\"size\":4096,\"label\":\"fig\",\"tag\":\"\",\"shelf\":null,"
	"\"sealed\":false,\"kind\":null}\n"
	"{\"type\":\"summary\",\"jars\":2,\"sealed\":1,\"complete\":true}\n",
	"csv",
	"type,label,va,end,size,tag,shelf,sealed,lid,kind,detail,complete\n"
	"jar,\"plum, \"\"dark\"\"\",0x1000,0x2000,4096,a\\x00\\x1b,3,true,"
	"0xbeef,jam,,\n"
	"jar,fig,0xfffff000,0x100000000,4096,,,false,,,,\n"
	"summary,,,,,,,,,,jars=2 sealed=1,true\n",
	"tsv",
	"type\tlabel\tva\tend\tsize\ttag\tshelf\tsealed\tlid\tkind\tdetail\t"
	"complete\n"
	"jar\tplum, \"dark\"\t0x1000\t0x2000\t4096\ta\\x00\\x1b\t3\ttrue\t"
	"0xbeef\tjam\t-\t-\n"
	"jar\tfig\t0xfffff000\t0x100000000\t4096\t-\t-\tfalse\t-\t-\t-\t-\n"
	"summary\t-\t-\t-\t-\t-\t-\t-\t-\t-\tjars=2 sealed=1\ttrue\n",
};

int main(void)
{
	const struct jar_rec jars[] = {
		{ { 0x1000, 0x2000 }, "plum, \"dark\"", { "a\0\x1b", 3 },
		  { 3, true }, true, { 0xbeef, true }, "jam", "JSON only" },
		{ { 0xfffff000, 0x100000000 }, "fig", { "", 0 }, { 0, false },
		  false, { 0, false }, NULL, NULL },
	};
	const struct shelf_rec shelf = { 2, 1, true };

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i += 2) {
		char *buf = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&buf, &n);
		struct out o = { .f = f, .fmt = formatter_by_name(want[i]) };

		if (!f || !o.fmt)
			return 1;
		out_table(&o, &jar_table, "ADDR SIZE LABEL");
		for (size_t k = 0; k < 2; k++)
			out_record(&o, &jar_rec_type, &jars[k]);
		out_record(&o, &shelf_rec_type, &shelf);
		fclose(f);
		if (!ok(strcmp(buf, want[i + 1]) == 0,
			"%s: the toy's records as the contract spells them",
			want[i]))
			printf("# got:\n%s# want:\n%s", buf, want[i + 1]);
		free(buf);
	}
	return tap_done();
}
