/*
 * The VMA reader's internals, shared by vma*.c, maple.c and dpath.c: where
 * each field it reads lies (from BTF), and the kernel symbols it compares
 * function pointers with.
 */
#ifndef PGW_VMA_H
#define PGW_VMA_H

#include "pgwalk.h"

/* A member the kernel does not have (optional ones only). */
#define VMA_ABSENT UINT32_MAX

struct vma_layout {
	unsigned ptr;                /* pointer size: 4 or 8 */
	/* mm_struct; the maple tree's root, else (before 6.1) the list */
	uint32_t mm_mt_root;         /* mm_mt.ma_root, or VMA_ABSENT */
	uint32_t mm_mmap;            /* mmap, or VMA_ABSENT */
	uint32_t mm_start_brk, mm_brk, mm_start_stack, mm_map_count;
	uint32_t mm_exe_file;        /* or VMA_ABSENT */
	/* vm_area_struct */
	uint32_t vma_size;
	uint32_t vm_start, vm_end, vm_flags, vm_flags_size, vm_pgoff;
	uint32_t vm_file, vm_ops, vm_private_data, vm_mm;
	uint32_t vm_next;            /* before 6.1, or VMA_ABSENT */
	uint32_t anon_name;          /* CONFIG_ANON_VMA_NAME, or VMA_ABSENT */
	uint32_t vm_shared;          /* vm_area_struct.shared, or VMA_ABSENT:
					6.1 keeps anon_name in a union with
					it (valid without a file only); 6.2+
					apart, naming shared memory too */
	uint32_t anon_name_name;     /* anon_vma_name.name */
	uint32_t ops_name;           /* vm_operations_struct.name */
	uint32_t special_name;       /* vm_special_mapping.name */
	/* file, inode, super_block */
	uint32_t f_path_mnt, f_path_dentry, f_inode;
	uint32_t i_ino, i_ino_size, i_sb, s_dev;
	/* hugetlbfs: super_block.s_fs_info -> hugetlbfs_sb_info.hstate ->
	 * hstate.order (VMA_ABSENT: not in BTF) */
	uint32_t s_fs_info, sbi_hstate, hstate_order;
	/* dentry, qstr, dentry_operations */
	uint32_t dentry_size;
	uint32_t d_parent, d_name_len, d_name_name, d_op, d_hash_pprev;
	uint32_t d_dname;
	/* mount (struct vfsmount is its member mnt) */
	uint32_t mount_mnt, mnt_parent, mnt_mountpoint, mnt_root;
	/* maple tree nodes (6.1+): where pivots and slots lie in each
	 * type, and how many (64-bit: 15 and 16, 9 and 10, dense 31) */
	uint32_t node_size;
	uint32_t dense_slot, dense_slots;
	uint32_t r64_pivot, r64_pivots, r64_slot, r64_slots;
	uint32_t a64_pivot, a64_pivots, a64_slot, a64_slots;
};

enum pgw_status vma_layout_btf(const struct pgw_kernel_btf *kb,
			       unsigned ptr, struct vma_layout *lay,
			       struct pgw_err *err);

/* A layout from elsewhere (a cache) that every read through it stays
 * inside the reader's buffers: sizes and offsets as vma_layout_btf's
 * checks bound them. */
bool vma_layout_safe(const struct vma_layout *lay);

/* The d_dname functions and vm_ops->name this reader knows, by address
 * (0: not in kallsyms). */
enum vma_fn {
	FN_SPECIAL_MAPPING_NAME,     /* [vdso], [vvar] ... */
	FN_SIMPLE_DNAME,             /* "/name (deleted)" */
	FN_ANON_INODEFS_DNAME,       /* "anon_inode:name" */
	FN_SOCKFS_DNAME,             /* "socket:[ino]" */
	FN_PIPEFS_DNAME,             /* "pipe:[ino]" */
	NFNS
};

struct vma_reader {
	const struct pgw_space *kernel;
	struct vma_layout lay;
	uint64_t fn[NFNS];
};

/* Little-endian integer of n bytes. */
static inline uint64_t vma_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* A pointer or integer of n bytes at kernel va. */
enum pgw_status vma_read_word(const struct vma_reader *r, uint64_t va,
			      unsigned n, uint64_t *v, struct pgw_err *err);

/*
 * Each VMA pointer of the maple tree whose root entry is root, in index
 * order, with the range [first, last] the tree files it under: fn returns
 * non-zero to stop (PGW_E_STOPPED).  Bounded: the tree's height, and
 * every node at most once (a node met again is a loop: PGW_E_FORMAT).
 */
typedef int (*maple_fn)(void *arg, uint64_t entry, uint64_t first,
			uint64_t last);
enum pgw_status maple_walk(const struct vma_reader *r, uint64_t root,
			   maple_fn fn, void *arg, struct pgw_err *err);

/*
 * The name d_path gives a file's f_path (mnt: its struct vfsmount,
 * dentry; ino: its inode's number, which some pseudo names hold), into
 * out.  PGW_E_UNSUPPORTED when a d_dname the reader does not know names
 * it, PGW_E_LIMIT for a name longer than the kernel's buffer or a chain
 * that does not end, PGW_E_FORMAT for a name the kernel could not have
 * made, and read errors: the caller marks the name unknown.
 */
struct name_buf {
	char b[PGW_VMA_NAME_MAX];
	size_t len;
};
enum pgw_status dpath_file(const struct vma_reader *r, uint64_t mnt,
			   uint64_t dentry, uint64_t ino,
			   struct name_buf *out, struct pgw_err *err);

#endif
