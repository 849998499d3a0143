/*
 * Peer for `make bench`: translate kernel virtual addresses from stdin with
 * libkdumpfile's addrxlat (the kernel page tables it finds from
 * VMCOREINFO), printing "va<TAB>pa" or "va<TAB>-" like pgwalk's tsv.
 * Built by bench/translate-peers.sh only when libkdumpfile-dev is there.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <libkdumpfile/kdumpfile.h>

int main(int argc, char **argv)
{
	kdump_ctx_t *ctx;
	addrxlat_ctx_t *axctx;
	addrxlat_sys_t *axsys;
	char line[128];
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: addrxlat_vtop VMCORE < addrs\n");
		return 64;
	}
	fd = open(argv[1], O_RDONLY);
	ctx = kdump_new();
	if (fd < 0 || !ctx || kdump_open_fd(ctx, fd) != KDUMP_OK) {
		fprintf(stderr, "addrxlat_vtop: cannot open %s: %s\n", argv[1],
			ctx ? kdump_get_err(ctx) : "no memory");
		return 66;
	}
	kdump_set_string_attr(ctx, KDUMP_ATTR_OSTYPE, "linux");
	if (kdump_get_addrxlat(ctx, &axctx, &axsys) != KDUMP_OK) {
		fprintf(stderr, "addrxlat_vtop: %s\n", kdump_get_err(ctx));
		return 65;
	}
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	while (fgets(line, sizeof(line), stdin)) {
		addrxlat_fulladdr_t fa;
		fa.addr = strtoull(line, NULL, 16);
		fa.as = ADDRXLAT_KVADDR;
		uint64_t va = fa.addr;
		if (addrxlat_fulladdr_conv(&fa, ADDRXLAT_MACHPHYSADDR, axctx,
					   axsys) == ADDRXLAT_OK)
			printf("0x%" PRIx64 "\t0x%" PRIx64 "\n", va,
			       (uint64_t)fa.addr);
		else
			printf("0x%" PRIx64 "\t-\n", va);
	}
	addrxlat_sys_decref(axsys);
	addrxlat_ctx_decref(axctx);
	kdump_free(ctx);
	close(fd);
	return 0;
}
