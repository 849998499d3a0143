/*
 * Where the VMA reader finds what it reads, from BTF: a table of the
 * members, each with the shape and size the reader assumes, so a kernel
 * whose types differ is refused instead of misread.  A member inside a
 * member (file.f_path.dentry) is the sum of two offsets.
 */
#include "../lib/err.h"
#include "vma.h"

#include <stddef.h>
#include <string.h>

#define PTR_SIZE 0      /* the kernel's pointer size */
#define WORD_SIZE 1     /* 4 or 8 bytes, kept in size_at */

static const struct field {
	const char *type, *member;       /* the outer member */
	const char *sub_type, *sub;      /* NULL, or a member of it */
	enum pgw_btf_shape shape;
	unsigned size;                   /* PTR_SIZE, WORD_SIZE or bytes
					    (INT; 0 for others) */
	bool optional;
	size_t at, size_at;              /* in struct vma_layout; size_at
					    0: not kept */
} fields[] = {
#define AT(m) offsetof(struct vma_layout, m)
	{ "mm_struct", "mm_mt", "maple_tree", "ma_root", PGW_BTF_PTR, PTR_SIZE,
	  true, AT(mm_mt_root), 0 },
	{ "mm_struct", "mmap", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, true,
	  AT(mm_mmap), 0 },
	{ "mm_struct", "start_brk", NULL, NULL, PGW_BTF_INT, PTR_SIZE, false,
	  AT(mm_start_brk), 0 },
	{ "mm_struct", "brk", NULL, NULL, PGW_BTF_INT, PTR_SIZE, false,
	  AT(mm_brk), 0 },
	{ "mm_struct", "start_stack", NULL, NULL, PGW_BTF_INT, PTR_SIZE, false,
	  AT(mm_start_stack), 0 },
	{ "mm_struct", "map_count", NULL, NULL, PGW_BTF_INT, 4, false,
	  AT(mm_map_count), 0 },
	{ "mm_struct", "exe_file", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, true,
	  AT(mm_exe_file), 0 },
	{ "vm_area_struct", "vm_start", NULL, NULL, PGW_BTF_INT, PTR_SIZE,
	  false, AT(vm_start), 0 },
	{ "vm_area_struct", "vm_end", NULL, NULL, PGW_BTF_INT, PTR_SIZE, false,
	  AT(vm_end), 0 },
	{ "vm_area_struct", "vm_flags", NULL, NULL, PGW_BTF_INT, WORD_SIZE,
	  false, AT(vm_flags), AT(vm_flags_size) },
	{ "vm_area_struct", "vm_pgoff", NULL, NULL, PGW_BTF_INT, PTR_SIZE,
	  false, AT(vm_pgoff), 0 },
	{ "vm_area_struct", "vm_file", NULL, NULL, PGW_BTF_PTR, PTR_SIZE,
	  false, AT(vm_file), 0 },
	{ "vm_area_struct", "vm_ops", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(vm_ops), 0 },
	{ "vm_area_struct", "vm_private_data", NULL, NULL, PGW_BTF_PTR,
	  PTR_SIZE, false, AT(vm_private_data), 0 },
	{ "vm_area_struct", "vm_mm", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(vm_mm), 0 },
	{ "vm_area_struct", "vm_next", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, true,
	  AT(vm_next), 0 },
	{ "vm_area_struct", "anon_name", NULL, NULL, PGW_BTF_PTR, PTR_SIZE,
	  true, AT(anon_name), 0 },
	{ "anon_vma_name", "name", NULL, NULL, PGW_BTF_ARRAY, 0, true,
	  AT(anon_name_name), 0 },
	{ "vm_area_struct", "shared", NULL, NULL, PGW_BTF_COMPOSITE, 0, true,
	  AT(vm_shared), 0 },
	{ "vm_operations_struct", "name", NULL, NULL, PGW_BTF_PTR, PTR_SIZE,
	  false, AT(ops_name), 0 },
	{ "vm_special_mapping", "name", NULL, NULL, PGW_BTF_PTR, PTR_SIZE,
	  false, AT(special_name), 0 },
	{ "file", "f_path", "path", "mnt", PGW_BTF_PTR, PTR_SIZE, false,
	  AT(f_path_mnt), 0 },
	{ "file", "f_path", "path", "dentry", PGW_BTF_PTR, PTR_SIZE, false,
	  AT(f_path_dentry), 0 },
	{ "file", "f_inode", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(f_inode), 0 },
	{ "inode", "i_ino", NULL, NULL, PGW_BTF_INT, WORD_SIZE, false,
	  AT(i_ino), AT(i_ino_size) },
	{ "inode", "i_sb", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(i_sb), 0 },
	{ "super_block", "s_dev", NULL, NULL, PGW_BTF_INT, 4, false,
	  AT(s_dev), 0 },
	{ "super_block", "s_fs_info", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, true,
	  AT(s_fs_info), 0 },
	{ "hugetlbfs_sb_info", "hstate", NULL, NULL, PGW_BTF_PTR, PTR_SIZE,
	  true, AT(sbi_hstate), 0 },
	{ "hstate", "order", NULL, NULL, PGW_BTF_INT, 4, true,
	  AT(hstate_order), 0 },
	{ "dentry", "d_parent", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(d_parent), 0 },
	{ "dentry", "d_name", "qstr", "len", PGW_BTF_INT, 4, false,
	  AT(d_name_len), 0 },
	{ "dentry", "d_name", "qstr", "name", PGW_BTF_PTR, PTR_SIZE, false,
	  AT(d_name_name), 0 },
	{ "dentry", "d_op", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(d_op), 0 },
	{ "dentry", "d_hash", "hlist_bl_node", "pprev", PGW_BTF_PTR,
	  PTR_SIZE, false, AT(d_hash_pprev), 0 },
	{ "dentry_operations", "d_dname", NULL, NULL, PGW_BTF_PTR, PTR_SIZE,
	  false, AT(d_dname), 0 },
	{ "mount", "mnt_parent", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(mnt_parent), 0 },
	{ "mount", "mnt_mountpoint", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(mnt_mountpoint), 0 },
	{ "mount", "mnt", NULL, NULL, PGW_BTF_COMPOSITE, 0, false,
	  AT(mount_mnt), 0 },
	{ "vfsmount", "mnt_root", NULL, NULL, PGW_BTF_PTR, PTR_SIZE, false,
	  AT(mnt_root), 0 },
	/* arrays: size_at keeps the number of elements */
	{ "maple_node", "slot", NULL, NULL, PGW_BTF_ARRAY, 0, true,
	  AT(dense_slot), AT(dense_slots) },
	{ "maple_range_64", "pivot", NULL, NULL, PGW_BTF_ARRAY, 0, true,
	  AT(r64_pivot), AT(r64_pivots) },
	{ "maple_range_64", "slot", NULL, NULL, PGW_BTF_ARRAY, 0, true,
	  AT(r64_slot), AT(r64_slots) },
	{ "maple_arange_64", "pivot", NULL, NULL, PGW_BTF_ARRAY, 0, true,
	  AT(a64_pivot), AT(a64_pivots) },
	{ "maple_arange_64", "slot", NULL, NULL, PGW_BTF_ARRAY, 0, true,
	  AT(a64_slot), AT(a64_slots) },
#undef AT
};

