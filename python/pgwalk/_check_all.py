"""Image.check(all_roots=True): what `pgwalk check --all-roots` reports,
in its order.  The library's calls composed as src/cli/cmd_check.c's
check_all composes them: the roots scan (one entry budget for the scan
and every walk), the task list and its cross-view, each root that is a
page-table root walked (a process's user half, with its VMAs' rules and
its PTI user copy's kernel half), then the cross-view findings
(kernel-half-mismatch, orphan-root, unowned-task)."""
from ._ffi import ffi, lib
from ._errors import LimitReached, Unsupported, check
from . import _records


@ffi.def_extern()
def pgwpy_on_finding(arg, f):
    ffi.from_handle(arg).append(_records.finding(f))
    return 0


class _Run:
    def __init__(self, image, kernel, max_entries):
        self.image = image
        self.kernel = kernel
        self.left = max_entries or lib.pgw_default_budget(image._img)
        self.cut = False
        self.found = []
        self.handle = ffi.new_handle(self.found)
        self.err = ffi.new("struct pgw_err *")

    def charge(self, entries):
        self.left -= min(entries, self.left)

    def root(self, table, opts):
        """One root's walk (pgw_check_root) within what is left."""
        if self.left == 0:
            self.cut = True
            return
        opts.max_entries = self.left
        sp = ffi.new("struct pgw_space *")
        sp.img, sp.mode, sp.root = self.image._img, self.kernel.mode, table
        sp.enc = self.kernel.enc
        st = ffi.new("struct pgw_check_stats *")
        rc = lib.pgw_check_root(self.image._check, sp, opts,
                                lib.pgwpy_on_finding, self.handle, st,
                                self.err)
        self.charge(st.walk.entries)
        if rc == lib.PGW_E_LIMIT:
            self.cut = True
        elif rc != lib.PGW_OK:
            check(rc, self.err)
        return sp

    def vmas(self, user, owner):
        """A process's VMA rules, when its VMAs can be read whole (the
        CLI's summary says why not; so does nothing here)."""
        lm = self.image._linux_mm(self.err)
        if lm is None or owner == ffi.NULL or not owner.mm:
            return
        vp = ffi.new("struct pgw_vmas **")
        if lib.pgw_linux_vmas(lm, owner.mm, vp, self.err) != lib.PGW_OK:
            return
        try:
            if not vp[0].complete:
                return
            rc = lib.pgw_check_vmas(self.image._check, user, vp[0], owner,
                                    self.left, lib.pgwpy_on_finding,
                                    self.handle, self.err)
        finally:
            lib.pgw_vmas_free(vp[0])
        if rc == lib.PGW_E_LIMIT:
            self.cut = True
        elif rc != lib.PGW_OK:
            check(rc, self.err)


def findings(image, max_entries):
    """Every finding, as a list, and whether a budget cut the check.
    Called with the image's lock held."""
    k = image.kernel()._space
    if k.mode.root_select_bit:
        raise Unsupported("pgwalk: check: all_roots in a mode with two "
                          "roots (arm64) is not bound: check each "
                          "process's space")
    run = _Run(image, k, max_entries)
    image._check_open()
    img = image._img
    ro = ffi.new("struct pgw_roots_opts *")
    ro.scan.max_entries = run.left
    ro.scan.enc = k.enc
    rp = ffi.new("struct pgw_roots **")
    check(lib.pgw_roots_scan(img, k.mode, k.root, ro, rp, run.err), run.err)
    roots = rp[0]
    tp = ffi.new("struct pgw_task **")
    np = ffi.new("size_t *")
    vp = ffi.new("struct pgw_roots_view **")
    vp[0] = ffi.NULL
    try:
        run.charge(roots.scan.entries)
        tst = lib.pgw_linux_tasks(k, tp, np, ffi.new("struct pgw_err *"))
        if np[0]:
            check(lib.pgw_roots_view_build(roots, tp[0], np[0], vp,
                                           run.err), run.err)
        view = vp[0]
        if not roots.scan.complete or tst == lib.PGW_E_LIMIT:
            run.cut = True
        for i in range(roots.n):
            f = roots.root[i]
            if not lib.pgw_check_kind(f.kind):
                continue
            kernel = f.table == roots.kernel_root
            opts = ffi.new("struct pgw_check_root_opts *")
            opts.kernel_root = kernel
            opts.user_half_only = not kernel
            if view != ffi.NULL and view.first_owner[i] < view.first_owner[i + 1]:
                opts.owner = tp[0] + view.owner[view.first_owner[i]]
            sp = run.root(f.table, opts)
            if sp is not None and not kernel and f.kind == lib.PGW_RK_PROCESS:
                run.vmas(sp, opts.owner)
            if f.pti_user:
                user = ffi.new("struct pgw_check_root_opts *")
                user.kernel_half_only = True
                user.owner = opts.owner
                run.root(f.pti_user, user)
        rc = lib.pgw_check_roots(image._check, roots,
                                 tp[0] if np[0] else ffi.NULL, view,
                                 lib.pgwpy_on_finding, run.handle, run.err)
        check(rc, run.err)
    finally:
        lib.pgw_roots_view_free(vp[0])
        lib.pgw_linux_tasks_free(tp[0])
        lib.pgw_roots_free(roots)
    return run.found, run.cut


def iterate(found, cut):
    """The findings one at a time; LimitReached after the last when an
    entry budget cut the check short (roots unwalked, or walks cut)."""
    yield from found
    if cut:
        raise LimitReached("pgwalk: check: the entry budget stopped the "
                           "check: roots or parts of them were not walked")
