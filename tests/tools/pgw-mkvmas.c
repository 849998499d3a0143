/*
 * pgw-mkvmas [OPTION...] OUT: ksynth.h's synthetic kernel with the VMA
 * reader's structs in its BTF, and a memory map for pid 1 (init), for
 * the tests of `pgwalk maps` (synth-maps.t):
 *
 *   00000010-00000011  rw-p  in a dense leaf (the maple tree's every node
 *                            type: an arange_64 root, a dense leaf, leaf_64
 *                            leaves, a range_64 inner node)
 *   00400000-00401000  r-xp  /bin/prog (00:02, inode 290)
 *   00401000-00402000  rw-p  /bin/prog, offset 0x1000
 *   00600000-00621000  rw-p  [heap]
 *   7f0000000000-...1000 rw-s /memfd:pgw (deleted) (simple_dname)
 *   7f0000002000-...3000 rw-p [anon:synthetic]
 *   7f0000004000-...5000 r--p /data/sub/dir/ESC[31mred\nfile (deleted):
 *                            a file on a mount at /data/sub, unlinked
 *   7f0000006000-...7000 r--p a path of two 2100-byte names: longer than
 *                            the kernel's page, so unknown
 *   7ffc00000000-...21000 rw-p [stack]
 *   7ffc00100000-...102000 r-xp [vdso] (special_mapping_name)
 *   7ffc00200000-...201000 r--p named by a vm_ops->name pgwalk does not
 *                            know: unknown
 *
 *   --raw          a raw image with VMCOREINFO's text in memory
 *   --list         before 6.1: mm->mmap and vm_next, no maple tree
 *   --tree-loop    the range_64 node's second slot points back at the
 *                  root
 *   --bad-pivot    a leaf's pivots go down
 *   --misfiled     [anon:synthetic]'s vm_start is not its slot's
 *   --list-loop    (--list) the last VMA's vm_next is the first
 *   --dentry-loop  the deleted file's directory is its own grandparent
 *   --mount-loop   the mount at /data/sub and another each mounted on
 *                  the other's root
 *
 * pid 1's page tables (its root 0x601000, the kernel half copied) map
 * what its VMAs allow: /bin/prog's pages (r-x, rw-), a heap page, the
 * stack's last page, [vdso]'s.  `pgwalk check --pid=1` finds nothing
 * there but what these add:
 *   --plant=outside   a user page at 0x500000, in no VMA (outside-vma)
 *   --plant=beyond    the r--p file VMA's page mapped writable, and the
 *                     heap's executable (beyond-vma, twice)
 *   --plant=anon-exec [anon:synthetic] is rwx (anon-exec, info)
 *   --plant=deleted   mm->exe_file is the deleted file (deleted-exe);
 *                     without it, exe_file is /bin/prog's
 *   --plant=hugetlb   [anon:synthetic] is instead a hugetlb file's
 *                     VMA, no page mapped: KernelPageSize from the
 *                     hstate (order 9: 2 MiB)
 *   --plant=shmem-name the memfd VMA has an anon_name: as 6.2+ (whose
 *                     BTF keeps anon_name apart from `shared`, as this
 *                     one's does) it prints [anon_shmem:synthetic]
 */
#include "ksynth.h"

#include <getopt.h>

/* The objects go in [0x100000, 0x200000), reached through the direct
 * map. */
static uint64_t next_pa = 0x100000;

static uint64_t obj(size_t size, size_t align)
{
	uint64_t pa = (next_pa + align - 1) & ~(uint64_t)(align - 1);

	next_pa = pa + size;
	if (next_pa > 0x200000) {
		fprintf(stderr, "pgw-mkvmas: out of room\n");
		exit(2);
	}
	return ks_dm(pa);
}

static struct ksynth k;

static void set(uint64_t va, uint64_t v, unsigned n) { ks_set(&k, va, v, n); }

static uint64_t string(const char *s, size_t n)
{
	uint64_t va = obj(n + 1, 8);

	ks_put(&k, va, s, n);
	return va;
}

static uint64_t sb(uint32_t dev)
{
	uint64_t va = obj(64, 64);

	set(va + SB_DEV, dev, 4);
	return va;
}

