/*
 * What an address is, for the commands that print addresses (translate,
 * dump, ptov, check, search): a kernel address's symbol from the image's
 * own kallsyms ("page_offset_base+0x8", as the kernel's %pS and crash's
 * sym say it) or the loaded module whose memory holds it ("foo_init+0x10
 * [foo]" by the module's own symbols, else "[foo]+0x10"; read through BTF
 * when kallsyms has no symbol for it), a user address's VMA (its path as /proc/PID/maps prints
 * it, and for a file the offset into it: pgoff + va - vm_start).
 *
 * Names cost the reading of kallsyms, and for user addresses of BTF, the
 * task list and a process's VMAs: a command opens them only when asked
 * (--names) or when it has read the task list anyway (a process chosen
 * by --pid or --comm); the plain paths never pay for them.
 */
#ifndef PGW_ADDR_NAMES_H
#define PGW_ADDR_NAMES_H

#include "session.h"

/* The longest path a record carries whole; longer ones are cut there,
 * and the record says so (path_truncated). */
#define NAME_PATH_MAX 512

/* One process's VMAs, read when first asked for. */
struct names_proc {
	int32_t pid;
	struct pgw_vmas *vmas;           /* NULL: could not be read */
};

/* Each source is read when the first address that needs it is named: a
 * batch of user addresses never reads kallsyms, one of kernel addresses
 * never BTF or the task list. */
struct addr_names {
	const struct pgw_space *space;   /* the kernel's page tables */
	bool say;                        /* what cannot be read: on stderr */
	bool user;                       /* user addresses named */
	bool ks_tried, lm_tried;
	struct pgw_linux_kernel *kernel; /* the session's (NULL: each read
					    here) */
	const struct pgw_kallsyms *ks;   /* NULL: kernel addresses unnamed */
	struct pgw_kallsyms *ks_own;     /* ks when read here */
	bool mods_tried;
	struct pgw_kernel_btf *kb;       /* for the module list */
	struct pgw_modules *mods;        /* NULL: module addresses unnamed;
					    the modules read before damage */
	struct pgw_linux_mm *lm;         /* NULL: user addresses unnamed */
	bool lm_borrowed;                /* lm is a caller's (check's VMA
					    reader): not closed here */
	int32_t space_pid;               /* the space's process; -1: none */
	bool owner_wanted;               /* space_pid: the task whose
					    mm->pgd is the root, once lm is
					    read */
	uint64_t root;
	struct names_proc *proc;
	size_t nproc, capproc;
};

/* An address's name: a symbol (kallsyms', or a module's), a VMA, or
 * neither. */
struct addr_name {
	bool has_symbol;
	const struct pgw_module *module; /* has_symbol from a module's range */
	const char *module_kind;         /* its range's kind */
	bool module_sym;                 /* sym: the module's own symbol */
	struct pgw_ksym sym;
	uint64_t sym_off;
	char symbol[PGW_KSYM_NAME_MAX + 24];   /* name_rec_of's spelling */
	const struct pgw_vma *vma;       /* NULL: no VMA holds it */
	const char *path;                /* the VMA's name (NULL: none) */
	size_t path_len;                 /* at most NAME_PATH_MAX */
	bool path_truncated;
	bool has_file_offset;            /* a file's: pgoff + va - start */
	uint64_t file_offset;
};

/*
 * Ready names for s's space (read when first needed): kallsyms for
 * kernel addresses, and when `user` the task list and VMAs for user
 * addresses (of the space's own process: --pid, --comm, or the task
 * whose mm->pgd is the root; or of the process a record names).  What
 * cannot be read leaves its half unnamed, said on stderr when `say` (the
 * user asked: --names).
 */
void names_open(struct addr_names *n, const struct session *s, bool user,
		bool say);
/* The same through the kernel's space alone: kallsyms, and user names
 * only once a VMA reader is lent (names_lend_vmas). */
void names_open_kernel(struct addr_names *n, const struct pgw_space *kernel);
/* Name user addresses with lm, which stays the caller's. */
void names_lend_vmas(struct addr_names *n, struct pgw_linux_mm *lm);
void names_close(struct addr_names *n);

/* va's name in process pid's space (-1: the space's own process). */
bool names_find(struct addr_names *n, int32_t pid, uint64_t va,
		struct addr_name *nm);

/* "NAME+0xOFF" (NAME alone at offset 0); in a module, its own symbol as
 * the kernel's oops prints it, "NAME+0xOFF [MODULE]", or where it has
 * none "[MODULE]+0xOFF" from the start of its text (6.4+) or core (as
 * /proc/modules' address), "[MODULE:KIND]+0xOFF" from the start of
 * another range; raw bytes, into buf. */
void names_symbol_text(const struct addr_name *nm, char *buf, size_t size);

/* The --names option's help. */
#define NAMES_DOC                                                         \
	"Name addresses: a kernel address by its kallsyms symbol "         \
	"(symbol+0xOFF) or the loaded module holding it (symbol+0xOFF "    \
	"[module] by its own symbols, else [module]+0xOFF; read through "  \
	"BTF), a user address by its VMA (path, and the file "             \
	"offset for a file) when the process is known; a process chosen "  \
	"by --pid or --comm gets them anyway"

#endif