static const char *const shape_names[] = {
	[PGW_BTF_INT] = "an integer", [PGW_BTF_PTR] = "a pointer",
	[PGW_BTF_ARRAY] = "an array", [PGW_BTF_COMPOSITE] = "a struct",
	[PGW_BTF_OTHER] = "something else",
};

/* One member, checked against the struct's size: its offset. */
static enum pgw_status member(const struct pgw_kernel_btf *kb,
			      const char *type, const char *name,
			      enum pgw_btf_shape shape, unsigned size,
			      unsigned ptr, struct pgw_btf_member *m,
			      struct pgw_err *err)
{
	uint64_t whole;
	enum pgw_status st;

	if ((st = pgw_kernel_btf_struct_size(kb, type, &whole, err)) !=
		    PGW_OK ||
	    (st = pgw_kernel_btf_member(kb, type, name, m, err)) != PGW_OK)
		return st;
	bool fits = m->shape == shape;
	if (fits && shape == PGW_BTF_PTR)
		m->size = ptr;
	else if (fits && shape == PGW_BTF_INT)
		fits = size == PTR_SIZE ? m->size == ptr :
		       size == WORD_SIZE ? m->size == 4 || m->size == 8 :
					   m->size == size;
	if (!fits)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "BTF: %s.%s is %s of %llu bytes; the VMA "
				   "reader reads it as %s", type, name,
				   shape_names[m->shape],
				   (unsigned long long)m->size,
				   shape_names[shape]);
	if (m->offset > whole || m->size > whole - m->offset)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: %s.%s at byte %llu lies outside the "
				   "%llu-byte struct", type, name,
				   (unsigned long long)m->offset,
				   (unsigned long long)whole);
	return PGW_OK;
}