static uint64_t inode(uint64_t s, uint64_t ino)
{
	uint64_t va = obj(128, 64);

	set(va + INODE_SB, s, 8);
	set(va + INODE_INO, ino, 8);
	return va;
}

/* parent 0: the dentry is its own (a root). */
static uint64_t dentry(const char *name, size_t n, uint64_t parent,
		       uint64_t d_op, bool hashed)
{
	uint64_t va = obj(DENTRY_SIZE, 64);

	set(va + D_PARENT, parent ? parent : va, 8);
	set(va + D_NAME + 4, n, 4);
	set(va + D_NAME + 8, string(name, n), 8);
	set(va + D_HASH + 8, hashed ? va + D_HASH : 0, 8);
	set(va + D_OP, d_op, 8);
	return va;
}

/* A mount of root; parent 0: its own (the global root, or an internal
 * mount). */
static uint64_t mount(uint64_t root, uint64_t parent, uint64_t mountpoint)
{
	uint64_t va = obj(MOUNT_SIZE, 64);

	set(va + MNT_PARENT, parent ? parent : va, 8);
	set(va + MNT_MOUNTPOINT, mountpoint ? mountpoint : root, 8);
	set(va + MNT_MNT + VFSMNT_ROOT, root, 8);
	return va;
}

static uint64_t file(uint64_t mnt, uint64_t d, uint64_t ino)
{
	uint64_t va = obj(FILE_SIZE, 64);

	set(va + FILE_PATH, mnt + MNT_MNT, 8);
	set(va + FILE_PATH + 8, d, 8);
	set(va + FILE_INODE, ino, 8);
	return va;
}

/* Page tables for pid 1: tables from frame 0x780 up. */
static uint64_t next_table = 0x780;

static uint64_t table_at(uint64_t pfn, unsigned idx)
{
	uint8_t *t = iw_frame(&k.mem, pfn);
	uint64_t e = 0;

	for (unsigned b = 0; b < 8; b++)
		e |= (uint64_t)t[idx * 8 + b] << (8 * b);
	if (e & IW_P)
		return e >> 12 & 0xffffffffff;
	uint64_t n = next_table++;
	memset(iw_frame(&k.mem, n), 0, IW_PAGE);
	iw_entry(&k.mem, pfn, idx, 8, n << 12 | IW_TBL | IW_US);
	return n;
}

static void map_user(uint64_t root_pfn, uint64_t va, uint64_t frame,
		     uint64_t bits)
{
	uint64_t t = root_pfn;

	for (unsigned shift = 39; shift > 12; shift -= 9)
		t = table_at(t, (va >> shift) & 511);
	iw_entry(&k.mem, t, (va >> 12) & 511, 8,
		 frame | IW_P | IW_US | IW_A | bits);
}

struct vma {
	uint64_t start, end, flags, pgoff, file, ops, priv, anon_name;
	uint64_t va;
};

enum { VM_R = 0x71, VM_RX = 0x75, VM_RW = 0x73, VM_RWS = 0xfb };

/* A maple node of type (1 leaf_64, 2 range_64, 3 arange_64, 0 dense)
 * with slots s[] and pivots p[]: its tagged pointer as a child. */
