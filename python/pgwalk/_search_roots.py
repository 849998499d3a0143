"""image.search(all_roots=True): physical memory searched once, then each
hit named by every root that maps its frame -- the library's calls
composed as src/cli/search_roots.c and owned_roots.c compose them: every
root the roots scan finds, named by the task list; the kernel root
walked whole, every other root's user half through its PTI user copy
(the permissions user mode runs with) and its kernel half too where it
differs from the kernel root's; one reverse map of all of them, looked
up at each hit's frame (PROT_NONE pages too)."""
from ._ffi import ffi, lib
from ._errors import check


def _walks(roots, i, mode):
    """Root i's stretches to walk: (table, upper, start, end)."""
    f = roots.root[i]
    if i == 0 and mode.root_select_bit:
        return [(0, f.table, 0, 0)]      # the kernel's is the upper root
    if i == 0:
        return [(f.table, 0, 0, 0)]
    walks = [(f.pti_user or f.table, 0, 0, roots.kernel_start)]
    if f.ndiffs:
        walks.append((f.table, 0, roots.kernel_start, 0))
    return walks


def owners_map(image, kernel, max_entries):
    """([(root, pid, comm)] per root, a finished pgw_rmap cdata, the
    tables the walks could not read, whether a budget cut a walk).  With
    the image's lock held."""
    k = kernel._space
    img = image._img
    err = ffi.new("struct pgw_err *")
    ro = ffi.new("struct pgw_roots_opts *")
    ro.scan.max_entries = max_entries
    ro.scan.enc = k.enc
    rp = ffi.new("struct pgw_roots **")
    check(lib.pgw_roots_scan(img, k.mode, k.root, ro, rp, err), err)
    roots = rp[0]
    tp = ffi.new("struct pgw_task **")
    np = ffi.new("size_t *")
    vp = ffi.new("struct pgw_roots_view **")
    vp[0] = ffi.NULL
    rmp = ffi.new("struct pgw_rmap **")
    try:
        lib.pgw_linux_tasks(k, tp, np, ffi.new("struct pgw_err *"))
        if np[0]:
            check(lib.pgw_roots_view_build(roots, tp[0], np[0], vp, err), err)
        view = vp[0]
        owners = []
        for i in range(roots.n):
            owner = (roots.root[i].table, None, None)
            if view != ffi.NULL and view.first_owner[i] < view.first_owner[i + 1]:
                t = tp[0][view.owner[view.first_owner[i]]]
                owner = (owner[0], t.pid, bytes(ffi.buffer(t.comm, t.comm_len)))
            owners.append(owner)
        check(lib.pgw_rmap_new(rmp, err), err)
        rm = ffi.gc(rmp[0], lib.pgw_rmap_free)
        cut = not roots.scan.complete
        sp = ffi.new("struct pgw_space *")
        sp.img, sp.mode, sp.enc = img, k.mode, k.enc
        wo = ffi.new("struct pgw_walk_opts *")
        wo.max_entries = max_entries
        for i in range(roots.n):
            for sp.root, sp.root_upper, wo.start, wo.end in _walks(roots, i, k.mode):
                st = lib.pgw_rmap_add(rm, sp, wo, i, ffi.NULL, err)
                if st == lib.PGW_E_LIMIT:
                    cut = True
                else:
                    check(st, err)
        lib.pgw_rmap_finish(rm)
        stats = ffi.new("struct pgw_rmap_stats *")
        lib.pgw_rmap_stats(rm, stats)
        return owners, rm, stats.tables_not_in_image, cut
    finally:
        lib.pgw_roots_view_free(vp[0])
        lib.pgw_linux_tasks_free(tp[0])
        lib.pgw_roots_free(roots)


def named(image, hits, owners, rm):
    """Each hit once per mapping of its frame (by root, then va), or once
    unmapped (va and root None)."""
    out = []
    with image._use():
        for h in hits:
            n = lib.pgw_rmap_lookup(rm, h.pa, ffi.NULL, 0)
            maps = ffi.new("struct pgw_rmap_hit[]", max(n, 1))
            n = lib.pgw_rmap_lookup(rm, h.pa, maps, n)
            if n == 0:
                out.append(h)
            for m in (maps[i] for i in range(n)):
                root, pid, comm = owners[m.owner]
                repeat = m.pages > 1
                out.append(h._replace(
                    va=m.va, root=root, pid=pid, comm=comm,
                    same_frame_pages=m.pages if repeat else None,
                    page_size=m.page_size if repeat else None))
    return out
