/*
 * The VMA reader's structs for the synthetic kernel's BTF (btfwriter.h,
 * with bw_offsets.vmas): mm_struct's maple tree (6.1+) or, with
 * BW_VMAS_LIST, vm_area_struct.vm_next instead, and the structs a file's
 * path is read through.  The offsets are 6.1-like but the tests' own:
 * pgw-mkvmas writes memory with the same constants.
 */
#ifndef PGW_VMABTF_H
#define PGW_VMABTF_H

#include <bpf/btf.h>

enum { BW_VMAS_NONE, BW_VMAS_MAPLE, BW_VMAS_LIST };

/* mm_struct, after btfwriter's anonymous struct (mmap, pgd: 80 bytes) */
enum { MM_MT = 80, MM_START_BRK = 96, MM_BRK = 104, MM_START_STACK = 112,
       MM_MAP_COUNT = 120, MM_EXE_FILE = 128, MM_SIZE = 256 };
enum { MT_ROOT = 8, MT_SIZE = 16 };
enum { NODE_SIZE = 256, DENSE_SLOT = 8, DENSE_SLOTS = 31,
       R64_PIVOT = 8, R64_PIVOTS = 15, R64_SLOT = 128,
       A64_PIVOT = 8, A64_PIVOTS = 9, A64_SLOT = 80, A64_GAP = 160 };
enum { VMA_START = 0, VMA_END = 8, VMA_MM = 16, VMA_FLAGS = 32,
       VMA_ANON_NAME = 64, VMA_OPS = 88, VMA_PGOFF = 96, VMA_FILE = 104,
       VMA_PRIVATE = 112, VMA_NEXT = 120, VMA_SIZE = 176 };
enum { OPS_NAME = 8, SPECIAL_NAME = 0, ANON_NAME_NAME = 4 };
enum { FILE_PATH = 16, FILE_INODE = 32, FILE_SIZE = 64 };
enum { INODE_SB = 40, INODE_INO = 64, SB_DEV = 16, SB_FS_INFO = 24,
       SBI_HSTATE = 8, HSTATE_ORDER = 4 };
enum { D_HASH = 8, D_PARENT = 24, D_NAME = 32, D_INODE = 48, D_OP = 96,
       DENTRY_SIZE = 192, DOPS_DNAME = 64 };
enum { MNT_PARENT = 16, MNT_MOUNTPOINT = 24, MNT_MNT = 32,
       VFSMNT_ROOT = 0, MOUNT_SIZE = 256 };

static inline int vb_struct(struct btf *b, const char *name, unsigned size)
{
	return btf__add_struct(b, name, size);
}

/* A member at byte off (no bitfield); ORed error codes. */
static inline int vb_field(struct btf *b, const char *name, int type,
			   unsigned off)
{
	int e = btf__add_field(b, name, type, off * 8, 0);
	return e < 0 ? e : 0;
}

/*
 * The types, into b (whose "unsigned int", "char", pointer and unsigned
 * long ids are given): negative on failure.
 */