static uint64_t node(unsigned type, const uint64_t *s, unsigned ns,
		     const uint64_t *p, unsigned np)
{
	uint64_t va = obj(NODE_SIZE, NODE_SIZE);
	unsigned piv = type == 3 ? A64_PIVOT : R64_PIVOT;
	unsigned sl = type == 3 ? A64_SLOT : type == 0 ? DENSE_SLOT : R64_SLOT;

	set(va, ks_dm(0x1ff000) | 1, 8);   /* parent: not itself */
	for (unsigned i = 0; i < np; i++)
		set(va + piv + 8 * i, p[i], 8);
	for (unsigned i = 0; i < ns; i++)
		set(va + sl + 8 * i, s[i], 8);
	return va | (uint64_t)type << 3 | 4;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ "list", no_argument, NULL, 'l' },
		{ "tree-loop", no_argument, NULL, 't' },
		{ "bad-pivot", no_argument, NULL, 'p' },
		{ "misfiled", no_argument, NULL, 'm' },
		{ "list-loop", no_argument, NULL, 'L' },
		{ "dentry-loop", no_argument, NULL, 'd' },
		{ "mount-loop", no_argument, NULL, 'M' },
		{ "plant", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	bool raw = false, list = false, tree_loop = false, bad_pivot = false,
	     misfiled = false, list_loop = false, dentry_loop = false,
	     mount_loop = false;
	const char *plant = "";
	int c;

	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'r': raw = true; break;
		case 'l': list = true; break;
		case 't': tree_loop = true; break;
		case 'p': bad_pivot = true; break;
		case 'm': misfiled = true; break;
		case 'L': list_loop = true; break;
		case 'd': dentry_loop = true; break;
		case 'M': mount_loop = true; break;
		case 'P': plant = optarg; break;
		default:
			fprintf(stderr, "usage: pgw-mkvmas [OPTION...] OUT "
				"(see the source)\n");
			return 64;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: pgw-mkvmas [OPTION...] OUT\n");
		return 64;
	}
	ks_build(&k, &(struct ksynth_opts){
		.vmas = list ? BW_VMAS_LIST : BW_VMAS_MAPLE });
	uint64_t mm = k.mm[1];

	/* The file systems: the root (00:02), a mount at /data/sub
	 * (01:03), the internal shmem mount (00:01). */
	uint64_t sb0 = sb(2), sb1 = sb(1u << 20 | 3), sb2 = sb(1);
	uint64_t r0 = dentry("/", 1, 0, 0, true);
	uint64_t m0 = mount(r0, 0, 0);
	uint64_t bin = dentry("bin", 3, r0, 0, true);
	uint64_t prog = dentry("prog", 4, bin, 0, true);
	uint64_t f_prog = file(m0, prog, inode(sb0, 290));
	uint64_t data = dentry("data", 4, r0, 0, true);
	uint64_t sub = dentry("sub", 3, data, 0, true);
	uint64_t r1 = dentry("/", 1, 0, 0, true);
	uint64_t m1 = mount(r1, m0, sub);
	uint64_t dir = dentry("dir", 3, r1, 0, true);
	static const char red[] = "\x1b[31mred\nfile";
	uint64_t f_red = file(m1, dentry(red, sizeof(red) - 1, dir, 0, false),
			      inode(sb1, 77));
	if (dentry_loop) {
		uint64_t y = dentry("y", 1, dir, 0, true);
		set(dir + D_PARENT, y, 8);
	}
	if (mount_loop) {
		uint64_t r3 = dentry("/", 1, 0, 0, true);
		uint64_t m3 = mount(r3, m1, r1);
		set(m1 + MNT_PARENT, m3, 8);
		set(m1 + MNT_MOUNTPOINT, r3, 8);
	}
	uint64_t dops = obj(128, 64);
	set(dops + DOPS_DNAME, KS_SIMPLE_DNAME, 8);
	uint64_t shm_root = dentry("/", 1, 0, 0, true);
	uint64_t m2 = mount(shm_root, 0, 0);
	uint64_t f_memfd = file(m2, dentry("memfd:pgw", 9, 0, dops, false),
				inode(sb2, 7));
	char longname[2100];
	memset(longname, 'a', sizeof(longname));
	uint64_t l1 = dentry(longname, sizeof(longname), r0, 0, true);
	memset(longname, 'b', sizeof(longname));
	uint64_t f_long = file(m0, dentry(longname, sizeof(longname), l1, 0,
					  true), inode(sb0, 300));

	uint64_t vdso_ops = obj(16, 8), odd_ops = obj(16, 8);
	set(vdso_ops + OPS_NAME, KS_SPECIAL_MAPPING_NAME, 8);
	set(odd_ops + OPS_NAME, ks_kt(0x201500), 8);
	uint64_t special = obj(16, 8);
	set(special + SPECIAL_NAME, string("[vdso]", 6), 8);
	uint64_t anon = obj(24, 8);
	ks_put(&k, anon + ANON_NAME_NAME, "synthetic", 10);

	struct vma v[] = {
		{ 0x10, 0x11, VM_RW, 0, 0, 0, 0, 0, 0 },
		{ 0x400000, 0x401000, VM_RX, 0, f_prog, 0, 0, 0, 0 },
		{ 0x401000, 0x402000, VM_RW, 1, f_prog, 0, 0, 0, 0 },
		{ 0x600000, 0x621000, VM_RW, 0, 0, 0, 0, 0, 0 },
		{ 0x7f0000000000, 0x7f0000001000, VM_RWS, 0, f_memfd, 0, 0, 0,
		  0 },
		{ 0x7f0000002000, 0x7f0000003000, VM_RW, 0, 0, 0, 0, anon, 0 },
		{ 0x7f0000004000, 0x7f0000005000, VM_R, 0, f_red, 0, 0, 0, 0 },
		{ 0x7f0000006000, 0x7f0000007000, VM_R, 0, f_long, 0, 0, 0, 0 },
		{ 0x7ffc00000000, 0x7ffc00021000, VM_RW | 0x100, 0, 0, 0, 0, 0,
		  0 },
		{ 0x7ffc00100000, 0x7ffc00102000, VM_RX, 0, 0, vdso_ops,
		  special, 0, 0 },
		{ 0x7ffc00200000, 0x7ffc00201000, VM_R, 0, 0, odd_ops, 0, 0,
		  0 },
	};
	const unsigned nv = sizeof(v) / sizeof(v[0]);
	for (unsigned i = 0; i < nv; i++) {
		uint64_t va = v[i].va = obj(VMA_SIZE, 64);
		set(va + VMA_START, v[i].start, 8);
		set(va + VMA_END, v[i].end, 8);
		set(va + VMA_MM, mm, 8);
		set(va + VMA_FLAGS, v[i].flags | 0x8000000, 8);
		set(va + VMA_PGOFF, v[i].pgoff, 8);
		set(va + VMA_FILE, v[i].file, 8);
		set(va + VMA_OPS, v[i].ops, 8);
		set(va + VMA_PRIVATE, v[i].priv, 8);
		set(va + VMA_ANON_NAME, v[i].anon_name, 8);
	}
	if (misfiled)
		set(v[5].va + VMA_START, v[5].start - 0x1000, 8);
	if (!strcmp(plant, "hugetlb")) {
		uint64_t sb3 = sb(15), sbi = obj(16, 8), hs = obj(16, 8);
		set(sb3 + SB_FS_INFO, sbi, 8);
		set(sbi + SBI_HSTATE, hs, 8);
		set(hs + HSTATE_ORDER, 9, 4);
		uint64_t hd = dentry("anon_hugepage", 13, 0, dops, false);
		set(v[5].va + VMA_FILE, file(m2, hd, inode(sb3, 99)), 8);
		set(v[5].va + VMA_ANON_NAME, 0, 8);
		set(v[5].va + VMA_FLAGS, VM_RW | 0x400000 | 0x8000000, 8);
	}
	if (!strcmp(plant, "shmem-name"))
		set(v[4].va + VMA_ANON_NAME, anon, 8);
	if (!strcmp(plant, "anon-exec"))
		set(v[5].va + VMA_FLAGS, (VM_RW | 0x4) | 0x8000000, 8);
	set(mm + MM_EXE_FILE, !strcmp(plant, "deleted") ? f_red : f_prog, 8);

	/* pid 1's page tables: the kernel half copied, then its pages. */
	uint64_t pgd = k.pgd_pa[1] >> 12;
	memcpy(iw_frame(&k.mem, pgd) + 256 * 8,
	       iw_frame(&k.mem, KS_ROOT >> 12) + 256 * 8, 256 * 8);
	map_user(pgd, 0x400000, 0x7c0000, 0);
	map_user(pgd, 0x401000, 0x7c1000, IW_RW | IW_D | IW_NX);
	map_user(pgd, 0x600000, 0x7c2000, IW_RW | IW_D | IW_NX);
	map_user(pgd, 0x7ffc00020000, 0x7c3000, IW_RW | IW_D | IW_NX);
	map_user(pgd, 0x7ffc00100000, 0x7c4000, 0);
	map_user(pgd, 0x7f0000004000, 0x7c5000,
		 !strcmp(plant, "beyond") ? IW_RW | IW_NX : IW_NX);
	if (!strcmp(plant, "beyond"))
		map_user(pgd, 0x600000, 0x7c2000, IW_RW | IW_D);
	if (!strcmp(plant, "outside"))
		map_user(pgd, 0x500000, 0x7c6000, IW_RW | IW_D | IW_NX);
	if (*plant && strcmp(plant, "outside") && strcmp(plant, "beyond") &&
	    strcmp(plant, "anon-exec") && strcmp(plant, "deleted") &&
	    strcmp(plant, "shmem-name") && strcmp(plant, "hugetlb")) {
		fprintf(stderr, "pgw-mkvmas: no --plant=%s\n", plant);
		return 64;
	}
	set(mm + MM_START_BRK, 0x600000, 8);
	set(mm + MM_BRK, 0x621000, 8);
	set(mm + MM_START_STACK, 0x7ffc00020f00, 8);
	set(mm + MM_MAP_COUNT, nv, 4);

	if (list) {
		set(mm + 0, v[0].va, 8);            /* mmap */
		for (unsigned i = 0; i + 1 < nv; i++)
			set(v[i].va + VMA_NEXT, v[i + 1].va, 8);
		if (list_loop)
			set(v[nv - 1].va + VMA_NEXT, v[0].va, 8);
	} else {
		const uint64_t M = UINT64_MAX, T = 0x7effffffffff;
		uint64_t dense[17] = { 0 };
		dense[16] = v[0].va;                  /* index 0x10 */
		uint64_t s1[] = { 0, v[1].va, v[2].va, 0, v[3].va, 0 };
		uint64_t p1[] = { 0x3fffff, 0x400fff, 0x401fff, 0x5fffff,
				  0x620fff, T };
		if (bad_pivot)
			p1[2] = 0x3fffff;
		uint64_t s2[] = { v[4].va, 0, v[5].va, 0, v[6].va, 0, v[7].va,
				  0 };
		uint64_t p2[] = { 0x7f0000000fff, 0x7f0000001fff,
				  0x7f0000002fff, 0x7f0000003fff,
				  0x7f0000004fff, 0x7f0000005fff,
				  0x7f0000006fff, 0x7f00ffffffff };
		uint64_t s3[] = { 0, v[8].va, 0, v[9].va, 0, v[10].va, 0 };
		uint64_t p3[] = { 0x7ffbffffffff, 0x7ffc00020fff,
				  0x7ffc000fffff, 0x7ffc00101fff,
				  0x7ffc001fffff, 0x7ffc00200fff, M };
		uint64_t root_va = obj(NODE_SIZE, NODE_SIZE);
		next_pa = root_va - KS_DM + NODE_SIZE;
		uint64_t tree = root_va | 3 << 3 | 2;
		uint64_t l2 = node(1, s2, 8, p2, 8), l3 = node(1, s3, 7, p3, 7);
		uint64_t in[] = { l2, l3 }, pin[] = { 0x7f00ffffffff, M };
		if (tree_loop)
			in[1] = root_va | 3 << 3 | 4;
		uint64_t rs[] = { node(0, dense, 17, NULL, 0),
				  node(1, s1, 6, p1, 6), node(2, in, 2, pin, 2) };
		uint64_t rp[] = { 0x1e, T, M };
		set(root_va, (mm + MM_MT) | 1, 8);
		for (unsigned i = 0; i < 3; i++) {
			set(root_va + A64_PIVOT + 8 * i, rp[i], 8);
			set(root_va + A64_SLOT + 8 * i, rs[i], 8);
		}
		set(mm + MM_MT + MT_ROOT, tree, 8);
	}

	if (raw)
		ks_put(&k, ks_dm(0x7f0000), k.vmcoreinfo,
		       strlen(k.vmcoreinfo));
	int rc = ks_write(&k, argv[optind], raw);
	ks_free(&k);
	return rc ? 2 : 0;
}
