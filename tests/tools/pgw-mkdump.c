/*
 * pgw-mkdump: write test images of one synthetic (or given raw) physical
 * memory in every format pgwalk reads, with dumpwriter.h.
 *
 *   pgw-mkdump FORMAT [OPTION...] OUT
 *   FORMAT: raw kdump lime avml
 *   --pages=N        synthetic memory of N pages (default 4096)
 *   --seed=S         content seed
 *   --raw=FILE       use FILE (a raw physical image from 0) as memory
 *   --filter         leave out every third data page and one page table
 *   --holes          16 pages that are not RAM (gaps in every format)
 *   --codec=C        kdump: none zlib lzo snappy zstd (default zlib)
 *   --layout=64|32   kdump header layout of a 64- or 32-bit writer
 *   --exclude-zero   kdump: zero pages not dumped
 *   --share-zero     kdump: zero pages share one descriptor
 *   --flat[=SIZE]    wrap in makedumpfile's flattened format (record SIZE)
 *   --flat-reverse   flattened records last first
 *   --flat-overlap   a junk record that later records overwrite
 *   --avml-block=N   AVML: bytes per range block (default 16 MiB)
 *   --vas=FILE       write addresses worth translating to FILE
 *   --ram-from=ADDR  --raw: the pages below ADDR are no RAM (holes), as
 *                    below an arm64 guest's RAM at 0x40000000
 *   --machine=NAME   kdump: utsname.machine (default x86_64; aarch64 ...)
 *   --vmcoreinfo=FILE  kdump: this VMCOREINFO text in the sub-header
 *   --block-size=N   kdump: bytes a block (a pfn of its bitmaps) holds,
 *                    4096 (default) or 16384, as makedumpfile writes a
 *                    16K kernel's pages
 * Prints "cr3=0x... filtered_table_va=0x... npages=N" on stdout.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpwriter.h"

_Noreturn static void usage(void)
{
	fprintf(stderr, "usage: pgw-mkdump raw|kdump|lime|avml [OPTION...] "
			"OUT (see the source for options)\n");
	exit(64);
}

static enum dw_codec codec_by_name(const char *s)
{
	for (unsigned i = 0; i < sizeof(dw_codecs) / sizeof(dw_codecs[0]); i++)
		if (strcmp(s, dw_codecs[i].name) == 0) {
			if (!dw_codecs[i].built) {
				fprintf(stderr, "pgw-mkdump: built without "
						"%s\n", s);
				exit(77);
			}
			return (enum dw_codec)i;
		}
	usage();
	return DW_NONE;
}

static void load_raw(struct dw_mem *m, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) != 0) {
		perror(path);
		exit(66);
	}
	long size = ftell(f);
	rewind(f);
	m->npages = (uint64_t)size / DW_PAGE;
	m->data = malloc(m->npages * DW_PAGE);
	m->kind = calloc(m->npages, 1);
	if (!m->data || !m->kind ||
	    fread(m->data, DW_PAGE, m->npages, f) != m->npages) {
		perror(path);
		exit(66);
	}
	fclose(f);
}

/* A whole text file, NUL-terminated. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long size;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
	    !(text = calloc(1, (size_t)size + 1)) ||
	    (rewind(f), fread(text, 1, (size_t)size, f)) != (size_t)size) {
		perror(path);
		exit(66);
	}
	fclose(f);
	return text;
}

static void write_vas(const char *path, const struct dw_synth *s,
		      uint64_t npages)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(73);
	}
	for (unsigned i = 0; i < 64; i++)
		fprintf(f, "0x%" PRIx64 "\n",
			(uint64_t)(0x400000 + i * 4096ull + (i * 37) % 4096));
	fprintf(f, "0x40012345\n0x401fffff\n");
	for (uint64_t k = 0; k < npages / 256; k++)
		fprintf(f, "0x%" PRIx64 "\n",
			(uint64_t)(0xffff888000000000ull + k * 0x100000 +
				   0x5678));
	fprintf(f, "0xffffc00000003000\n0xffffc0003fffffff\n");
	for (unsigned i = 0; i < 8; i++)
		fprintf(f, "0x%" PRIx64 "\n",
			(uint64_t)(0x7f0000000000ull + i * 4096 + 8));
	fprintf(f, "0x%" PRIx64 "\n", s->filtered_table_va);
	/* unmapped, and outside the canonical ranges */
	fprintf(f, "0x500000\n0x1000\n0xffff900000000000\n"
		   "0x80000000000000\n0x7f0000008000\n");
	fclose(f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pages", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "raw", required_argument, NULL, 'r' },
		{ "filter", no_argument, NULL, 'F' },
		{ "holes", no_argument, NULL, 'H' },
		{ "codec", required_argument, NULL, 'c' },
		{ "layout", required_argument, NULL, 'l' },
		{ "exclude-zero", no_argument, NULL, 'z' },
		{ "share-zero", no_argument, NULL, 'Z' },
		{ "flat", optional_argument, NULL, 'f' },
		{ "flat-reverse", no_argument, NULL, 'R' },
		{ "flat-overlap", no_argument, NULL, 'O' },
		{ "avml-block", required_argument, NULL, 'b' },
		{ "vas", required_argument, NULL, 'v' },
		{ "ram-from", required_argument, NULL, 'B' },
		{ "machine", required_argument, NULL, 'M' },
		{ "vmcoreinfo", required_argument, NULL, 'V' },
		{ "block-size", required_argument, NULL, 'k' },
		{ 0 }
	};
	uint64_t npages = 4096, seed = 1, avml_block = 16u << 20, ram_from = 0;
	const char *raw = NULL, *vas = NULL;
	char *vmci_text = NULL;
	bool filter = false, holes = false, flat = false;
	struct dw_kdump_opts ko = { .codec = DW_ZLIB, .layout = 64,
				    .machine = "x86_64" };
	struct dw_flat_opts fo = { .rec_size = 65536, .skip_gap = true };
	int c;

	if (argc < 2)
		usage();
	const char *format = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': npages = strtoull(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'r': raw = optarg; break;
		case 'F': filter = true; break;
		case 'H': holes = true; break;
		case 'c': ko.codec = codec_by_name(optarg); break;
		case 'l': ko.layout = atoi(optarg); break;
		case 'z': ko.exclude_zero = true; break;
		case 'Z': ko.share_zero = true; break;
		case 'f':
			flat = true;
			if (optarg)
				fo.rec_size = strtoull(optarg, NULL, 0);
			break;
		case 'R': fo.reverse = true; break;
		case 'O': fo.overlap = true; break;
		case 'b': avml_block = strtoull(optarg, NULL, 0); break;
		case 'v': vas = optarg; break;
		case 'B': ram_from = strtoull(optarg, NULL, 0); break;
		case 'M': ko.machine = optarg; break;
		case 'V': ko.vmcoreinfo = vmci_text = read_text(optarg); break;
		case 'k':
			ko.block_pages = (unsigned)(strtoul(optarg, NULL, 0) /
						    DW_PAGE);
			if (ko.block_pages != 1 && ko.block_pages != 4)
				usage();
			break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	const char *out = argv[optind];

	struct dw_mem m;
	struct dw_synth s = { 0 };
	if (raw) {
		load_raw(&m, raw);
		for (uint64_t p = 0; p < m.npages && p < ram_from / DW_PAGE; p++)
			m.kind[p] = DW_HOLE;
	} else
		dw_synth_mem(&m, npages, seed, &s);
	if (filter || holes) {
		dw_synth_filter(&m, &s, holes);
		if (!filter)
			for (uint64_t p = 0; p < m.npages; p++)
				if (m.kind[p] == DW_FILTERED)
					m.kind[p] = DW_RAM;
	}
	ko.dump_level = (filter ? 8 | 16 : 0) | (ko.exclude_zero ? 1 : 0);

	struct dw_buf b = { 0 }, f = { 0 };
	if (strcmp(format, "raw") == 0) {
		dw_put(&b, 0, m.data, m.npages * DW_PAGE);
	} else if (strcmp(format, "kdump") == 0) {
		dw_write_kdump(&b, &m, &ko, NULL);
	} else if (strcmp(format, "lime") == 0) {
		dw_write_lime(&b, &m);
	} else if (strcmp(format, "avml") == 0) {
#ifdef PGW_HAVE_SNAPPY
		dw_write_avml(&b, &m, avml_block, 65536);
#else
		(void)avml_block;
		fprintf(stderr, "pgw-mkdump: built without snappy\n");
		return 77;
#endif
	} else {
		usage();
	}
	if (flat) {
		dw_flatten(&f, &b, &fo);
		dw_free(&b);
		b = f;
	}
	if (dw_save(&b, out) != 0) {
		perror(out);
		return 73;
	}
	if (vas && !raw)
		write_vas(vas, &s, m.npages);
	printf("cr3=0x%" PRIx64 " filtered_table_va=0x%" PRIx64
	       " npages=%" PRIu64 "\n", s.cr3, s.filtered_table_va, m.npages);
	dw_free(&b);
	free(m.data);
	free(m.kind);
	free(vmci_text);
	return 0;
}
