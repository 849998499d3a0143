/*
 * NT_PRSTATUS notes: struct elf_prstatus as the dump's writer fills it,
 * one per CPU.  Only the x86 layouts are read (told apart by their size:
 * 336 bytes on x86-64, 144 on i386): the stack and instruction pointers
 * and the code segment, which say what a CPU was running.  pr_pid is the
 * writer's: the kernel's current pid in a kdump, but QEMU's dumps put the
 * CPU's number plus one there, so it names no task by itself.
 */
#include "../lib/bytes.h"
#include "../lib/err.h"
#include "../lib/grow.h"
#include "format.h"

/*
 * Offsets: pr_info (12 bytes), pr_cursig and padding (4), two signal
 * sets (unsigned longs), pr_pid, pr_ppid, pr_pgrp, pr_sid, four timevals
 * (two longs each), then pr_reg (user_regs_struct; x86-64: r15 ... rip,
 * cs, eflags, rsp; i386: ebx ... eip, xcs, eflags, esp).
 */
static const struct layout {
	size_t size, pid, regs;
	unsigned word, ip, cs, sp;   /* register indexes */
} layouts[] = {
	{ 336, 32, 112, 8, 16, 17, 19 },
	{ 144, 24, 72, 4, 12, 13, 15 },
};

static uint64_t reg(const uint8_t *desc, const struct layout *l, unsigned i)
{
	const uint8_t *p = desc + l->regs + (size_t)i * l->word;

	return l->word == 8 ? pgw_le64(p) : pgw_le32(p);
}

enum pgw_status pgw_image_add_prstatus(struct pgw_image *img,
				       const uint8_t *desc, size_t len,
				       struct pgw_err *err)
{
	struct pgw_prstatus ps = { 0 };

	img->nprstatus++;
	if (img->nprstatus_regs == PGW_MAX_CPUS)
		return PGW_OK;   /* push_cpu's cap: the rest ignored */
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct layout *l = &layouts[i];
		if (len != l->size)
			continue;
		ps.has_regs = true;
		ps.pid = (int32_t)pgw_le32(desc + l->pid);
		ps.ip = reg(desc, l, l->ip);
		ps.cs = (uint32_t)reg(desc, l, l->cs);
		ps.sp = reg(desc, l, l->sp);
	}
	enum pgw_status st = pgw_grow(&img->prstatus, img->nprstatus_regs,
				      sizeof(*img->prstatus), err);
	if (st != PGW_OK)
		return st;
	img->prstatus[img->nprstatus_regs++] = ps;
	return PGW_OK;
}

size_t pgw_image_prstatus(const struct pgw_image *img,
			  const struct pgw_prstatus **ret)
{
	*ret = img->prstatus;
	return img->nprstatus_regs;
}
