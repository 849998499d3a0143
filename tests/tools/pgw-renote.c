/*
 * pgw-renote [--drop=OWNER]... [--damage-vmcoreinfo] IN OUT: copy a dump
 * with its ELF notes rewritten, for the tests of dumps other writers make.
 *
 *   --drop=OWNER          leave out every note of that owner ("QEMU": the
 *                         CPU-state notes, so that what is left is what the
 *                         kernel's own kdump writes to /proc/vmcore,
 *                         NT_PRSTATUS and VMCOREINFO; "VMCOREINFO": a dump
 *                         without it)
 *   --damage-vmcoreinfo   make VMCOREINFO say PAGESIZE=8192: a note that
 *                         no longer validates
 *   --withhold-kallsyms   rename VMCOREINFO's SYMBOL(kallsyms_*) keys to
 *                         SYMBOL(kallsyms.*), as a kernel before 6.0 has
 *                         none: a note that validates, without the tables
 *
 * IN is an ELF64 core (its PT_NOTE segments are compacted in place and
 * their sizes cut) or a kdump compressed file with the 64-bit sub-header
 * (its note area, and the VMCOREINFO copy offset_vmcoreinfo points at,
 * moved with it).  Every other byte is copied as it is.  Exit 1 when IN is
 * neither, or has no note to change.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "pgw-renote";

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

_Noreturn static void die(const char *what)
{
	fprintf(stderr, "%s: %s\n", prog, what);
	exit(1);
}

struct opts {
	const char *drop[8];
	size_t ndrop;
	bool damage, withhold;
};

/* --withhold-kallsyms: each "SYMBOL(kallsyms_" in the text renamed in
 * place (the same length: every offset stays). */
static unsigned withhold(uint8_t *text, size_t len)
{
	static const char key[] = "SYMBOL(kallsyms_";
	unsigned n = 0;
	uint8_t *p = text;

	while ((p = memmem(p, len - (size_t)(p - text), key,
			   sizeof(key) - 1)) != NULL) {
		p[sizeof(key) - 2] = '.';
		p += sizeof(key) - 1;
		n++;
	}
	return n;
}

