"""An address space: an image, a paging mode and a root table."""
import array
import sys
from typing import NamedTuple, Any

from ._ffi import ffi, lib
from ._errors import check, error, cstr
from ._iter import WalkIterator
from . import _records, _maps
from ._fresh import new_bytes


class Answers(NamedTuple):
    """translate_many's answers, index for index: pa (0 where stop is not
    0), stop (enum pgw_stop: pgwalk.STOPS[code] is its key; 0 "ok") and
    absence (pgwalk.ABSENCES[code]: why a mapped frame's data, or a page
    table, is not in the image; 0: it is).  numpy arrays when the input
    was one, else array.array."""
    pa: Any
    stop: Any
    absence: Any


def _u64_input(vas):
    """vas as a C-contiguous buffer of uint64 (no copy when it is one)."""
    if type(vas).__module__ == "numpy":
        np = sys.modules["numpy"]
        return np.ascontiguousarray(vas, dtype=np.uint64), np
    try:
        m = memoryview(vas)
        if m.c_contiguous and m.itemsize == 8 and m.format in ("Q", "L", "K", "<Q", "=Q"):
            return m, None
    except TypeError:
        pass
    return array.array("Q", vas), None


class Space:
    """An address space of an image (Image.kernel(), Image.space()).
    mode: the paging mode's name; root: the top table's physical address
    (in a two-root mode, arm64's, the lower half's: TTBR0; root_upper the
    upper half's, TTBR1, else 0; 0 is a half without a table); why: how
    that root was chosen; pid and comm (raw bytes): the process whose
    space it is, when chosen by pid or comm.  Uses its image: valid while
    it is open."""

    def __init__(self, image, space, why, pid=None, comm=None):
        self.image = image
        self._space = space
        self.mode = cstr(space.mode.name)
        self.root = space.root
        self.root_upper = space.root_upper
        self.why = why
        self.pid = pid
        self.comm = comm
        self._cache = None

    def __repr__(self):
        upper = " root_upper=%#x" % self.root_upper if self.root_upper else ""
        return "<pgwalk.Space %s root=%#x%s>" % (self.mode, self.root, upper)

    def user_end(self):
        """Where the user half ends: the end of the layout's "user" region
        (else half the VA space), what the CLI's --pid and --comm stop at
        (pgw_layout_resolve)."""
        lay = ffi.new("struct pgw_layout *")
        req = ffi.new("struct pgw_layout_request *")
        err = ffi.new("struct pgw_err *")
        with self.image._use():
            check(lib.pgw_layout_resolve(self._space, req, lay, err), err)
        for i in range(lay.nregions):
            r = lay.region[i]
            if cstr(r.key) == "user" and r.end:
                return r.end
        return 1 << (self._space.mode.va_bits - 1)

    def translate(self, va):
        """Walk va down the page tables: a Translation with each level."""
        x = ffi.new("struct pgw_xlat *")
        with self.image._use():
            lib.pgw_translate(self._space, ffi.NULL, va, x)
        return _records.translation(x)

    def translate_error(self, va):
        """Why va's walk could not read its last table (the image's own
        message), or None when it did."""
        x = ffi.new("struct pgw_xlat *")
        err = ffi.new("struct pgw_err *")
        with self.image._use():
            lib.pgw_translate(self._space, ffi.NULL, va, x)
            st = lib.pgw_xlat_error(self._space, x, err)
        return None if st == lib.PGW_OK else str(error(st, err))

    def translate_many(self, vas):
        """Translate every address of vas (any sequence or buffer of
        integers, or a numpy array) in one call without the GIL, through a
        paging-structure cache kept with the space: Answers(pa, stop,
        absence)."""
        va, np = _u64_input(vas)
        n = len(va)
        if np is not None:
            pa = np.empty(n, np.uint64)
            stop = np.empty(n, np.uint8)
            why = np.empty(n, np.uint8)
        else:
            pa = array.array("Q", bytes(8 * n))
            stop = array.array("B", bytes(n))
            why = array.array("B", bytes(n))
        with self.image._use():
            if self._cache is None:
                cache = lib.pgw_xlat_cache_new()
                if cache == ffi.NULL:
                    raise MemoryError("pgw_xlat_cache_new")
                self._cache = ffi.gc(cache, lib.pgw_xlat_cache_free)
            lib.pgwpy_translate_many(
                self._space, self._cache,
                ffi.from_buffer("uint64_t[]", va),
                n, ffi.from_buffer("uint64_t[]", pa, require_writable=True),
                ffi.from_buffer("uint8_t[]", stop, require_writable=True),
                ffi.from_buffer("uint8_t[]", why, require_writable=True))
        return Answers(pa, stop, why)

    def read(self, va, n):
        """n bytes of virtual memory from va.  NotMapped or NotInImage at
        the first byte that cannot be read (never zeros); the exception's
        .data holds what was read before it.  The bytes are filled in
        place (_fresh.py); readinto() reuses a buffer of the caller's."""
        return new_bytes(n, lambda p, k: self._read(va, p, k))

    def readinto(self, va, buf):
        """Fill the writable buffer buf from va (len(buf) bytes), as
        read() does; returns how many bytes that is."""
        cbuf = ffi.from_buffer(buf, require_writable=True)
        self._read(va, cbuf, len(cbuf))
        return len(cbuf)

    def _read(self, va, cbuf, n):
        done = ffi.new("size_t *")
        err = ffi.new("struct pgw_err *")
        with self.image._use():
            st = lib.pgw_read_virt(self._space, va, cbuf, n, done, err)
        if st != lib.PGW_OK:
            e = error(st, err)
            e.data = bytes(ffi.buffer(cbuf, done[0]))
            raise e

    def measure(self, vma):
        """What this space's page tables hold of vma (a Vma of
        Image.maps()), as smaps counts it: a VmaUsage in bytes.  Its
        complete is False when the entry budget stopped the walk."""
        u = ffi.new("struct pgw_vma_usage *")
        err = ffi.new("struct pgw_err *")
        with self.image._use():
            st = lib.pgw_vma_measure(self._space, _maps.c_vma(vma), u,
                                     ffi.NULL, ffi.NULL, err)
        if st != lib.PGW_E_LIMIT:
            check(st, err)
        return _maps.usage(u)

    def mappings(self, start=0, end=0, holes=False, max_entries=0):
        """The space's runs in address order (pgwalk dump's records), an
        iterator of Mapping: "map" runs, and with holes=True the "hole"
        runs too -- ask for them to see the ones whose page table is not
        in the image (.absence).  LimitReached after the last run when the
        entry budget stopped the walk."""
        opts = ffi.new("struct pgw_run_opts *")
        opts.walk.start = start
        opts.walk.end = end
        opts.walk.max_entries = max_entries
        itp = ffi.new("struct pgw_runs_iter **")
        err = ffi.new("struct pgw_err *")
        with self.image._use():
            check(lib.pgw_runs_iter_new(self._space, opts, itp, err), err)
        runs = WalkIterator([self.image], itp[0], lib.pgw_runs_iter_next,
                            "const struct pgw_run **", _records.mapping,
                            lib.pgw_runs_iter_free)
        if holes:
            return runs
        return _MapsOnly(runs)


class _MapsOnly:
    """The map runs of a runs iterator.  .unknown counts the bytes under
    page tables the image lacks (what they map is unknown): complete is
    True only when the walk ended whole and that is 0."""

    def __init__(self, runs):
        self._runs = runs
        self.unknown = 0

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            m = next(self._runs)
            if m.kind == "map":
                return m
            if m.absence is not None:
                self.unknown += (m.end - m.va) % (1 << 64) or 1 << 64

    @property
    def complete(self):
        return self._runs.complete and not self.unknown

    def close(self):
        self._runs.close()
