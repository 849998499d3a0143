/*
 * A small kernel-like BTF blob for tests and fuzz seeds, written with
 * libbpf's BTF writer: struct task_struct, mm_struct and list_head with
 * the members the task walk reads, placed at the offsets asked for, some
 * of them inside anonymous structs and unions (as in 6.1, where
 * mm_struct.pgd lies in an anonymous struct), behind typedefs and
 * qualifiers, plus a bitfield.
 */
#ifndef PGW_BTFWRITER_H
#define PGW_BTFWRITER_H

#include <bpf/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmabtf.h"

struct bw_offsets {
	uint32_t task_size;   /* bytes */
	uint32_t flags;       /* unsigned int */
	uint32_t tasks;       /* struct list_head */
	uint32_t mm;          /* void * */
	uint32_t ids;         /* anonymous union { struct { pid_t pid;
				 const pid_t tgid; }; long both; } */
	uint32_t comm;        /* char[comm_len] */
	uint32_t comm_len;
	uint32_t mm_size;
	uint32_t pgd;         /* in an anonymous struct at mm_struct's
				 start */
	int vmas;             /* BW_VMAS_*: the VMA reader's structs too
				 (vmabtf.h) */
};

static const struct bw_offsets bw_default = {
	.task_size = 256, .flags = 4, .tasks = 16, .mm = 32, .ids = 40,
	.comm = 48, .comm_len = 16, .mm_size = 128, .pgd = 72,
};

static inline void bw_check(int id, const char *what)
{
	if (id < 0) {
		fprintf(stderr, "btfwriter: %s: %d\n", what, id);
		exit(2);
	}
}

/* The types; free with btf__free.  Also in task_struct: `bits`, a 3-bit
 * bitfield at byte 8; and struct loop, which nests itself anonymously
 * nloop times. */
static inline struct btf *bw_build(const struct bw_offsets *o, int nloop)
{
	struct btf *b = btf__new_empty();
	int e;

	if (!b) {
		perror("btf__new_empty");
		exit(2);
	}
	int t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int t_uint = btf__add_int(b, "unsigned int", 4, 0);
	int t_char = btf__add_int(b, "char", 1, BTF_INT_CHAR);
	int t_long = btf__add_int(b, "long int", 8, BTF_INT_SIGNED);
	int t_pid = btf__add_typedef(b, "pid_t", t_int);
	int t_cpid = btf__add_const(b, t_pid);
	int t_ptr = btf__add_ptr(b, 0);
	int t_comm = btf__add_array(b, t_int, t_char, o->comm_len);
	bw_check(t_comm, "basic types");

	int t_list = btf__add_struct(b, "list_head", 16);
	e = btf__add_field(b, "next", t_ptr, 0, 0) |
	    btf__add_field(b, "prev", t_ptr, 64, 0);
	bw_check(t_list | e, "list_head");

	int t_ids = btf__add_struct(b, NULL, 8);
	e = btf__add_field(b, "pid", t_pid, 0, 0) |
	    btf__add_field(b, "tgid", t_cpid, 32, 0);
	int t_idu = btf__add_union(b, NULL, 8);
	e |= btf__add_field(b, NULL, t_ids, 0, 0) |
	     btf__add_field(b, "both", t_long, 0, 0);
	bw_check(t_ids | t_idu | e, "anonymous ids");

	int t_task = btf__add_struct(b, "task_struct", o->task_size);
	e = btf__add_field(b, "__state", t_uint, 0, 0) |
	    btf__add_field(b, "flags", t_uint, o->flags * 8, 0) |
	    btf__add_field(b, "bits", t_uint, 64, 3) |
	    btf__add_field(b, "tasks", t_list, o->tasks * 8, 0) |
	    btf__add_field(b, "mm", t_ptr, o->mm * 8, 0) |
	    btf__add_field(b, NULL, t_idu, o->ids * 8, 0) |
	    btf__add_field(b, "comm", t_comm, o->comm * 8, 0);
	bw_check(t_task | e, "task_struct");

	int t_ulong = o->vmas ? btf__add_int(b, "long unsigned int", 8, 0) : 0;
	if (o->vmas)
		bw_check(t_ulong | vb_types(b, o->vmas, t_uint, t_char, t_ptr,
					    t_ulong), "VMA types");
	int t_mma = btf__add_struct(b, NULL, o->pgd + 8);
	e = btf__add_field(b, "mmap", t_ptr, 0, 0) |
	    btf__add_field(b, "pgd", t_ptr, o->pgd * 8, 0);
	int t_mm = btf__add_struct(b, "mm_struct", o->mm_size);
	e |= btf__add_field(b, NULL, t_mma, 0, 0);
	if (o->vmas)
		e |= vb_mm_fields(b, o->vmas, t_int, t_ulong, t_ptr);
	bw_check(t_mma | t_mm | e, "mm_struct");

	if (nloop > 0) {
		int t_loop = btf__add_struct(b, "loop", 8);
		for (int i = 0; i < nloop; i++)
			bw_check(btf__add_field(b, NULL, t_loop, 0, 0),
				 "loop");
	}
	return b;
}

/* bw_build's blob in a malloc'd copy. */
static inline uint8_t *bw_blob(const struct bw_offsets *o, int nloop,
			       uint32_t *size_ret)
{
	struct btf *b = bw_build(o, nloop);
	const void *raw = btf__raw_data(b, size_ret);
	uint8_t *copy = malloc(*size_ret);

	if (!raw || !copy) {
		perror("btf__raw_data");
		exit(2);
	}
	memcpy(copy, raw, *size_ret);
	btf__free(b);
	return copy;
}

#endif
