/*
 * VMCOREINFO text as the kernel writes it, and text it never writes
 * (src/linux/vmcoreinfo_check.c): table-driven, each rejection with the
 * reason it must give.  The checks that walk are in roots-synth.t.
 */
#include "tap.h"
#include "linux/vmcoreinfo.h"

#include <string.h>

struct line_case {
	const char *text;
	size_t len;              /* 0: strlen(text) */
	bool ok;
	const char *why;         /* the start of the reason */
	unsigned lines;
};

int main(void)
{
	static char full[PGW_VMCI_TEXT_MAX + 1];
	static const struct line_case cases[] = {
		{ "OSRELEASE=6.1.0\nPAGESIZE=4096\n", 0, true, NULL, 2 },
		{ "OSRELEASE=6.1.0\nSYMBOL(init_top_pgt)=ffffffffa6c10000\n"
		  "NUMBER(phys_base)=-547356672\nKERNELOFFSET=24200000\n"
		  "OFFSET(page.flags)=0\nSIZE(page)=64\nLENGTH(zone.free_area)="
		  "11\nCONFIG_X86_PAE=y\nBUILD-ID=01d2640d3a\n", 0, true, NULL,
		  9 },
		{ "PAGESIZE=4096\nOSRELEASE=6.1.0\n", 0, false,
		  "does not begin with OSRELEASE=", 0 },
		{ "OSRELEASE=6.1.0", 0, false, "line 1 has no end", 0 },
		{ "OSRELEASE=6.1.0\n=x\n", 0, false, "line 2 is not KEY=value",
		  0 },
		{ "OSRELEASE=6.1.0\nnothing here\n", 0, false,
		  "line 2 is not KEY=value", 0 },
		{ "OSRELEASE=6.1.0\nKEY WITH SPACE=1\n", 0, false,
		  "line 2: key holds byte 0x20", 0 },
		{ "OSRELEASE=6.1.0\r\n", 0, false,
		  "line 1 (OSRELEASE): value holds byte 0x0d", 0 },
		{ "OSRELEASE=6.1\0.0\n", 17, false,
		  "line 1 (OSRELEASE): value holds byte 0x00", 0 },
		{ "OSRELEASE=6.1.0\nX=\x7f\n", 0, false,
		  "line 2 (X): value holds byte 0x7f", 0 },
		{ "OSRELEASE=6.1.0\nSYMBOL(x)=fffffffffffffffff\n", 0, false,
		  "SYMBOL(x)=fffffffffffffffff is not a 64-bit hex number", 0 },
		{ "OSRELEASE=6.1.0\nSYMBOL(x)=0x10\n", 0, false,
		  "SYMBOL(x)=0x10 is not a 64-bit hex number", 0 },
		{ "OSRELEASE=6.1.0\nSYMBOL(x)=\n", 0, false,
		  "SYMBOL(x)= is not a 64-bit hex number", 0 },
		{ "OSRELEASE=6.1.0\nNUMBER(x)=9223372036854775808\n", 0, false,
		  "NUMBER(x)=9223372036854775808 is not a 64-bit number", 0 },
		{ "OSRELEASE=6.1.0\nNUMBER(x)=-\n", 0, false,
		  "NUMBER(x)=- is not a 64-bit number", 0 },
		{ "OSRELEASE=6.1.0\nPAGESIZE=4k\n", 0, false,
		  "PAGESIZE=4k is not a 64-bit number", 0 },
		{ "OSRELEASE=6.1.0\nNUMBER(x)=-9223372036854775807\n", 0, true,
		  NULL, 2 },
		/* 6.12 writes some NUMBER()s in hex (VMALLOC_START). */
		{ "OSRELEASE=6.12.0\nNUMBER(VMALLOC_START)=0xffffd3c9c0000000\n",
		  0, true, NULL, 2 },
		{ "OSRELEASE=6.1.0\nNUMBER(x)=0x\n", 0, false,
		  "NUMBER(x)=0x is not a 64-bit number", 0 },
		{ "OSRELEASE=6.1.0\nNUMBER(x)=0x10000000000000000\n", 0, false,
		  "NUMBER(x)=0x10000000000000000 is not a 64-bit number", 0 },
		{ "OSRELEASE=0123456789012345678901234567890123456789012345678"
		  "901234567890123456789\n", 0, false,
		  "line 1 is 81 bytes, longer than the kernel writes (80)", 0 },
		{ "OSRELEASE=012345678901234567890123456789012345678901234567"
		  "890123456789012345678\n", 0, true, NULL, 1 },
	};
	char why[200];
	unsigned lines;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct line_case *c = &cases[i];
		size_t len = c->len ? c->len : strlen(c->text);
		bool got = pgw_vmci_check_lines(c->text, len, &lines, why,
						sizeof(why));
		if (c->ok)
			ok(got && lines == c->lines, "case %zu: valid, %u lines "
			   "(got %u)", i, c->lines, lines);
		else
			ok(!got && strncmp(why, c->why, strlen(c->why)) == 0,
			   "case %zu: rejected: \"%s\" (got \"%s\")", i, c->why,
			   got ? "valid" : why);
	}

	/* A full buffer (VMCOREINFO_BYTES) may end in the middle of a line:
	 * vmcoreinfo_append_str stops there. */
	size_t n = 0;
	n += (size_t)snprintf(full, sizeof(full), "OSRELEASE=6.1.0\n");
	while (n + 20 <= PGW_VMCI_TEXT_MAX)
		n += (size_t)snprintf(full + n, sizeof(full) - n,
				      "SIZE(s%07zu)=1\n", n);
	memset(full + n, 'A', PGW_VMCI_TEXT_MAX - n);
	memcpy(full + n, "X=", 2);
	ok(pgw_vmci_check_lines(full, PGW_VMCI_TEXT_MAX, &lines, why,
				sizeof(why)), "a full buffer may end mid-line");
	ok(!pgw_vmci_check_lines(full, PGW_VMCI_TEXT_MAX - 1, &lines, why,
				 sizeof(why)) &&
	   strstr(why, "has no end"), "a shorter one may not (%s)", why);

	/* Values: read as the kernel wrote them, not past the line. */
	static const char text[] = "OSRELEASE=6.1.0\nSYMBOL(a)=1\n"
				   "SYMBOL(ab)=2\nPAGESIZE=4096\n";
	struct pgw_vmci_text t = { text, sizeof(text) - 1 };
	char val[16];
	ok(pgw_vmci_text_get(&t, "SYMBOL(ab)", val, sizeof(val)) &&
	   strcmp(val, "2") == 0, "a key is not a prefix of a longer one");
	ok(pgw_vmci_text_get(&t, "PAGESIZE", val, sizeof(val)) &&
	   strcmp(val, "4096") == 0, "the last line's value");
	ok(!pgw_vmci_text_get(&t, "SYMBOL(", val, sizeof(val)),
	   "a partial key finds nothing");
	ok(!pgw_vmci_text_get(&t, "OSRELEASE", val, 3),
	   "a value longer than the buffer is not cut short");
	return tap_done();
}
