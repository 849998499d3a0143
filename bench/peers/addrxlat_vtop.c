/*
 * Peer for `make bench`: translate virtual addresses from stdin with
 * libkdumpfile's addrxlat, walking the page tables under a given root,
 * printing "va<TAB>pa" or "va<TAB>-" like the first two columns of
 * pgwalk's tsv.
 *
 *   addrxlat_vtop IMAGE CR3 [MODE] < addrs       ELF or kdump (libkdumpfile)
 *   addrxlat_vtop --raw IMAGE CR3 [MODE] < addrs  raw physical image
 *
 * MODE is x86-64 (default), la57, pae, i386, arm64-4k-48 or arm64-16k-47
 * (CR3 is then the TTBR's table; the walk is of that one root).  ELF and kdump pages are
 * read through libkdumpfile's own addrxlat context; a raw image (which
 * libkdumpfile does not open) through a get-page callback on the mmapped
 * file, so that addrxlat itself does the walk in every case.  Built by
 * bench/translate.sh only when pkg-config finds libaddrxlat.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkdumpfile/addrxlat.h>
#include <libkdumpfile/kdumpfile.h>

static const uint8_t *raw_base;
static size_t raw_size;

/* addrxlat calls put_page whatever the page. */
static void raw_put_page(const addrxlat_buffer_t *buf)
{
	(void)buf;
}

static addrxlat_status raw_get_page(const addrxlat_cb_t *cb,
				    addrxlat_buffer_t *buf)
{
	uint64_t page = buf->addr.addr & ~(uint64_t)4095;

	(void)cb;
	if (buf->addr.as != ADDRXLAT_MACHPHYSADDR || page >= raw_size)
		return ADDRXLAT_ERR_NODATA;
	buf->addr.addr = page;
	buf->ptr = raw_base + page;
	buf->size = 4096;
	buf->byte_order = ADDRXLAT_LITTLE_ENDIAN;
	buf->put_page = raw_put_page;
	return ADDRXLAT_OK;
}

static unsigned long raw_caps(const addrxlat_cb_t *cb)
{
	(void)cb;
	return ADDRXLAT_CAPS(ADDRXLAT_MACHPHYSADDR);
}

static int paging_form(const char *mode, addrxlat_paging_form_t *pf)
{
	static const struct {
		const char *name;
		addrxlat_pte_format_t fmt;
		unsigned n, f[6];
	} forms[] = {
		{ "x86-64", ADDRXLAT_PTE_X86_64, 5, { 12, 9, 9, 9, 9 } },
		{ "la57", ADDRXLAT_PTE_X86_64, 6, { 12, 9, 9, 9, 9, 9 } },
		{ "pae", ADDRXLAT_PTE_IA32_PAE, 4, { 12, 9, 9, 2 } },
		{ "i386", ADDRXLAT_PTE_IA32, 3, { 12, 10, 10 } },
		{ "arm64-4k-48", ADDRXLAT_PTE_AARCH64, 5, { 12, 9, 9, 9, 9 } },
		{ "arm64-16k-47", ADDRXLAT_PTE_AARCH64, 4, { 14, 11, 11, 11 } },
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (strcmp(mode, forms[i].name))
			continue;
		memset(pf, 0, sizeof(*pf));
		pf->pte_format = forms[i].fmt;
		pf->nfields = forms[i].n;
		for (unsigned j = 0; j < forms[i].n; j++)
			pf->fieldsz[j] = forms[i].f[j];
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	addrxlat_ctx_t *axctx = NULL;
	kdump_ctx_t *ctx = NULL;
	addrxlat_meth_t meth;
	char line[128];
	int raw = argc > 1 && strcmp(argv[1], "--raw") == 0;
	int fd;

	argv += raw;
	argc -= raw;
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: addrxlat_vtop [--raw] IMAGE CR3 "
			"[MODE] < addrs\n");
		return 64;
	}
	memset(&meth, 0, sizeof(meth));
	meth.kind = ADDRXLAT_PGT;
	meth.target_as = ADDRXLAT_MACHPHYSADDR;
	meth.param.pgt.root.addr = strtoull(argv[2], NULL, 0) & ~(uint64_t)0xfff;
	meth.param.pgt.root.as = ADDRXLAT_MACHPHYSADDR;
	if (paging_form(argc > 3 ? argv[3] : "x86-64", &meth.param.pgt.pf)) {
		fprintf(stderr, "addrxlat_vtop: unknown mode %s\n", argv[3]);
		return 64;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 66;
	}
	if (raw) {
		struct stat st;
		if (fstat(fd, &st) || (raw_base = mmap(NULL, st.st_size,
				PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
			perror(argv[1]);
			return 66;
		}
		raw_size = (size_t)st.st_size;
		axctx = addrxlat_ctx_new();
		addrxlat_cb_t *cb = axctx ? addrxlat_ctx_add_cb(axctx) : NULL;
		if (!cb) {
			fprintf(stderr, "addrxlat_vtop: no memory\n");
			return 70;
		}
		cb->get_page = raw_get_page;
		cb->read_caps = raw_caps;
	} else {
		addrxlat_sys_t *axsys;
		ctx = kdump_new();
		if (!ctx || kdump_open_fd(ctx, fd) != KDUMP_OK) {
			fprintf(stderr, "addrxlat_vtop: cannot open %s: %s\n",
				argv[1], ctx ? kdump_get_err(ctx) : "no memory");
			return 66;
		}
		kdump_set_string_attr(ctx, KDUMP_ATTR_OSTYPE, "linux");
		if (kdump_get_addrxlat(ctx, &axctx, &axsys) != KDUMP_OK) {
			fprintf(stderr, "addrxlat_vtop: %s\n", kdump_get_err(ctx));
			return 65;
		}
		addrxlat_sys_decref(axsys);
	}
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	while (fgets(line, sizeof(line), stdin)) {
		addrxlat_step_t step;
		uint64_t va = strtoull(line, NULL, 16);

		step.ctx = axctx;
		step.sys = NULL;
		step.meth = &meth;
		step.base.addr = va;
		step.base.as = ADDRXLAT_KVADDR;
		if (addrxlat_walk(&step) == ADDRXLAT_OK)
			printf("0x%" PRIx64 "\t0x%" PRIx64 "\n", va,
			       (uint64_t)step.base.addr);
		else
			printf("0x%" PRIx64 "\t-\n", va);
	}
	addrxlat_ctx_decref(axctx);
	if (ctx)
		kdump_free(ctx);
	close(fd);
	return 0;
}