static bool dropped(const struct opts *o, const uint8_t *name, size_t len)
{
	for (size_t i = 0; i < o->ndrop; i++)
		if (strlen(o->drop[i]) + 1 == len &&
		    memcmp(o->drop[i], name, len) == 0)
			return true;
	return false;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/*
 * Rewrite the notes in buf[0, len): kept notes packed from the start,
 * the rest zeroed.  The new length; *vmci_desc is the offset of the
 * VMCOREINFO descriptor in the new area (or -1).  *changed counts notes
 * dropped or damaged.
 */
static size_t rewrite(const struct opts *o, uint8_t *buf, size_t len,
		      long *vmci_desc, unsigned *changed)
{
	uint8_t *out = malloc(len ? len : 1);
	size_t at = 0, n = 0;

	if (!out)
		die("out of memory");
	*vmci_desc = -1;
	while (at + 12 <= len) {
		size_t namesz = (size_t)le(buf + at, 4);
		size_t descsz = (size_t)le(buf + at + 4, 4);
		size_t whole = 12 + align4(namesz) + align4(descsz);
		if (whole > len - at)
			die("a note runs past its area");
		const uint8_t *name = buf + at + 12;
		if (dropped(o, name, namesz)) {
			++*changed;
		} else {
			memcpy(out + n, buf + at, whole);
			if (namesz == 11 && !memcmp(name, "VMCOREINFO", 11)) {
				*vmci_desc = (long)(n + 12 + 12);
				if (o->withhold &&
				    withhold(out + n + 24, descsz) == 0)
					die("VMCOREINFO has no kallsyms");
				if (o->withhold)
					++*changed;
				if (o->damage) {
					uint8_t *d = out + n + 24;
					uint8_t *p = memmem(d, descsz,
							    "PAGESIZE=4096", 13);
					if (!p)
						die("VMCOREINFO has no "
						    "PAGESIZE=4096");
					memcpy(p, "PAGESIZE=8192", 13);
					++*changed;
				}
			}
			n += whole;
		}
		at += whole;
	}
	memset(out + n, 0, len - n);
	memcpy(buf, out, len);
	free(out);
	return n;
}

static void elf64(const struct opts *o, uint8_t *f, size_t size,
		  unsigned *changed)
{
	uint64_t phoff = le(f + 32, 8);
	unsigned phentsize = (unsigned)le(f + 54, 2),
		 phnum = (unsigned)le(f + 56, 2);

	if (phentsize < 56 || phoff > size ||
	    (uint64_t)phnum * phentsize > size - phoff)
		die("bad program headers");
	for (unsigned i = 0; i < phnum; i++) {
		uint8_t *ph = f + phoff + (size_t)i * phentsize;
		if (le(ph, 4) != 4)   /* PT_NOTE */
			continue;
		uint64_t off = le(ph + 8, 8), filesz = le(ph + 32, 8);
		if (off > size || filesz > size - off)
			die("a PT_NOTE runs past the file");
		long vd;
		size_t n = rewrite(o, f + off, (size_t)filesz, &vd, changed);
		put_le(ph + 32, n, 8);
		put_le(ph + 40, n, 8);
	}
}

/* kdump: the 64-bit sub-header's offset_vmcoreinfo (32), size (40),
 * offset_note (48), size_note (56). */
static void kdump(const struct opts *o, uint8_t *f, size_t size,
		  unsigned *changed)
{
	uint32_t block = (uint32_t)le(f + 424 + 4, 4);
	uint32_t version = (uint32_t)le(f + 8, 4);

	if (version < 4 || block < 4096 || block > size / 2)
		die("not a kdump with a version 4+ 64-bit header");
	uint8_t *sub = f + block;
	uint64_t voff = le(sub + 32, 8), vsize = le(sub + 40, 8);
	uint64_t noff = le(sub + 48, 8), nsize = le(sub + 56, 8);
	if (noff > size || nsize > size - noff)
		die("the note area runs past the file");
	long vd;
	size_t n = rewrite(o, f + noff, (size_t)nsize, &vd, changed);
	put_le(sub + 56, n, 8);
	if (vsize && voff >= noff && voff < noff + nsize) {
		/* It pointed into the notes: follow the note, or drop it. */
		put_le(sub + 32, vd < 0 ? 0 : noff + (uint64_t)vd, 8);
		if (vd < 0)
			put_le(sub + 40, 0, 8);
	} else if (vsize && o->withhold && voff <= size &&
		   vsize <= size - voff) {
		withhold(f + voff, vsize);
	} else if (vsize && o->damage) {
		uint8_t *p = voff <= size && vsize <= size - voff ?
				     memmem(f + voff, vsize, "PAGESIZE=4096",
					    13) : NULL;
		if (p)
			memcpy(p, "PAGESIZE=8192", 13);
	}
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strncmp(argv[i], "--drop=", 7) && o.ndrop < 8)
			o.drop[o.ndrop++] = argv[i] + 7;
		else if (!strcmp(argv[i], "--damage-vmcoreinfo"))
			o.damage = true;
		else if (!strcmp(argv[i], "--withhold-kallsyms"))
			o.withhold = true;
		else
			die("usage: pgw-renote [--drop=OWNER]... "
			    "[--damage-vmcoreinfo] [--withhold-kallsyms] IN OUT");
	}
	if (argc - i != 2)
		die("usage: pgw-renote [--drop=OWNER]... "
		    "[--damage-vmcoreinfo] [--withhold-kallsyms] IN OUT");
	FILE *in = fopen(argv[i], "rb");
	if (!in || fseek(in, 0, SEEK_END) != 0)
		die("cannot open IN");
	long size = ftell(in);
	uint8_t *f = size > 0 ? malloc((size_t)size) : NULL;
	rewind(in);
	if (!f || fread(f, 1, (size_t)size, in) != (size_t)size)
		die("cannot read IN");
	fclose(in);
	unsigned changed = 0;
	if (size > 64 && !memcmp(f, "\177ELF", 4) && f[4] == 2)
		elf64(&o, f, (size_t)size, &changed);
	else if (size > 8192 && !memcmp(f, "KDUMP   ", 8))
		kdump(&o, f, (size_t)size, &changed);
	else
		die("IN is neither an ELF64 core nor a kdump");
	if (!changed)
		die("no note to change");
	FILE *out = fopen(argv[i + 1], "wb");
	if (!out || fwrite(f, 1, (size_t)size, out) != (size_t)size ||
	    fclose(out) != 0)
		die("cannot write OUT");
	free(f);
	return 0;
}
