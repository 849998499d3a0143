"""An opened image: its physical memory, its address spaces, and what the
library finds in them."""
import os
import threading
import weakref

from ._ffi import ffi, lib
from ._errors import InvalidArgument, check, cstr
from ._iter import WalkIterator
from ._keys import ABSENCES
from ._fresh import new_bytes
from ._space import Space
from ._rmap import ReverseMap
from . import _maps
from . import _records
from . import _search
from . import _info
from . import _check_all
from . import _search_roots


class Image:
    """A memory dump opened read-only (pgwalk.open).  A context manager;
    close() also stops its unfinished iterators.  The library allows one
    thread in an image at a time: calls from several threads take turns
    (a lock per image), each without the GIL while it runs."""

    def __init__(self, path, image_format=None, base=None):
        self._img = None
        self._lock = threading.RLock()
        self._iters = weakref.WeakSet()
        self._kernel = None
        self._check = None
        self._mm = None
        opts = ffi.new("struct pgw_image_open_opts *")
        fmt = None
        if image_format is not None:
            fmt = ffi.new("char[]", image_format.encode())
            opts.format = fmt
        if base is not None:
            opts.raw_base = base
        imgp = ffi.new("struct pgw_image **")
        err = ffi.new("struct pgw_err *")
        check(lib.pgw_image_open(imgp, os.fsencode(path), opts, err), err)
        self._img = imgp[0]
        self.path = cstr(lib.pgw_image_path(self._img))
        self.format = cstr(lib.pgw_image_format(self._img))

    def __repr__(self):
        state = "closed " if self._img is None else ""
        return "<pgwalk.Image %s%s %r>" % (state, self.format, self.path)

    def close(self):
        """Stop every iterator of the image, then close it."""
        with self._lock:
            for it in list(self._iters):
                it.close()
            if self._check is not None:
                lib.pgw_check_close(self._check)
                self._check = None
            if self._mm is not None:
                lib.pgw_linux_mm_close(self._mm)
                self._mm = None
            if self._img is not None:
                lib.pgw_image_close(self._img)
                self._img = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_img", None) is not None:
            self.close()

    def _use(self, *others):
        """The lock of this image (and others'), in one order; ValueError
        when one is closed."""
        return _Using((self,) + others)

    # ---- physical memory ------------------------------------------------

    def read_phys(self, pa, n):
        """n bytes of physical memory from pa: NotInImage (with .absence)
        when a page of them is not in the image; never zeros."""
        return new_bytes(n, lambda p, k: self._read_phys(pa, p, k))

    def readinto_phys(self, pa, buf):
        """Fill the writable buffer buf from physical pa, as read_phys()
        does (all or nothing); returns len(buf)."""
        cbuf = ffi.from_buffer(buf, require_writable=True)
        self._read_phys(pa, cbuf, len(cbuf))
        return len(cbuf)

    def _read_phys(self, pa, cbuf, n):
        err = ffi.new("struct pgw_err *")
        with self._use():
            check(lib.pgw_image_read(self._img, pa, cbuf, n, err), err)

    def info(self):
        """What `pgwalk info --format=json` says of the image, as Python
        values (its "0x..." strings as ints): the file (format, class,
        machine, completeness, pages by absence reason, facts, ranges),
        each CPU's registers, ring and PTI pairing, VMCOREINFO parsed and
        where it came from (the candidates memory held, when it was
        searched), the encryption bits and why, the paging mode, the root
        and why, and how the processes are named."""
        with self._use():
            return _info.info(self)

    # ---- address spaces -------------------------------------------------

    def space(self, cpu=None, cr3=None, root=None, pid=None, comm=None,
              mode=None, kernel=False, ttbr0=None, ttbr1=None):
        """The address space the CLI's --cpu, --cr3, --root, --pid, --comm,
        --ttbr0/--ttbr1 (at most one of them; arm64's two registers go
        together, and one alone keeps the other half: TTBR1 the kernel's,
        TTBR0 none) and --mode select; none: the kernel's own root (else
        CPU 0's CR3).  NotFound when there is no such CPU, process or
        root; InvalidArgument for a choice the mode has not (--cr3 on
        arm64, --ttbr0 on x86)."""
        req = ffi.new("struct pgw_space_request *")
        keep = []
        if mode is not None:
            keep.append(ffi.new("char[]", mode.encode()))
            req.mode = keep[-1]
        r = req.root
        if cpu is not None:
            r.have_cpu, r.cpu = True, cpu
        if cr3 is not None:
            r.have_cr3, r.cr3 = True, cr3
        if root is not None:
            r.have_table, r.table = True, root
        if pid is not None:
            r.have_pid, r.pid = True, pid
        if comm is not None:
            keep.append(ffi.new("char[]", os.fsencode(comm)))
            r.comm = keep[-1]
        r.kernel = kernel
        if ttbr0 is not None:
            r.have_ttbr0, r.ttbr0 = True, ttbr0
        if ttbr1 is not None:
            r.have_ttbr1, r.ttbr1 = True, ttbr1
        sp = ffi.new("struct pgw_space *")
        why = ffi.new("struct pgw_space_why *")
        err = ffi.new("struct pgw_err *")
        with self._use():
            check(lib.pgw_space_open(self._img, req, sp, why, err), err)
        task = why.root.source == lib.PGW_ROOT_TASK
        return Space(self, sp, cstr(why.root.why),
                     why.root.pid if task else None,
                     bytes(ffi.buffer(why.root.comm, why.root.comm_len))
                     if task else None)

    def kernel(self):
        """The kernel's own address space (VMCOREINFO's root, else the
        kernel-root scan's), never a CPU's CR3."""
        if self._kernel is None:
            self._kernel = self.space(kernel=True)
        return self._kernel

    def tasks(self):
        """The kernel's task list (list of Task), read through the kernel
        space.  NotInImage when a page it needs is not in the image."""
        k = self.kernel()
        tp = ffi.new("struct pgw_task **")
        np = ffi.new("size_t *")
        err = ffi.new("struct pgw_err *")
        with self._use():
            st = lib.pgw_linux_tasks(k._space, tp, np, err)
            try:
                tasks = [_records.task(tp[0][i]) for i in range(np[0])]
            finally:
                lib.pgw_linux_tasks_free(tp[0])
        check(st, err)
        return tasks

    def maps(self, pid):
        """Process pid's memory map as /proc/PID/maps prints it, read from
        the image through BTF: a Maps of Vma.  NotFound without BTF or
        kallsyms, or for no such process or a kernel thread; a map the
        image cut short is complete=False with why."""
        k = self.kernel()
        vp = ffi.new("struct pgw_vmas **")
        err = ffi.new("struct pgw_err *")
        with self._use():
            if self._linux_mm(err) is None:
                check(err.status, err)
            check(lib.pgw_linux_vmas_of_pid(self._mm, pid, vp, err), err)
            try:
                return _maps.maps(vp[0])
            finally:
                lib.pgw_vmas_free(vp[0])

    def _linux_mm(self, err):
        """The VMA reader, opened once (None, err saying why, when it
        cannot be: no BTF or kallsyms).  With the lock held."""
        if self._mm is None:
            lmp = ffi.new("struct pgw_linux_mm **")
            if lib.pgw_linux_mm_open(self.kernel()._space, lmp,
                                     err) != lib.PGW_OK:
                return None
            self._mm = lmp[0]
        return self._mm

    def _check_open(self):
        """What every root's check compares with, gathered once through
        the kernel's space.  With the lock held."""
        if self._check is None:
            err = ffi.new("struct pgw_err *")
            ckp = ffi.new("struct pgw_check **")
            check(lib.pgw_check_open(self.kernel()._space, ckp, err), err)
            self._check = ckp[0]
        return self._check

    def roots(self):
        """Every root in physical memory (pgwalk roots): a list of Root,
        the kernel's first.  Root.table opens with image.space(root=...)."""
        k = self.kernel()
        rp = ffi.new("struct pgw_roots **")
        opts = ffi.new("struct pgw_roots_opts *")
        err = ffi.new("struct pgw_err *")
        with self._use():
            check(lib.pgw_roots_scan(self._img, k._space.mode, k.root, opts,
                                     rp, err), err)
            try:
                return [_records.root(rp[0].root[i]) for i in range(rp[0].n)]
            finally:
                lib.pgw_roots_free(rp[0])

    # ---- questions of the whole image -----------------------------------

    def rmap(self, spaces=None):
        """A ReverseMap of spaces (default: the kernel's), to look up many
        physical addresses with one walk of each space."""
        return ReverseMap(self, [self.kernel()] if spaces is None else spaces)

    def ptov(self, pa, spaces=None):
        """Every virtual address that maps physical pa in spaces (default:
        the kernel's): an iterator of Hit, by space then va.  Walks each
        space; many addresses ask one rmap()."""
        return self.rmap(spaces).lookup(pa)

    def check(self, space=None, max_entries=0, all_roots=False):
        """What is wrong in a space (pgwalk check's findings), an iterator
        of Finding in address order: the kernel's space by default, all of
        it; another space's user half, and its kernel-half entries that are
        not the kernel root's.  all_roots=True: what `check --all-roots`
        reports, in its order: every root the roots scan finds (a
        process's user half, its VMAs' rules, its PTI user copy's kernel
        half), then the cross-view findings (kernel-half-mismatch,
        orphan-root, unowned-task); one entry budget for all of it.  Not
        in arm64's two-root mode (Unsupported)."""
        k = self.kernel()
        if all_roots:
            if space is not None:
                raise InvalidArgument("pgwalk: check: all_roots walks "
                                      "every root: no space to choose")
            with self._use():
                return _check_all.iterate(
                    *_check_all.findings(self, max_entries))
        space = k if space is None else space
        err = ffi.new("struct pgw_err *")
        opts = ffi.new("struct pgw_check_root_opts *")
        is_kernel = space.root == k.root
        opts.kernel_root = is_kernel
        opts.user_half_only = not is_kernel
        opts.compare_kernel_half = not is_kernel
        opts.max_entries = max_entries
        itp = ffi.new("struct pgw_findings_iter **")
        with self._use(*([space.image] if space.image is not self else [])):
            self._check_open()
            check(lib.pgw_findings_iter_new(self._check, space._space, opts,
                                            itp, err), err)
        return WalkIterator([self], itp[0], lib.pgw_findings_iter_next,
                            "const struct pgw_finding **", _records.finding,
                            lib.pgw_findings_iter_free)

    def search(self, string=None, hex=None, regex=None, yara=None,
               wide=False, space=None, phys=False, kernel_half=False,
               start=0, end=None, context=16, max_hits=0, max_entries=0,
               all_roots=False):
        """Where patterns lie in memory (pgwalk search): an iterator of
        SearchHit in address order.  Patterns: string= (str as UTF-8, or
        bytes), hex= ("4d5a??00"), regex= (POSIX ERE over bytes), yara=
        (a rules file; Unsupported without libyara), each one or a list;
        wide=True adds each string's UTF-16LE form.  Where: space (default
        the kernel's), PROT_NONE pages included, [start, end) of it (a
        process's space stops at its user half unless kernel_half=True,
        as the CLI's --pid); phys=True: physical memory instead, every
        frame the image describes once.  context bytes on each side (at
        most 4096); max_hits > 0 gives that many, counting the rest.  A
        page the image lacks is counted (summary()), never searched as
        zeros; LimitReached after the last hit when the entry budget cut
        the walk.  InvalidArgument for a pattern that is none.
        all_roots=True: physical memory searched once, then each hit
        named by every root `pgwalk roots` finds that maps its frame
        (pid, comm, va; the direct map too; once with va None when none
        does), as search --all-roots (roots walked within max_entries;
        space, when given, is the kernel's, as the CLI's --cr3 there)."""
        if all_roots:
            if phys:
                raise InvalidArgument("pgwalk: search: all_roots searches "
                                      "physical memory once: leave out "
                                      "phys=")
            hits = self.search(string, hex, regex, yara, wide, phys=True,
                               context=context, max_hits=max_hits)
            found = list(hits)
            with self._use():
                owners, rm, tables, cut = _search_roots.owners_map(
                    self, space or self.kernel(), max_entries)
            return _search.MappedHits(
                _search_roots.named(self, found, owners, rm),
                _search.map_summary(hits.summary(), tables, cut))
        pat = _search.patterns(string, hex, regex, yara, wide)
        if phys and space is not None:
            raise InvalidArgument("pgwalk: search: phys=True searches "
                                  "physical memory: no space to choose")
        if not phys and space is None:
            space = self.kernel()
        if space is not None and space.image is not self:
            raise InvalidArgument("pgwalk: search: the space is another "
                                  "image's")
        opts = ffi.new("struct pgw_search_opts *")
        opts.context = context
        opts.max_hits = max_hits
        opts.max_entries = max_entries
        if not phys:
            opts.start = start
            if end is None:
                end = (space.user_end() if space.pid is not None
                       and not kernel_half else 0)
            opts.end = end
        itp = ffi.new("struct pgw_search_iter **")
        err = ffi.new("struct pgw_err *")
        with self._use():
            check(lib.pgw_search_iter_new(
                pat, self._img, ffi.NULL if phys else space._space, opts,
                itp, err), err)
        return _search.SearchHits(self, itp[0], pat, None if phys else space,
                                  lib.pgw_patterns_count(pat))

    def diff(self, a, b, start=0, end=0, data=False, max_entries=0):
        """What changed from space a to space b (either may be of another
        image): an iterator of DiffRange in address order.  LimitReached,
        before any range, when a walk ran out of budget."""
        opts = ffi.new("struct pgw_diff_opts *")
        opts.walk.start = start
        opts.walk.end = end
        opts.walk.max_entries = max_entries
        opts.data = data
        itp = ffi.new("struct pgw_diff_iter **")
        err = ffi.new("struct pgw_err *")
        images = [a.image] + ([b.image] if b.image is not a.image else [])
        with images[0]._use(*images[1:]):
            check(lib.pgw_diff_iter_new(a._space, b._space, opts, itp, err),
                  err)
        return WalkIterator(images, itp[0], lib.pgw_diff_iter_next,
                            "const struct pgw_diff_range **",
                            _records.diff_range, lib.pgw_diff_iter_free)


class _Using:
    """Holds the locks of open images for a call."""

    def __init__(self, images):
        self._images = sorted(set(images), key=id)

    def __enter__(self):
        for i, img in enumerate(self._images):
            img._lock.acquire()
            if img._img is None:
                for held in self._images[:i + 1]:
                    held._lock.release()
                raise ValueError("pgwalk: the image is closed")

    def __exit__(self, *exc):
        for img in self._images:
            img._lock.release()
