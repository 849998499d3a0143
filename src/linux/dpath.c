/*
 * d_path (fs/d_path.c) over the image: the name /proc/PID/maps prints for
 * a mapped file.  A dentry whose operations name it (d_dname) and that is
 * not a mount's root gets that pseudo name: the ones the reader knows are
 * simple_dname ("/NAME (deleted)": memfd, SysV and MAP_SHARED anonymous
 * memory, hugetlb files), anon_inodefs ("anon_inode:NAME"), sockets and
 * pipes ("socket:[INO]", "pipe:[INO]").  Any other file is named by its
 * dentries, walked up to its mount's root and on through the mount it
 * hangs on, each adding "/NAME", until a mount that is its own parent
 * (the global root: paths read as a reader in the initial namespace,
 * unchrooted, sees them); " (deleted)" when the dentry is unhashed.
 *
 * Bounded: the kernel builds the name in a page and gives up when it
 * does not fit (then maps prints none): so does this, which also bounds
 * a loop of dentries or mounts, as each step adds a byte or climbs a
 * mount (mount climbs counted apart).
 */
#include "../lib/err.h"
#include "vma.h"

#include <stdio.h>
#include <string.h>

/* The page the kernel writes the name into, less its NUL. */
#define ROOM (PGW_VMA_NAME_MAX - 1)
#define MOUNT_CLIMBS_MAX 1024

/* The name built from the end of the page, as the kernel does. */
struct back {
	char b[ROOM];
	size_t at;            /* the name is b[at, ROOM) */
	bool over;            /* did not fit */
};

static void prepend(struct back *k, const void *s, size_t n)
{
	if (k->over || n > k->at) {
		k->over = true;
		return;
	}
	k->at -= n;
	memcpy(k->b + k->at, s, n);
}

static enum pgw_status too_long(struct pgw_err *err)
{
	return pgw_err_set(err, PGW_E_LIMIT,
			   "the path is longer than the %d bytes the kernel "
			   "names a file in (it would print no name)", ROOM);
}

/* The dentry's name: *len bytes at name_ret (up to ROOM). */
static enum pgw_status dentry_name(const struct vma_reader *r,
				   const uint8_t *d, uint64_t dentry,
				   char *name_ret, size_t *len,
				   struct pgw_err *err)
{
	const struct vma_layout *l = &r->lay;
	uint64_t n = vma_le(d + l->d_name_len, 4);
	uint64_t at = vma_le(d + l->d_name_name, l->ptr);
	enum pgw_status st;

	if (n > ROOM)
		return too_long(err);
	if ((st = pgw_read_virt(r->kernel, at, name_ret, (size_t)n, NULL,
				err)) != PGW_OK)
		return pgw_err_prefix(err, "dentry 0x%llx: its name",
				      (unsigned long long)dentry);
	if (memchr(name_ret, 0, (size_t)n))
		return pgw_err_set(err, PGW_E_FORMAT,
				   "dentry 0x%llx: its %llu-byte name holds a "
				   "NUL", (unsigned long long)dentry,
				   (unsigned long long)n);
	*len = (size_t)n;
	return PGW_OK;
}

static enum pgw_status read_dentry(const struct vma_reader *r,
				   uint64_t dentry, uint8_t *d,
				   struct pgw_err *err)
{
	if (pgw_read_virt(r->kernel, dentry, d, r->lay.dentry_size, NULL,
			  err) != PGW_OK)
		return pgw_err_prefix(err, "dentry 0x%llx",
				      (unsigned long long)dentry);
	return PGW_OK;
}

/* The pseudo name of a d_dname the reader knows. */
static enum pgw_status pseudo(const struct vma_reader *r, uint64_t fn,
			      const uint8_t *d, uint64_t dentry,
			      uint64_t ino, struct name_buf *out,
			      struct pgw_err *err)
{
	char name[ROOM];
	size_t n;
	enum pgw_status st;
	int len;

