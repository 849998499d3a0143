#include "facts_cache.h"
#include "../linux/scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the identity hashes: the headers of every format, and (raw, the
 * end of an ELF or kdump) the last pages. */
#define ID_SPAN 65536

static const char magic[] = "pgwalk facts 2";

/* Pages sampled across the file besides its ends. */
#define ID_SAMPLES 16

/* fnv64 of the file's bytes [off, off + len), or false. */
static bool hash_span(int fd, off_t off, size_t len, uint64_t *h)
{
	static uint8_t buf[ID_SPAN];
	ssize_t n = pread(fd, buf, len < sizeof(buf) ? len : sizeof(buf), off);

	if (n < 0)
		return false;
	*h = pgw_fnv64_words(PGW_FNV64_SEED, buf, (size_t)n);
	return true;
}

/* The pages at every 1/ID_SAMPLES of the file, hashed together: two raw
 * images of one size often share their first and last pages. */
static bool hash_samples(int fd, off_t size, uint64_t *h)
{
	uint64_t one;

	*h = 0;
	for (unsigned i = 0; i < ID_SAMPLES; i++) {
		off_t at = (off_t)((uint64_t)size / ID_SAMPLES * i) &
			   ~(off_t)(PGW_PAGE_SIZE - 1);
		if (!hash_span(fd, at, PGW_PAGE_SIZE, &one))
			return false;
		*h = (*h ^ one) * UINT64_C(0x100000001b3);
	}
	return true;
}

/* The image's identity line, false for what is no regular file. */
static bool identity(const char *path, const struct pgw_image *img,
		     const struct pgw_image_open_opts *o, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint64_t head, tail, mid;
	bool ok;

	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	     hash_span(fd, 0, ID_SPAN, &head) &&
	     hash_span(fd, st.st_size > ID_SPAN ? st.st_size - ID_SPAN : 0,
		       ID_SPAN, &tail) &&
	     hash_samples(fd, st.st_size, &mid);
	close(fd);
	if (!ok)
		return false;
	/* The file (device, inode) as well as its bytes: a copy is another
	 * entry, and two files written in the same tick are told apart. */
	snprintf(buf, n, "image size=%lld mtime=%lld.%09ld file=%llx:%llx "
		 "head=%016llx tail=%016llx pages=%016llx format=%s base=0x%llx",
		 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino, (unsigned long long)head,
		 (unsigned long long)tail, (unsigned long long)mid,
		 pgw_image_format(img), (unsigned long long)o->raw_base);
	return true;
}

/* $XDG_CACHE_HOME/pgwalk, else ~/.cache/pgwalk (a relative
 * XDG_CACHE_HOME is not one, as the XDG spec says). */
static bool cache_dir(char *buf, size_t n, char *base, size_t nb)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int k;

	if (x && x[0] == '/')
		k = snprintf(base, nb, "%s", x);
	else if (home && home[0] == '/')
		k = snprintf(base, nb, "%s/.cache", home);
	else
		return false;
	if (k < 0 || (size_t)k >= nb)
		return false;
	k = snprintf(buf, n, "%s/pgwalk", base);
	return k > 0 && (size_t)k < n;
}

/* Split line at single spaces into at most max words; the count, or
 * max + 1 for a line that is no list of words. */
static size_t words(char *line, char **w, size_t max)
{
	size_t nw = 0;

	for (char *p = line;;) {
		char *sp = strchr(p, ' ');
		if (nw == max || *p == '\0' || *p == ' ')
			return max + 1;
		w[nw++] = p;
		if (!sp)
			return nw;
		*sp = '\0';
		p = sp + 1;
	}
}

/* "key=0x..." */
static bool hex_field(const char *w, const char *key, uint64_t *v)
{
	size_t k = strlen(key);

	return strncmp(w, key, k) == 0 && w[k] == '=' &&
	       facts_hex_word(w + k + 1, v);
}

static bool vmci_line(char **w, size_t nw, struct pgw_facts_hint *h,
		      char *why, size_t n)
{
	uint64_t pa;

	if (nw != 3 || !facts_hex_word(w[1], &pa) ||
	    (pa & (PGW_PAGE_SIZE - 1)) ||
	    (strcmp(w[2], "valid") && strcmp(w[2], "invalid"))) {
		snprintf(why, n, "a vmcoreinfo line is not 'vmcoreinfo 0x... "
			 "valid|invalid' of a page");
		return false;
	}
	if (h->nvmci == PGW_VMCI_MAX_LISTED ||
	    (h->nvmci && pa <= h->vmci_pa[h->nvmci - 1])) {
		snprintf(why, n, "more than %d vmcoreinfo pages, or out of "
			 "order", PGW_VMCI_MAX_LISTED);
		return false;
	}
	h->vmci_pa[h->nvmci] = pa;
	h->vmci_valid[h->nvmci++] = strcmp(w[2], "valid") == 0;
	return true;
}

