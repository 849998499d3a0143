"""Write the C source of pgwalk._ffi, the cffi binding of libpgwalk.

    python3 python/ffi_build.py OUT.c

The declarations below are the part of include/pgwalk.h the package uses.
Structs end in "...;": the C compiler, reading the real header, places
their fields, so a field added, moved or resized there cannot silently
misread here (a field removed or retyped fails the build).  The Makefile
compiles OUT.c with $(CC) against include/ and links it with
libpgwalk.so (mk/python.mk).
"""
import sys

import cffi

CDEF = r"""
enum pgw_status { PGW_OK, PGW_E_ARG, PGW_E_IO, PGW_E_FORMAT,
    PGW_E_UNSUPPORTED, PGW_E_NOMEM, PGW_E_NODATA, PGW_E_NOTFOUND,
    PGW_E_LIMIT, PGW_E_STOPPED, PGW_E_UNMAPPED, ... };
enum pgw_absence { PGW_ABSENT_NONE, ... };
enum pgw_level { PGW_PGD, PGW_P4D, PGW_PUD, PGW_PMD, PGW_PTE, PGW_NLEVELS, ... };
enum pgw_stop { PGW_STOP_OK, ... };
enum pgw_np_kind { PGW_NP_NONE, ... };
enum pgw_entry_kind { PGW_ENT_NOT_PRESENT, PGW_ENT_TABLE, PGW_ENT_LEAF, ... };
enum pgw_run_kind { PGW_RUN_MAP, PGW_RUN_HOLE, ... };
enum pgw_root_kind { PGW_RK_KERNEL, PGW_RK_PROCESS, ... };
enum pgw_rule { PGW_RULE_WX, ... };
enum pgw_severity { PGW_SEV_INFO, ... };
enum pgw_diff_kind { PGW_DIFF_ADDED, ... };
#define PGW_NABSENCES ...
#define PGW_NSTOPS ...
#define PGW_NFLAGS ...
#define PGW_NDIFF_CHANGES ...
#define PGW_TASK_COMM_MAX ...

const char *pgw_version(void);
const char *pgw_absence_key(enum pgw_absence why);
const char *pgw_status_name(enum pgw_status status);
const char *pgw_stop_key(enum pgw_stop stop);
const char *pgw_stop_text(enum pgw_stop stop);
const char *pgw_flag_name(unsigned bit_index);
const char *pgw_np_kind_key(enum pgw_np_kind kind);
const char *pgw_root_kind_key(enum pgw_root_kind kind);
const char *pgw_rule_key(enum pgw_rule rule);
const char *pgw_severity_key(enum pgw_severity sev);
const char *pgw_diff_kind_key(enum pgw_diff_kind kind);
const char *pgw_diff_change_key(unsigned bit_index);
const char *pgw_machine_name(unsigned elf_machine);

struct pgw_err { enum pgw_status status; int errnum;
    enum pgw_absence absence; char msg[...]; ...; };

struct pgw_image;
struct pgw_phys_range { uint64_t start; uint64_t size; };
struct pgw_cpu { bool has_cr; bool has_efer;
    uint64_t cr0, cr2, cr3, cr4, efer; bool has_rip; uint64_t rip;
    bool has_cs; uint32_t cs_selector; ...; };
struct pgw_image_open_opts { const char *format; uint64_t raw_base; ...; };
struct pgw_evidence { bool complete; bool intact; bool marked_incomplete;
    uint64_t pages_ram; uint64_t pages_dumped; bool zero_excluded;
    uint64_t pages_absent[...]; uint64_t file_bytes_missing; ...; };

enum pgw_status pgw_image_open(struct pgw_image **img_ret, const char *path,
    const struct pgw_image_open_opts *opts, struct pgw_err *err);
void pgw_image_close(struct pgw_image *img);
enum pgw_status pgw_image_read(struct pgw_image *img, uint64_t pa, void *buf,
    size_t len, struct pgw_err *err);
void pgw_image_evidence(struct pgw_image *img, struct pgw_evidence *ev_ret);
const char *pgw_image_path(const struct pgw_image *img);
const char *pgw_image_format(const struct pgw_image *img);
unsigned pgw_image_machine(const struct pgw_image *img);
unsigned pgw_image_class(const struct pgw_image *img);
size_t pgw_image_ranges(const struct pgw_image *img,
    const struct pgw_phys_range **ranges_ret);
size_t pgw_image_cpus(const struct pgw_image *img,
    const struct pgw_cpu **cpus_ret);
size_t pgw_image_prstatus_count(const struct pgw_image *img);
size_t pgw_image_facts(const struct pgw_image *img,
    const char *const **keys_ret, const char *const **values_ret);
const char *pgw_vmcoreinfo_get(const struct pgw_image *img, const char *key);

struct pgw_level_desc { const char *name; const char *hw_name; uint8_t shift;
    uint8_t bits; ...; };
struct pgw_mode { const char *name; const char *desc; uint8_t va_bits;
    struct pgw_level_desc level[...]; uint8_t root_select_bit; ...; };
struct pgw_enc_bits { uint64_t enc; uint64_t shared; ...; };
struct pgw_space { struct pgw_image *img; const struct pgw_mode *mode;
    uint64_t root; struct pgw_enc_bits enc; uint64_t root_upper; ...; };

struct pgw_entry { uint64_t raw; uint64_t addr; uint64_t reserved;
    uint64_t np_pfn; uint64_t swap_offset; enum pgw_entry_kind kind;
    uint32_t flags; uint32_t perm; enum pgw_np_kind np_kind;
    unsigned swap_type; uint8_t pkey; ...; };
struct pgw_step { uint64_t table; uint64_t entry_pa; enum pgw_level level;
    unsigned index; bool read_ok; struct pgw_entry entry; ...; };
struct pgw_xlat { uint64_t va; enum pgw_stop stop; enum pgw_level level;
    uint64_t pa; uint64_t page_size; bool data_in_image;
    enum pgw_absence data_absence; enum pgw_absence table_absence;
    uint32_t eff_flags; unsigned nsteps; struct pgw_step step[...]; ...; };
struct pgw_xlat_cache;
enum pgw_stop pgw_translate(const struct pgw_space *space,
    struct pgw_xlat_cache *cache, uint64_t va, struct pgw_xlat *out);
enum pgw_status pgw_xlat_error(const struct pgw_space *space,
    const struct pgw_xlat *x, struct pgw_err *err);
struct pgw_xlat_cache *pgw_xlat_cache_new(void);
void pgw_xlat_cache_free(struct pgw_xlat_cache *cache);
enum pgw_status pgw_read_virt(const struct pgw_space *space, uint64_t va,
    void *buf, size_t len, size_t *done_ret, struct pgw_err *err);

struct pgw_root_request { bool have_cr3; uint64_t cr3; bool have_cpu;
    unsigned cpu; bool have_table; uint64_t table; bool have_pid;
    int32_t pid; const char *comm; bool kernel; bool have_ttbr0, have_ttbr1;
    uint64_t ttbr0, ttbr1; struct pgw_enc_bits enc; ...; };
struct pgw_space_request { const char *mode; struct pgw_root_request root;
    ...; };
enum pgw_root_source { PGW_ROOT_TASK, ... };
struct pgw_root { enum pgw_root_source source; uint64_t cr3; uint64_t table;
    int32_t pid; uint8_t comm[...]; size_t comm_len; char why[...]; ...; };
struct pgw_mode_choice { const struct pgw_mode *mode; char why[...];
    char conflict[...]; ...; };
enum pgw_enc_source { PGW_ENC_NONE, ... };
struct pgw_enc_choice { struct pgw_enc_bits bits; enum pgw_enc_source source;
    enum pgw_enc_source shared_source; uint64_t examined, agreed;
    char why[...]; ...; };
const char *pgw_enc_source_key(enum pgw_enc_source src);
enum pgw_vmci_place { PGW_VMCI_NOTE, ... };
const char *pgw_vmci_place_key(enum pgw_vmci_place place);
struct pgw_vmci_candidate { uint64_t pa; enum pgw_vmci_place place;
    bool valid; bool chosen; uint64_t kernel_root; unsigned cpus_on_root,
    cpus_map_text; char why[...]; ...; };
enum pgw_facts_source { PGW_FACTS_UNCHECKED, PGW_FACTS_NOTE,
    PGW_FACTS_MEMORY, PGW_FACTS_NONE, ... };
struct pgw_facts_why { enum pgw_facts_source source; char why[...];
    size_t ncandidates, nlisted; struct pgw_vmci_candidate cand[...];
    bool conflict; char choice[...]; ...; };
struct pgw_space_why { struct pgw_mode_choice mode; struct pgw_root root;
    struct pgw_enc_choice enc; struct pgw_facts_why facts; ...; };
enum pgw_status pgw_space_open(struct pgw_image *img,
    const struct pgw_space_request *req, struct pgw_space *space_ret,
    struct pgw_space_why *why_ret, struct pgw_err *err);

enum pgw_status pgw_root_resolve(struct pgw_image *img,
    const struct pgw_mode *mode, const struct pgw_root_request *req,
    struct pgw_root *root_ret, struct pgw_err *err);
struct pgw_pti { bool is_user_root; uint64_t kernel_table; ...; };
void pgw_pti_check(struct pgw_image *img, const struct pgw_mode *mode,
    const struct pgw_enc_bits *enc, uint64_t table, struct pgw_pti *pti_ret);
uint64_t pgw_cr3_table(const struct pgw_mode *mode, uint64_t cr3,
    const struct pgw_enc_bits *enc);
size_t pgw_vmcoreinfo_count(const struct pgw_image *img);
bool pgw_vmcoreinfo_in_memory(const struct pgw_image *img,
    uint64_t *source_pa_ret);
enum pgw_status pgw_vmcoreinfo_number(const struct pgw_image *img,
    const char *key, uint64_t *val_ret, struct pgw_err *err);

struct pgw_task { uint64_t task; int32_t pid, tgid; uint32_t flags;
    bool kthread; uint8_t comm[...]; size_t comm_len; uint64_t mm; uint64_t pgd;
    bool has_pgd_pa; uint64_t pgd_pa; char why[...]; ...; };
enum pgw_tasks_method { PGW_TASKS_BTF, ... };
const char *pgw_tasks_method_key(enum pgw_tasks_method method);
struct pgw_tasks_how { enum pgw_tasks_method method; char why[...]; ...; };
enum pgw_status pgw_linux_tasks_how(const struct pgw_space *kernel,
    struct pgw_task **tasks_ret, size_t *n_ret, struct pgw_tasks_how *how_ret,
    struct pgw_err *err);
enum pgw_status pgw_linux_tasks(const struct pgw_space *kernel,
    struct pgw_task **tasks_ret, size_t *n_ret, struct pgw_err *err);
void pgw_linux_tasks_free(struct pgw_task *tasks);

enum pgw_vma_naming { PGW_VMA_NONE, PGW_VMA_PATH, PGW_VMA_NAMED,
    PGW_VMA_UNKNOWN, ... };
struct pgw_linux_mm;
struct pgw_vma { uint64_t vma; uint64_t start, end; uint64_t flags;
    uint64_t pgoff; uint64_t file; uint32_t dev; uint64_t ino;
    uint64_t huge_page_size; enum pgw_vma_naming naming;
    uint32_t name_at, name_len; char why[...]; ...; };
struct pgw_vmas { uint64_t mm; struct pgw_vma *vma; size_t n;
    const char *names; bool complete; enum pgw_status status; char why[...];
    uint32_t exe_at, exe_len; char exe_why[...]; ...; };
enum pgw_status pgw_linux_mm_open(const struct pgw_space *kernel,
    struct pgw_linux_mm **lm_ret, struct pgw_err *err);
void pgw_linux_mm_close(struct pgw_linux_mm *lm);
enum pgw_status pgw_linux_vmas(struct pgw_linux_mm *lm, uint64_t mm,
    struct pgw_vmas **vmas_ret, struct pgw_err *err);
enum pgw_status pgw_linux_vmas_of_pid(struct pgw_linux_mm *lm, int32_t pid,
    struct pgw_vmas **vmas_ret, struct pgw_err *err);
void pgw_vmas_free(struct pgw_vmas *vmas);
void pgw_vma_perms(uint64_t flags, char buf[5]);
struct pgw_vma_usage { uint64_t present; uint64_t rss; uint64_t protnone;
    uint64_t swap; uint64_t other_np; uint64_t empty; uint64_t unknown;
    uint64_t thp, hugetlb; uint64_t kernel_page_size; uint64_t not_in_image;
    bool complete; ...; };
struct pgw_vma_page;
typedef int (*pgw_vma_page_fn)(void *arg, const struct pgw_vma_page *p);
enum pgw_status pgw_vma_measure(const struct pgw_space *user,
    const struct pgw_vma *vma, struct pgw_vma_usage *usage_ret,
    pgw_vma_page_fn page, void *arg, struct pgw_err *err);

struct pgw_walk_opts { uint64_t start; uint64_t end; uint64_t max_entries;
    ...; };
struct pgw_walk_stats { uint64_t entries; uint64_t tables; uint64_t leaves;
    ...; };
struct pgw_run { enum pgw_run_kind kind; uint64_t va; uint64_t end;
    enum pgw_level level; uint64_t pa; uint64_t page_size; uint32_t flags;
    uint32_t eff_flags; bool same_frame; enum pgw_stop stop;
    enum pgw_absence absence; ...; };
struct pgw_run_opts { struct pgw_walk_opts walk; ...; };
struct pgw_runs_iter;
enum pgw_status pgw_runs_iter_new(const struct pgw_space *space,
    const struct pgw_run_opts *opts, struct pgw_runs_iter **it_ret,
    struct pgw_err *err);
enum pgw_status pgw_runs_iter_next(struct pgw_runs_iter *it,
    const struct pgw_run **run_ret, struct pgw_err *err);
void pgw_runs_iter_free(struct pgw_runs_iter *it);

struct pgw_rmap;
struct pgw_rmap_hit { uint32_t owner; uint64_t pa; uint64_t va;
    uint64_t page_size; uint64_t pages; enum pgw_level level; uint32_t flags;
    uint32_t eff_flags; ...; };
enum pgw_status pgw_rmap_new(struct pgw_rmap **rm_ret, struct pgw_err *err);
enum pgw_status pgw_rmap_add(struct pgw_rmap *rm,
    const struct pgw_space *space, const struct pgw_walk_opts *opts,
    uint32_t owner, struct pgw_walk_stats *stats_ret, struct pgw_err *err);
void pgw_rmap_finish(struct pgw_rmap *rm);
size_t pgw_rmap_lookup(const struct pgw_rmap *rm, uint64_t pa,
    struct pgw_rmap_hit *hits, size_t max);
struct pgw_rmap_stats { uint64_t tables_not_in_image; ...; };
void pgw_rmap_stats(const struct pgw_rmap *rm,
    struct pgw_rmap_stats *stats_ret);
void pgw_rmap_free(struct pgw_rmap *rm);

struct pgw_scan_opts { uint64_t max_entries; struct pgw_enc_bits enc; ...; };
struct pgw_scan_stats { uint64_t entries; bool complete; ...; };
struct pgw_roots_opts { struct pgw_scan_opts scan; ...; };
struct pgw_root_found { uint64_t table; enum pgw_root_kind kind;
    char why[...]; uint64_t pti_user; unsigned ncpus; uint64_t user_bytes;
    unsigned ndiffs; ...; };
struct pgw_roots { const struct pgw_mode *mode; uint64_t kernel_root;
    uint64_t kernel_start;
    size_t n; struct pgw_root_found *root; struct pgw_scan_stats scan;
    ...; };
struct pgw_roots_view { size_t nroots, ntasks; size_t *first_owner;
    size_t *owner; ...; };
enum pgw_status pgw_roots_view_build(struct pgw_roots *roots,
    const struct pgw_task *tasks, size_t ntasks,
    struct pgw_roots_view **view_ret, struct pgw_err *err);
void pgw_roots_view_free(struct pgw_roots_view *view);
uint64_t pgw_default_budget(struct pgw_image *img);
enum pgw_status pgw_roots_scan(struct pgw_image *img,
    const struct pgw_mode *mode, uint64_t kernel_root,
    const struct pgw_roots_opts *opts, struct pgw_roots **roots_ret,
    struct pgw_err *err);
void pgw_roots_free(struct pgw_roots *roots);

struct pgw_check;
struct pgw_evidence_entry { enum pgw_level level; uint64_t table;
    unsigned index; uint64_t entry_pa; uint64_t entry; ...; };
struct pgw_finding { enum pgw_rule rule; enum pgw_severity severity;
    bool has_range; uint64_t va, end; bool has_root; uint64_t root;
    const struct pgw_task *owner; unsigned nevidence; struct pgw_evidence_entry evidence[...]; char why[...];
    ...; };
struct pgw_check_root_opts { bool kernel_root; bool user_half_only;
    bool kernel_half_only; bool compare_kernel_half;
    const struct pgw_task *owner; uint64_t max_entries; ...; };
struct pgw_check_stats { struct pgw_walk_stats walk; ...; };
typedef int (*pgw_finding_fn)(void *arg, const struct pgw_finding *f);
extern "Python" int pgwpy_on_finding(void *arg, const struct pgw_finding *f);
bool pgw_check_kind(enum pgw_root_kind kind);
enum pgw_status pgw_check_roots(struct pgw_check *ck,
    const struct pgw_roots *roots, const struct pgw_task *tasks,
    const struct pgw_roots_view *view, pgw_finding_fn fn, void *arg,
    struct pgw_err *err);
enum pgw_status pgw_check_vmas(struct pgw_check *ck,
    const struct pgw_space *user, const struct pgw_vmas *vmas,
    const struct pgw_task *owner, uint64_t max_entries, pgw_finding_fn fn,
    void *arg, struct pgw_err *err);
enum pgw_status pgw_check_root(struct pgw_check *ck,
    const struct pgw_space *space, const struct pgw_check_root_opts *opts,
    pgw_finding_fn fn, void *arg, struct pgw_check_stats *stats_ret,
    struct pgw_err *err);
enum pgw_status pgw_check_open(const struct pgw_space *kernel,
    struct pgw_check **ck_ret, struct pgw_err *err);
void pgw_check_close(struct pgw_check *ck);
struct pgw_findings_iter;
enum pgw_status pgw_findings_iter_new(struct pgw_check *ck,
    const struct pgw_space *space, const struct pgw_check_root_opts *opts,
    struct pgw_findings_iter **it_ret, struct pgw_err *err);
enum pgw_status pgw_findings_iter_next(struct pgw_findings_iter *it,
    const struct pgw_finding **f_ret, struct pgw_err *err);
void pgw_findings_iter_free(struct pgw_findings_iter *it);

struct pgw_diff_side { bool mapped; uint64_t pa; uint64_t page_size;
    enum pgw_level level; uint32_t flags; uint32_t eff_flags; ...; };
struct pgw_diff_range { enum pgw_diff_kind kind; uint64_t va, end;
    struct pgw_diff_side a, b; unsigned changes;
    enum pgw_absence absence_a, absence_b; bool table_absent; ...; };
struct pgw_diff_opts { struct pgw_walk_opts walk; bool data; ...; };
struct pgw_diff_iter;
enum pgw_status pgw_diff_iter_new(const struct pgw_space *a,
    const struct pgw_space *b, const struct pgw_diff_opts *opts,
    struct pgw_diff_iter **it_ret, struct pgw_err *err);
enum pgw_status pgw_diff_iter_next(struct pgw_diff_iter *it,
    const struct pgw_diff_range **range_ret, struct pgw_err *err);
void pgw_diff_iter_free(struct pgw_diff_iter *it);

enum pgw_pattern_kind { PGW_PATTERN_STRING, PGW_PATTERN_WIDE,
    PGW_PATTERN_HEX, PGW_PATTERN_REGEX, PGW_PATTERN_YARA, ... };
#define PGW_SEARCH_CONTEXT_MAX ...
struct pgw_patterns;
enum pgw_status pgw_patterns_new(struct pgw_patterns **pat_ret,
    struct pgw_err *err);
enum pgw_status pgw_patterns_add(struct pgw_patterns *pat,
    enum pgw_pattern_kind kind, const char *text, struct pgw_err *err);
size_t pgw_patterns_count(const struct pgw_patterns *pat);
const char *pgw_pattern_kind_key(enum pgw_pattern_kind kind);
void pgw_patterns_free(struct pgw_patterns *pat);
struct pgw_search_opts { uint64_t start, end; uint64_t max_entries;
    size_t context; uint64_t max_hits; ...; };
struct pgw_search_hit { uint64_t addr; uint64_t pa; size_t pattern;
    enum pgw_pattern_kind kind; const char *text; const char *rule;
    const char *rule_string; const uint8_t *match; size_t size;
    uint64_t context_start; const uint8_t *context; size_t context_len;
    size_t before; uint64_t same_frame_pages; uint64_t page_size; ...; };
struct pgw_search_stats { uint64_t hits; uint64_t given;
    uint64_t bytes_searched; uint64_t not_in_image[...];
    uint64_t tables_not_in_image; ...; };
struct pgw_search_iter;
enum pgw_status pgw_search_iter_new(const struct pgw_patterns *pat,
    struct pgw_image *img, const struct pgw_space *space,
    const struct pgw_search_opts *opts, struct pgw_search_iter **it_ret,
    struct pgw_err *err);
enum pgw_status pgw_search_iter_next(struct pgw_search_iter *it,
    const struct pgw_search_hit **hit_ret, struct pgw_err *err);
void pgw_search_iter_stats(const struct pgw_search_iter *it,
    struct pgw_search_stats *stats_ret);
void pgw_search_iter_free(struct pgw_search_iter *it);

struct pgw_region { const char *key; uint64_t start; uint64_t end; ...; };
struct pgw_layout { size_t nregions; struct pgw_region region[...]; ...; };
struct pgw_layout_request { ...; };
enum pgw_status pgw_layout_resolve(const struct pgw_space *space,
    const struct pgw_layout_request *req, struct pgw_layout *layout_ret,
    struct pgw_err *err);

void pgwpy_translate_many(const struct pgw_space *space,
    struct pgw_xlat_cache *cache, const uint64_t *va, size_t n,
    uint64_t *pa, uint8_t *stop, uint8_t *absence);
void pgwpy_prefer_huge(const char *p, size_t n);
"""