static inline int vb_types(struct btf *b, int mode, int t_uint, int t_char,
			   int t_ptr, int t_ulong)
{
	int e = 0, t;
	int t_u64 = t_ulong;
	int t_piv15 = btf__add_array(b, t_uint, t_u64, R64_PIVOTS);
	int t_slot16 = btf__add_array(b, t_uint, t_ptr, R64_PIVOTS + 1);
	int t_piv9 = btf__add_array(b, t_uint, t_u64, A64_PIVOTS);
	int t_slot10 = btf__add_array(b, t_uint, t_ptr, A64_PIVOTS + 1);
	int t_slot31 = btf__add_array(b, t_uint, t_ptr, DENSE_SLOTS);
	int t_name0 = btf__add_array(b, t_uint, t_char, 0);

	if ((t_piv15 | t_slot16 | t_piv9 | t_slot10 | t_slot31 | t_name0) < 0)
		return -1;
	if (mode == BW_VMAS_MAPLE) {
		t = vb_struct(b, "maple_tree", MT_SIZE);
		e |= t | vb_field(b, "ma_lock", t_uint, 0) |
		     vb_field(b, "ma_root", t_ptr, MT_ROOT);
		int t_dense = vb_struct(b, NULL, NODE_SIZE);
		e |= t_dense | vb_field(b, "parent", t_ptr, 0) |
		     vb_field(b, "slot", t_slot31, DENSE_SLOT);
		t = vb_struct(b, "maple_node", NODE_SIZE);
		e |= t | vb_field(b, NULL, t_dense, 0);
		t = vb_struct(b, "maple_range_64", NODE_SIZE);
		e |= t | vb_field(b, "parent", t_ptr, 0) |
		     vb_field(b, "pivot", t_piv15, R64_PIVOT) |
		     vb_field(b, "slot", t_slot16, R64_SLOT);
		t = vb_struct(b, "maple_arange_64", 240);
		e |= t | vb_field(b, "parent", t_ptr, 0) |
		     vb_field(b, "pivot", t_piv9, A64_PIVOT) |
		     vb_field(b, "slot", t_slot10, A64_SLOT);
	}
	t = vb_struct(b, "vm_area_struct", VMA_SIZE);
	e |= t | vb_field(b, "vm_start", t_ulong, VMA_START) |
	     vb_field(b, "vm_end", t_ulong, VMA_END) |
	     vb_field(b, "vm_mm", t_ptr, VMA_MM) |
	     vb_field(b, "vm_flags", t_ulong, VMA_FLAGS) |
	     vb_field(b, "anon_name", t_ptr, VMA_ANON_NAME) |
	     vb_field(b, "vm_ops", t_ptr, VMA_OPS) |
	     vb_field(b, "vm_pgoff", t_ulong, VMA_PGOFF) |
	     vb_field(b, "vm_file", t_ptr, VMA_FILE) |
	     vb_field(b, "vm_private_data", t_ptr, VMA_PRIVATE);
	if (mode == BW_VMAS_LIST)
		e |= vb_field(b, "vm_next", t_ptr, VMA_NEXT);
	t = vb_struct(b, "anon_vma_name", 8);
	e |= t | vb_field(b, "kref", t_uint, 0) |
	     vb_field(b, "name", t_name0, ANON_NAME_NAME);
	t = vb_struct(b, "vm_operations_struct", 16);
	e |= t | vb_field(b, "open", t_ptr, 0) |
	     vb_field(b, "name", t_ptr, OPS_NAME);
	t = vb_struct(b, "vm_special_mapping", 16);
	e |= t | vb_field(b, "name", t_ptr, SPECIAL_NAME);
	int t_path = vb_struct(b, "path", 16);
	e |= t_path | vb_field(b, "mnt", t_ptr, 0) |
	     vb_field(b, "dentry", t_ptr, 8);
	t = vb_struct(b, "file", FILE_SIZE);
	e |= t | vb_field(b, "f_path", t_path, FILE_PATH) |
	     vb_field(b, "f_inode", t_ptr, FILE_INODE);
	t = vb_struct(b, "inode", 128);
	e |= t | vb_field(b, "i_sb", t_ptr, INODE_SB) |
	     vb_field(b, "i_ino", t_ulong, INODE_INO);
	t = vb_struct(b, "super_block", 64);
	e |= t | vb_field(b, "s_dev", t_uint, SB_DEV) |
	     vb_field(b, "s_fs_info", t_ptr, SB_FS_INFO);
	t = vb_struct(b, "hugetlbfs_sb_info", 16);
	e |= t | vb_field(b, "hstate", t_ptr, SBI_HSTATE);
	t = vb_struct(b, "hstate", 16);
	e |= t | vb_field(b, "order", t_uint, HSTATE_ORDER);
	int t_bl = vb_struct(b, "hlist_bl_node", 16);
	e |= t_bl | vb_field(b, "next", t_ptr, 0) |
	     vb_field(b, "pprev", t_ptr, 8);
	int t_hl = vb_struct(b, NULL, 8);
	e |= t_hl | vb_field(b, "hash", t_uint, 0) |
	     vb_field(b, "len", t_uint, 4);
	int t_hu = btf__add_union(b, NULL, 8);
	e |= t_hu | vb_field(b, NULL, t_hl, 0) |
	     vb_field(b, "hash_len", t_u64, 0);
	int t_qstr = vb_struct(b, "qstr", 16);
	e |= t_qstr | vb_field(b, NULL, t_hu, 0) |
	     vb_field(b, "name", t_ptr, 8);
	t = vb_struct(b, "dentry", DENTRY_SIZE);
	e |= t | vb_field(b, "d_flags", t_uint, 0) |
	     vb_field(b, "d_hash", t_bl, D_HASH) |
	     vb_field(b, "d_parent", t_ptr, D_PARENT) |
	     vb_field(b, "d_name", t_qstr, D_NAME) |
	     vb_field(b, "d_inode", t_ptr, D_INODE) |
	     vb_field(b, "d_op", t_ptr, D_OP);
	t = vb_struct(b, "dentry_operations", 128);
	e |= t | vb_field(b, "d_dname", t_ptr, DOPS_DNAME);
	int t_vfs = vb_struct(b, "vfsmount", 24);
	e |= t_vfs | vb_field(b, "mnt_root", t_ptr, VFSMNT_ROOT) |
	     vb_field(b, "mnt_sb", t_ptr, 8);
	t = vb_struct(b, "mount", MOUNT_SIZE);
	e |= t | vb_field(b, "mnt_parent", t_ptr, MNT_PARENT) |
	     vb_field(b, "mnt_mountpoint", t_ptr, MNT_MOUNTPOINT) |
	     vb_field(b, "mnt", t_vfs, MNT_MNT);
	return e < 0 ? e : 0;
}

/* mm_struct's members beyond btfwriter's (the current struct is it). */
static inline int vb_mm_fields(struct btf *b, int mode, int t_int,
			       int t_ulong, int t_ptr)
{
	int e = 0;

	if (mode == BW_VMAS_MAPLE) {
		int id = btf__find_by_name_kind(b, "maple_tree",
						BTF_KIND_STRUCT);
		e |= id < 0 ? id : vb_field(b, "mm_mt", id, MM_MT);
	}
	e |= vb_field(b, "start_brk", t_ulong, MM_START_BRK) |
	     vb_field(b, "brk", t_ulong, MM_BRK) |
	     vb_field(b, "start_stack", t_ulong, MM_START_STACK) |
	     vb_field(b, "map_count", t_int, MM_MAP_COUNT) |
	     vb_field(b, "exe_file", t_ptr, MM_EXE_FILE);
	return e < 0 ? e : 0;
}

#endif
