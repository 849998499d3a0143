/*
 * pgwalk never writes to an image: the library opens it O_RDONLY and maps
 * it PROT_READ.  Checked from the outside, as the kernel sees it: the
 * open file's access mode in /proc/self/fdinfo and the mapping's
 * permissions in /proc/self/maps, for every format.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"
#include "pgwalk.h"
#include "../tools/imgwrite.h"

/* The access mode of the descriptor open on path, or -1. */
static int fd_accmode(const char *path)
{
	char link[64], target[PATH_MAX], info[64], line[256];

	for (int fd = 0; fd < 1024; fd++) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (strcmp(target, path) != 0)
			continue;
		snprintf(info, sizeof(info), "/proc/self/fdinfo/%d", fd);
		FILE *f = fopen(info, "r");
		if (!f)
			return -1;
		int mode = -1;
		while (fgets(line, sizeof(line), f)) {
			unsigned long flags;
			if (sscanf(line, "flags: %lo", &flags) == 1)
				mode = (int)(flags & O_ACCMODE);
		}
		fclose(f);
		return mode;
	}
	return -1;
}

/* Mappings of path: how many, and how many are writable. */
static void mappings(const char *path, int *n_ret, int *writable_ret)
{
	char line[PATH_MAX + 256];
	FILE *f = fopen("/proc/self/maps", "r");

	*n_ret = *writable_ret = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char perms[8];
		line[strcspn(line, "\n")] = '\0';
		size_t pl = strlen(path), ll = strlen(line);
		if (ll < pl || strcmp(line + ll - pl, path) != 0)
			continue;
		if (sscanf(line, "%*s %7s", perms) != 1)
			continue;
		(*n_ret)++;
		*writable_ret += perms[1] == 'w';
	}
	fclose(f);
}

static void check(const char *what, const char *path, const char *format)
{
	struct pgw_image_open_opts o = { .format = format };
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	char real[PATH_MAX];
	int n, w;

	if (!ok(pgw_image_open(&img, path, &o, &err) == PGW_OK, "%s: opens",
		what)) {
		printf("#   %s\n", err.msg);
		return;
	}
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	is_u64(fd_accmode(real), O_RDONLY, "%s: descriptor is O_RDONLY", what);
	mappings(real, &n, &w);
	ok(n >= 1, "%s: the file is mapped (%d mappings)", what, n);
	is_u64(w, 0, "%s: no mapping of it is writable", what);
	pgw_image_close(img);
	mappings(real, &n, &w);
	is_u64(n, 0, "%s: unmapped after close", what);
	is_u64(fd_accmode(real) == -1, 1, "%s: closed after close", what);
}

int main(void)
{
	struct iw_mem m = { 0 };
	struct iw_buf elf = { 0 };
	char dir[] = "/tmp/pgw-ro-XXXXXX", raw[64], core[64];

	if (!mkdtemp(dir))
		return 2;
	uint64_t root = iw_tables_x86_64(&m, false);
	struct iw_cpu cpu = { 0x80050033, root, 0x3506f0, 0, 0x10, 1u << 21 };
	struct iw_elf e = { .is64 = true, .machine = 62, .cpus = &cpu,
			    .ncpus = 1, .page_align_data = true };
	iw_elf_build(&e, &m, &elf, NULL);
	snprintf(raw, sizeof(raw), "%s/mem.raw", dir);
	snprintf(core, sizeof(core), "%s/vmcore.elf", dir);
	if (iw_write_file(raw, m.b.p, m.b.len) || iw_write_file(core, elf.p,
							       elf.len))
		return 2;
	check("raw", raw, "raw");
	check("elf (probed)", core, NULL);
	check("elf (named)", core, "elf");
	unlink(raw);
	unlink(core);
	rmdir(dir);
	iw_free(&elf);
	iw_free(&m.b);
	return tap_done();
}