static bool kroot_line(char **w, size_t nw, struct pgw_facts_hint *h,
		       char *why, size_t n)
{
	static const char asked[] = "asked=";

	if (h->have_kroot || nw != 6 || !facts_hex_word(w[1], &h->kroot) ||
	    !(h->kroot_mode = pgw_mode_by_name(w[2])) ||
	    strncmp(w[3], asked, sizeof(asked) - 1) ||
	    !hex_field(w[4], "enc", &h->kroot_enc.enc) ||
	    !hex_field(w[5], "shared", &h->kroot_enc.shared)) {
		snprintf(why, n, "the kernel-root line is not 'kernel-root "
			 "0x... MODE asked=MODE|any enc=0x... shared=0x...', "
			 "once");
		return false;
	}
	const char *a = w[3] + sizeof(asked) - 1;
	h->kroot_asked = strcmp(a, "any") ? pgw_mode_by_name(a) : NULL;
	if (strcmp(a, "any") && !h->kroot_asked) {
		snprintf(why, n, "the kernel-root line asks for no mode");
		return false;
	}
	h->have_kroot = true;
	return true;
}

/* A line after the identity: a fact, or the reason it is none. */
static bool fact_line(char *line, unsigned no, struct pgw_facts_hint *h,
		      struct facts_kernel_read *kr, char *why, size_t n)
{
	char *w[6];
	int kl = facts_kernel_line(line, kr, why, n);

	if (kl)
		return kl > 0;
	size_t nw = words(line, w, 6);

	if (nw <= 6 && strcmp(w[0], "vmcoreinfo") == 0)
		return vmci_line(w, nw, h, why, n);
	if (nw <= 6 && strcmp(w[0], "kernel-root") == 0)
		return kroot_line(w, nw, h, why, n);
	snprintf(why, n, "line %u is none an entry holds", no);
	return false;
}

bool facts_cache_parse(const char *text, const char *id,
		       struct pgw_facts_hint *h, struct facts_kernel_read *kr,
		       char *why, size_t n)
{
	static char copy[FACTS_ENTRY_MAX];
	char *line = copy;
	size_t len = strnlen(text, sizeof(copy));

	memset(h, 0, sizeof(*h));
	memset(kr, 0, sizeof(*kr));
	if (len == sizeof(copy) || len == 0 || text[len - 1] != '\n') {
		snprintf(why, n, "not a cache entry (size, or no last "
			 "newline)");
		return false;
	}
	memcpy(copy, text, len + 1);
	for (unsigned i = 0; *line; i++) {
		char *nl = strchr(line, '\n');
		*nl = '\0';
		if (i == 0 && strcmp(line, magic)) {
			snprintf(why, n, "not a cache entry (first line)");
			return false;
		}
		if (i == 1 && strcmp(line, id)) {
			snprintf(why, n, "written for another image, or before "
				 "the image changed");
			return false;
		}
		if (i >= 2 && !fact_line(line, i + 1, h, kr, why, n))
			return false;
		line = nl + 1;
	}
	if (!facts_kernel_done(kr, why, n))
		return false;
	if (!h->nvmci && !h->have_kroot && !kr->have) {
		snprintf(why, n, "not a cache entry (no facts)");
		return false;
	}
	return true;
}

void facts_cache_format(const struct pgw_facts_hint *h,
			const struct pgw_kernel_facts *kf, const char *id,
			char *buf, size_t n)
{
	size_t k;

	buf[0] = '\0';
	if (!h->nvmci && !h->have_kroot && !kf)
		return;
	k = (size_t)snprintf(buf, n, "%s\n%s\n", magic, id);
	for (size_t i = 0; i < h->nvmci && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "vmcoreinfo 0x%llx %s\n",
				      (unsigned long long)h->vmci_pa[i],
				      h->vmci_valid[i] ? "valid" : "invalid");
	if (h->have_kroot && k < n)
		k += (size_t)snprintf(buf + k, n - k, "kernel-root 0x%llx %s "
				      "asked=%s enc=0x%llx shared=0x%llx\n",
				      (unsigned long long)h->kroot,
				      h->kroot_mode->name,
				      h->kroot_asked ? h->kroot_asked->name :
						       "any",
				      (unsigned long long)h->kroot_enc.enc,
				      (unsigned long long)h->kroot_enc.shared);
	if (kf && k < n)
		k += facts_kernel_format(kf, buf + k, n - k);
	if (k >= n)
		buf[0] = '\0';
}

