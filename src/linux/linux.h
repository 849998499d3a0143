/*
 * Facts of Linux on x86 the policy files share: where the kernel text is
 * mapped, how PTI pairs top tables, the 32-bit PAGE_OFFSETs, and which
 * VMCOREINFO symbol names the kernel's own top table.
 */
#ifndef PGW_LINUX_H
#define PGW_LINUX_H

#include "pgwalk.h"

/* x86-64's kernel text mapping base (__START_KERNEL_map). */
#define LINUX_START_KERNEL_MAP UINT64_C(0xffffffff80000000)
/* x86-64's legacy vsyscall page (VSYSCALL_ADDR). */
#define LINUX_VSYSCALL_PAGE UINT64_C(0xffffffffff600000)
/* PTI keeps the user copy of the top table in the next 4 KiB page. */
#define LINUX_PTI_USER_BIT (UINT64_C(1) << 12)

/* i386 PAGE_OFFSET choices, most common first (direct_map.c). */
#define LINUX_NPAGE_OFFSETS_32 3
extern const uint64_t linux_page_offsets_32[LINUX_NPAGE_OFFSETS_32];

/*
 * The kernel's top-table symbol in VMCOREINFO: init_top_pgt (x86-64,
 * 4.13+), init_level4_pgt (older x86-64) or swapper_pg_dir (i386, and
 * x86-64 before 2.6.25 too).  Its key and value; false when none.
 */
bool linux_kernel_root_symbol(const struct pgw_image *img,
			      const char **key_ret, uint64_t *va_ret);

/*
 * Memory encryption (enc.c, enc_infer.c).  A mask Linux could have: one
 * bit of the address field (12..51), or 0; its bit number.
 */
bool linux_enc_bit_ok(uint64_t mask);
unsigned linux_enc_bit(uint64_t mask);
/* What the caller and VMCOREINFO declare, into ch (zeroed first):
 * source PGW_ENC_NONE when neither says anything usable about the C-bit
 * (then pgw_enc_infer may look).  PGW_E_ARG for the caller's bad bits. */
enum pgw_status linux_enc_declared(struct pgw_image *img,
				   const struct pgw_enc_request *req,
				   struct pgw_enc_choice *ch,
				   struct pgw_err *err);
/* Append the caller's shared bit to ch->why. */
void linux_enc_say_shared(struct pgw_enc_choice *ch);

/*
 * The kernel root found by pgw_kernel_root_scan, for resolving a root
 * without VMCOREINFO (pgw_space_open runs the scan; pgw_root_resolve
 * never does).
 */
struct linux_scanned_root {
	bool have;
	uint64_t table;
	char why[200];
};

/* pgw_root_resolve, with a kernel root found by scan (may be NULL). */
enum pgw_status linux_root_resolve(struct pgw_image *img,
				   const struct pgw_mode *mode,
				   const struct pgw_root_request *req,
				   const struct linux_scanned_root *scanned,
				   struct pgw_root *root_ret,
				   struct pgw_err *err);

/* The CR3 (or top table) a root request names, before anything is read
 * through it, for asking its tables about encryption bits (root.c); a
 * process's is read through the kernel's tables, so the kernel root
 * (else CPU 0's) stands in.  False when it names none. */
bool linux_root_cr3(struct pgw_image *img, const struct pgw_mode *mode,
		    const struct pgw_root_request *req,
		    const struct linux_scanned_root *scanned,
		    uint64_t *cr3_ret);

/*
 * The root of the process req->pid or req->comm names, from the task list
 * read through the kernel's space: its mm->pgd's physical address.  Fills
 * root_ret's table, cr3, pid and why.
 */
enum pgw_status linux_task_root(struct pgw_linux_kernel *lk,
				const struct pgw_space *kernel,
				const struct pgw_root_request *req,
				struct pgw_root *root_ret, struct pgw_err *err);

/*
 * The task list a root is chosen from, read once through lk (what: the
 * option asking, for the error): PGW_OK with the tasks read (lk's),
 * incomplete (size bytes) saying when the list was cut short (those read
 * before still count); else the error.
 */
enum pgw_status linux_root_tasks(struct pgw_linux_kernel *lk,
				 const struct pgw_space *kernel,
				 const char *what,
				 const struct pgw_task **tasks_ret,
				 size_t *n_ret,
				 const struct pgw_tasks_how **how,
				 char *incomplete, size_t size,
				 struct pgw_err *err);

/* At most n - 1 bytes of `len` raw bytes, printable ASCII kept and the
 * rest (backslash too) as \xNN, NUL-terminated: a comm for a message. */
void linux_escape_comm(char *out, size_t n, const uint8_t *bytes,
		       size_t len);

/*
 * CPU `cpu`'s root where the notes carry no root register (arm64,
 * root_cpu.c): the task the list runs there, its mm->pgd (a kernel
 * thread's active_mm), checked against the CPU's NT_PRSTATUS.  kernel:
 * the kernel's space (the task list is read through it).  Fills
 * root_ret's source, cpu, table, cr3, pid, comm and why.
 */
enum pgw_status linux_cpu_task_root(struct pgw_linux_kernel *lk,
				    const struct pgw_space *kernel,
				    unsigned cpu, struct pgw_root *root_ret,
				    struct pgw_err *err);

/*
 * pgw_roots_scan in a mode with two roots (roots_two.c): the kernel's
 * root (kernel_root, or 0: VMCOREINFO's swapper_pg_dir), then every
 * lower-half top table no other table reaches, by address.
 */
enum pgw_status linux_roots_two(struct pgw_image *img,
				const struct pgw_mode *mode,
				uint64_t kernel_root,
				const struct pgw_roots_opts *opts,
				struct pgw_roots **roots_ret,
				struct pgw_err *err);

/*
 * init_task found in the kernel image's data when kallsyms lacks it: a
 * task named "swapper/0" with pid 0 whose task list comes back to it
 * (init_task_scan.c).  PGW_E_NOTFOUND with the reason when none does.
 */
enum pgw_status linux_init_task_scan(const struct pgw_space *kernel,
				     const struct pgw_task_layout *lay,
				     uint64_t *va_ret, struct pgw_err *err);

/* Task addresses already seen by a walk (task_seen.c); free slot. */
struct linux_seen {
	uint64_t *slot;     /* 0: empty (no task lives at VA 0) */
	size_t mask, used;
};
/* Add va; false when it was there already (or, with *nomem, when there
 * was no memory to add it). */
bool linux_seen_add(struct linux_seen *s, uint64_t va, bool *nomem);

/*
 * The task list's pieces the thread walk (threads.c) shares: read the
 * task at va (its fields, mm->pgd's root); make a read error that means
 * a damaged list one (PGW_E_FORMAT, true) rather than a page the image
 * lacks; fill in each task's ppid (real_parent's tgid; tasks[0] is
 * init_task).
 */
enum pgw_status linux_task_read(const struct pgw_space *kernel,
				const struct pgw_task_layout *lay, uint64_t va,
				struct pgw_task *t, struct pgw_err *err);
bool linux_task_damaged_link(struct pgw_err *err);
void linux_resolve_ppids(const struct pgw_space *kernel,
			 const struct pgw_task_layout *lay,
			 struct pgw_task *tasks, size_t n);

#endif