# A batch's answers split into the arrays Python hands back, a chunk of
# answers at a time: the 64-byte pgw_answer of a million addresses would
# be 64 MiB and a Python loop over them a second.
SOURCE = r"""
#include <stdint.h>
#include <sys/mman.h>

#include <pgwalk.h>

#define PGWPY_CHUNK 1024

static void pgwpy_translate_many(const struct pgw_space *space,
				 struct pgw_xlat_cache *cache,
				 const uint64_t *va, size_t n, uint64_t *pa,
				 uint8_t *stop, uint8_t *absence)
{
	struct pgw_answer a[PGWPY_CHUNK];

	for (size_t i = 0; i < n; i += PGWPY_CHUNK) {
		size_t k = n - i < PGWPY_CHUNK ? n - i : PGWPY_CHUNK;

		pgw_translate_many(space, cache, va + i, k, a);
		for (size_t j = 0; j < k; j++) {
			pa[i + j] = a[j].stop == PGW_STOP_OK ? a[j].pa : 0;
			stop[i + j] = (uint8_t)a[j].stop;
			absence[i + j] = (uint8_t)a[j].absence;
		}
	}
}

/* A fresh read's buffer, not touched yet: faulted in 2 MiB at a time
 * rather than 4 KiB (transparent huge pages where the system allows
 * them on request): a first touch of 64 MiB is 32 faults, not 16384,
 * which were most of a big read's time. */
static void pgwpy_prefer_huge(const char *p, size_t n)
{
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t end = ((uintptr_t)p + n) & ~(huge - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
}
"""


def main():
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source("pgwalk._ffi", SOURCE)
    ffi.emit_c_code(sys.argv[1])


if __name__ == "__main__":
    main()