void facts_cache_load(struct facts_cache *c, const char *path,
		      struct pgw_image *img,
		      const struct pgw_image_open_opts *o)
{
	char base[PATH_MAX];
	ssize_t len;
	int fd;

	memset(c, 0, sizeof(*c));
	if (!identity(path, img, o, c->identity, sizeof(c->identity)) ||
	    !cache_dir(c->dir, sizeof(c->dir), base, sizeof(base)))
		return;
	int k = snprintf(c->file, sizeof(c->file), "%s/%016llx", c->dir,
			 (unsigned long long)pgw_fnv64(
				 (const uint8_t *)c->identity,
				 strlen(c->identity)));
	if (k < 0 || (size_t)k >= sizeof(c->file))
		return;
	c->on = true;
	fd = open(c->file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return;
	len = read(fd, c->loaded, sizeof(c->loaded) - 1);
	close(fd);
	if (len < 0)
		len = 0;
	c->loaded[len] = '\0';
	if ((size_t)len == strlen(c->loaded) &&
	    facts_cache_parse(c->loaded, c->identity, &c->hint, &c->kernel,
			      c->note, sizeof(c->note))) {
		c->have_hint = true;
		return;
	}
	if ((size_t)len != strlen(c->loaded))
		snprintf(c->note, sizeof(c->note), "not a cache entry (a NUL "
			 "byte)");
	memset(&c->hint, 0, sizeof(c->hint));
	memset(&c->kernel, 0, sizeof(c->kernel));
	c->loaded[0] = '\0';
}

static void write_entry(struct facts_cache *c,
			const struct pgw_kernel_facts *kf);

void facts_cache_save(struct facts_cache *c, const struct pgw_facts_why *f,
		      const struct pgw_kernel_facts *kf)
{
	if (!c->on)
		return;
	/* A fact this command had no scan for stays as the entry had it
	 * (checked again whenever it is used); one it scanned for is what
	 * the scan found. */
	struct pgw_facts_hint keep = f->found;
	bool searched = f->source == PGW_FACTS_MEMORY ||
			f->source == PGW_FACTS_NONE;
	if (!keep.nvmci && !searched && c->have_hint) {
		keep.nvmci = c->hint.nvmci;
		memcpy(keep.vmci_pa, c->hint.vmci_pa, sizeof(keep.vmci_pa));
		memcpy(keep.vmci_valid, c->hint.vmci_valid,
		       sizeof(keep.vmci_valid));
	}
	if (!keep.have_kroot && !f->kernel_root_scanned && c->have_hint &&
	    c->hint.have_kroot) {
		keep.have_kroot = true;
		keep.kroot_asked = c->hint.kroot_asked;
		keep.kroot_enc = c->hint.kroot_enc;
		keep.kroot = c->hint.kroot;
		keep.kroot_mode = c->hint.kroot_mode;
	}
	c->keep = keep;
	c->kept = true;
	write_entry(c, kf);
}

void facts_cache_save_kernel(struct facts_cache *c,
			     const struct pgw_kernel_facts *kf)
{
	if (c->on && c->kept)
		write_entry(c, kf);
}

/* c->keep and kf (else the entry's kernel facts), unless the entry
 * already says that. */
static void write_entry(struct facts_cache *c,
			const struct pgw_kernel_facts *kf)
{
	static char text[FACTS_ENTRY_MAX];
	char base[PATH_MAX], tmp[PATH_MAX + 32];
	size_t len;
	int fd;

	if (!kf && c->kernel.have)
		kf = &c->kernel.k;
	facts_cache_format(&c->keep, kf, c->identity, text, sizeof(text));
	len = strlen(text);
	if (len == 0 || strcmp(text, c->loaded) == 0)
		return;
	if (!cache_dir(c->dir, sizeof(c->dir), base, sizeof(base)))
		return;
	/* Ours alone: the folders, made 0700, and the entry, 0600. */
	if (mkdir(base, 0700) && errno != EEXIST)
		return;
	if (mkdir(c->dir, 0700) && errno != EEXIST)
		return;
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", c->file, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return;
	bool ok = write(fd, text, len) == (ssize_t)len;
	ok = close(fd) == 0 && ok;
	/* The rename makes it whole or not at all for a reader. */
	if (!ok || rename(tmp, c->file))
		unlink(tmp);
	else
		memcpy(c->loaded, text, len + 1);
}