	if (fn == r->fn[FN_SOCKFS_DNAME] || fn == r->fn[FN_PIPEFS_DNAME]) {
		len = snprintf(out->b, sizeof(out->b), "%s:[%llu]",
			       fn == r->fn[FN_SOCKFS_DNAME] ? "socket" :
							      "pipe",
			       (unsigned long long)ino);
		out->len = (size_t)len;
		return PGW_OK;
	}
	if (fn != r->fn[FN_SIMPLE_DNAME] && fn != r->fn[FN_ANON_INODEFS_DNAME])
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "dentry 0x%llx is named by its d_dname "
				   "0x%llx, which pgwalk does not know",
				   (unsigned long long)dentry,
				   (unsigned long long)fn);
	if ((st = dentry_name(r, d, dentry, name, &n, err)) != PGW_OK)
		return st;
	if (fn == r->fn[FN_ANON_INODEFS_DNAME]) {
		/* dynamic_dname formats into 64 bytes, NUL included. */
		if (n + sizeof("anon_inode:") > 64)
			return too_long(err);
		memcpy(out->b, "anon_inode:", 11);
		memcpy(out->b + 11, name, n);
		out->len = 11 + n;
		return PGW_OK;
	}
	if (n + 12 > ROOM)
		return too_long(err);
	out->b[0] = '/';
	memcpy(out->b + 1, name, n);
	memcpy(out->b + 1 + n, " (deleted)", 10);
	out->len = n + 11;
	return PGW_OK;
}

enum pgw_status dpath_file(const struct vma_reader *r, uint64_t vfsmnt,
			   uint64_t dentry, uint64_t ino,
			   struct name_buf *out, struct pgw_err *err)
{
	const struct vma_layout *l = &r->lay;
	uint8_t d[4096];
	uint64_t mount = vfsmnt - l->mount_mnt, mnt_root, word;
	enum pgw_status st;
	unsigned climbs = 0;

	out->len = 0;
	if ((st = read_dentry(r, dentry, d, err)) != PGW_OK ||
	    (st = vma_read_word(r, vfsmnt + l->mnt_root, l->ptr, &mnt_root,
				err)) != PGW_OK)
		return st;
	uint64_t parent = vma_le(d + l->d_parent, l->ptr);
	uint64_t d_op = vma_le(d + l->d_op, l->ptr), fn = 0;
	if (d_op && (st = vma_read_word(r, d_op + l->d_dname, l->ptr, &fn,
					err)) != PGW_OK)
		return pgw_err_prefix(err, "dentry 0x%llx: d_op",
				      (unsigned long long)dentry);
	if (fn && (parent != dentry || dentry != mnt_root))
		return pseudo(r, fn, d, dentry, ino, out, err);

	static _Thread_local struct back k;
	k.at = ROOM;
	k.over = false;
	if (parent != dentry && vma_le(d + l->d_hash_pprev, l->ptr) == 0)
		prepend(&k, " (deleted)", 10);
	size_t base = k.at;
	for (;;) {
		if (dentry == mnt_root) {
			if ((st = vma_read_word(r, mount + l->mnt_parent,
						l->ptr, &word, err)) != PGW_OK)
				return st;
			if (word == mount)
				break;          /* the global root */
			if (++climbs > MOUNT_CLIMBS_MAX)
				return pgw_err_set(err, PGW_E_LIMIT,
						   "more than %d mounts above "
						   "dentry 0x%llx (a loop?)",
						   MOUNT_CLIMBS_MAX,
						   (unsigned long long)dentry);
			if ((st = vma_read_word(r, mount + l->mnt_mountpoint,
						l->ptr, &dentry, err)) !=
				    PGW_OK ||
			    (st = vma_read_word(r, word + l->mount_mnt +
							   l->mnt_root,
						l->ptr, &mnt_root, err)) !=
				    PGW_OK)
				return st;
			mount = word;
			continue;
		}
		if ((st = read_dentry(r, dentry, d, err)) != PGW_OK)
			return st;
		parent = vma_le(d + l->d_parent, l->ptr);
		if (parent == dentry) {
			/* A root that is no mount's: the kernel drops what
			 * it built ("escaped") and says "/". */
			k.at = base;
			break;
		}
		char name[ROOM];
		size_t n;
		if ((st = dentry_name(r, d, dentry, name, &n, err)) != PGW_OK)
			return st;
		prepend(&k, name, n);
		prepend(&k, "/", 1);
		if (k.over)
			return too_long(err);
		dentry = parent;
	}
	if (k.at == base)
		prepend(&k, "/", 1);
	if (k.over)
		return too_long(err);
	out->len = ROOM - k.at;
	memcpy(out->b, k.b + k.at, out->len);
	return PGW_OK;
}