static enum pgw_status one_field(const struct pgw_kernel_btf *kb,
				 const struct field *f, unsigned ptr,
				 uint32_t *at, uint32_t *size_at,
				 struct pgw_err *err)
{
	struct pgw_btf_member outer, inner;
	enum pgw_status st;

	if (!f->sub)
		st = member(kb, f->type, f->member, f->shape, f->size, ptr,
			    &outer, err);
	else if ((st = member(kb, f->type, f->member, PGW_BTF_COMPOSITE, 0,
			      ptr, &outer, err)) == PGW_OK &&
		 (st = member(kb, f->sub_type, f->sub, f->shape, f->size, ptr,
			      &inner, err)) == PGW_OK) {
		outer.offset += inner.offset;
		outer.size = inner.size;
	}
	if (st != PGW_OK)
		return st;
	if (outer.offset > UINT32_MAX - 64)
		return pgw_err_set(err, PGW_E_FORMAT, "BTF: %s.%s at %llu",
				   f->type, f->member,
				   (unsigned long long)outer.offset);
	*at = (uint32_t)outer.offset;
	if (size_at)
		*size_at = (uint32_t)(f->shape == PGW_BTF_ARRAY ? outer.elems :
							 outer.size);
	return PGW_OK;
}

/* The size of a struct the reader reads whole, bounded. */
static enum pgw_status whole(const struct pgw_kernel_btf *kb,
			     const char *type, uint32_t *size,
			     struct pgw_err *err)
{
	uint64_t n;
	enum pgw_status st = pgw_kernel_btf_struct_size(kb, type, &n, err);

	if (st != PGW_OK)
		return st;
	if (n == 0 || n > 4096)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "BTF: struct %s is %llu bytes", type,
				   (unsigned long long)n);
	*size = (uint32_t)n;
	return PGW_OK;
}

/* The maple node's arrays: each fits in the node, with one more slot
 * than pivots (a node's last slot ends at the node's own maximum). */
static enum pgw_status maple_checked(const struct pgw_kernel_btf *kb,
				     struct vma_layout *lay,
				     struct pgw_err *err)
{
	const struct {
		const char *type;
		uint32_t pivot, pivots, slot, slots;
	} n[] = {
		{ "maple_range_64", lay->r64_pivot, lay->r64_pivots,
		  lay->r64_slot, lay->r64_slots },
		{ "maple_arange_64", lay->a64_pivot, lay->a64_pivots,
		  lay->a64_slot, lay->a64_slots },
		{ "maple_node", 0, 0, lay->dense_slot, lay->dense_slots },
	};
	enum pgw_status st = whole(kb, "maple_node", &lay->node_size, err);

	if (st != PGW_OK)
		return st;
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		uint64_t p = lay->ptr;
		if (n[i].slot == VMA_ABSENT || n[i].pivot == VMA_ABSENT ||
		    n[i].slots == 0 || n[i].slots > 64 ||
		    (i < 2 && n[i].pivots + 1 != n[i].slots) ||
		    n[i].pivot + p * n[i].pivots > lay->node_size ||
		    n[i].slot + p * n[i].slots > lay->node_size)
			return pgw_err_set(err, PGW_E_UNSUPPORTED,
					   "BTF: struct %s: pivots and slots "
					   "the maple-tree reader cannot read",
					   n[i].type);
	}
	if (lay->node_size & (lay->node_size - 1))
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "BTF: struct maple_node is %u bytes, no "
				   "power of two", lay->node_size);
	return PGW_OK;
}

enum pgw_status vma_layout_btf(const struct pgw_kernel_btf *kb,
			       unsigned ptr, struct vma_layout *lay,
			       struct pgw_err *err)
{
	enum pgw_status st;

	*lay = (struct vma_layout){ .ptr = ptr };
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field *f = &fields[i];
		uint32_t *at = (uint32_t *)((char *)lay + f->at);
		uint32_t *size_at = f->size_at ?
			(uint32_t *)((char *)lay + f->size_at) : NULL;
		struct pgw_err why;

		st = one_field(kb, f, ptr, at, size_at, &why);
		if (st == PGW_E_NOTFOUND && f->optional) {
			*at = VMA_ABSENT;
			continue;
		}
		if (st != PGW_OK) {
			*err = why;
			return st;
		}
	}
	if (lay->mm_mt_root == VMA_ABSENT &&
	    (lay->mm_mmap == VMA_ABSENT || lay->vm_next == VMA_ABSENT))
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "BTF: mm_struct has neither a maple tree "
				   "(mm_mt) nor a VMA list (mmap, "
				   "vm_area_struct.vm_next)");
	if (lay->anon_name_name == VMA_ABSENT)
		lay->anon_name = VMA_ABSENT;
	if ((st = whole(kb, "vm_area_struct", &lay->vma_size, err)) != PGW_OK)
		return st;
	if ((st = whole(kb, "dentry", &lay->dentry_size, err)) != PGW_OK ||
	    lay->mm_mt_root == VMA_ABSENT)
		return st;
	return maple_checked(kb, lay, err);
}

/* The words a layout gives as sizes and counts; every other is an offset
 * (or VMA_ABSENT). */
#define AT(f) offsetof(struct vma_layout, f) / sizeof(uint32_t)
static const size_t not_offsets[] = {
	AT(ptr), AT(vm_flags_size), AT(i_ino_size), AT(vma_size),
	AT(dentry_size), AT(node_size), AT(dense_slots), AT(r64_pivots),
	AT(r64_slots), AT(a64_pivots), AT(a64_slots),
};

bool vma_layout_safe(const struct vma_layout *l)
{
	uint32_t w[sizeof(*l) / sizeof(uint32_t)];
	bool offset[sizeof(w) / sizeof(w[0])];
	const uint32_t p = l->ptr;

	memcpy(w, l, sizeof(w));
	memset(offset, 1, sizeof(offset));
	for (size_t i = 0; i < sizeof(not_offsets) / sizeof(not_offsets[0]);
	     i++)
		offset[not_offsets[i]] = false;
	/* Fields are read from 4096-byte buffers, 8 bytes at most. */
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (offset[i] && w[i] != VMA_ABSENT && w[i] > 4096 - 8)
			return false;
	return (p == 4 || p == 8) &&
	       (l->vm_flags_size == 4 || l->vm_flags_size == 8) &&
	       (l->i_ino_size == 4 || l->i_ino_size == 8) &&
	       l->vma_size && l->vma_size <= 4096 && l->dentry_size &&
	       l->dentry_size <= 4096 && l->node_size &&
	       l->node_size <= 4096 &&
	       !(l->node_size & (l->node_size - 1)) &&
	       (uint64_t)l->dense_slot + (uint64_t)p * l->dense_slots <=
		       l->node_size &&
	       (uint64_t)l->r64_pivot + (uint64_t)p * l->r64_pivots <=
		       l->node_size &&
	       (uint64_t)l->r64_slot + (uint64_t)p * l->r64_slots <=
		       l->node_size &&
	       (uint64_t)l->a64_pivot + (uint64_t)p * l->a64_pivots <=
		       l->node_size &&
	       (uint64_t)l->a64_slot + (uint64_t)p * l->a64_slots <=
		       l->node_size;
}
