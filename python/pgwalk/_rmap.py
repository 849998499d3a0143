"""Physical to virtual: the reverse map of some address spaces."""
from ._ffi import ffi, lib
from ._errors import check
from ._keys import LEVELS, flag_names
from ._records import Hit


class ReverseMap:
    """Every virtual address that maps a physical one, in the spaces given
    (Image.rmap): each space walked once when it is built (pgw_rmap), then
    lookup(pa) as often as wanted.  .incomplete lists the spaces whose walk
    the entry budget cut short (what it saw is kept)."""

    def __init__(self, image, spaces):
        self._image = image
        self.spaces = list(spaces)
        self.incomplete = []
        rmp = ffi.new("struct pgw_rmap **")
        err = ffi.new("struct pgw_err *")
        opts = ffi.new("struct pgw_walk_opts *")
        with image._use(*{s.image for s in self.spaces} - {image}):
            check(lib.pgw_rmap_new(rmp, err), err)
            self._rm = ffi.gc(rmp[0], lib.pgw_rmap_free)
            for i, sp in enumerate(self.spaces):
                st = lib.pgw_rmap_add(self._rm, sp._space, opts, i, ffi.NULL,
                                      err)
                if st == lib.PGW_E_LIMIT:
                    self.incomplete.append(sp)
                else:
                    check(st, err)
            lib.pgw_rmap_finish(self._rm)

    def lookup(self, pa):
        """The mappings of pa: an iterator of Hit, by space then va."""
        with self._image._use():
            n = lib.pgw_rmap_lookup(self._rm, pa, ffi.NULL, 0)
            hits = ffi.new("struct pgw_rmap_hit[]", max(n, 1))
            n = lib.pgw_rmap_lookup(self._rm, pa, hits, n)
        return iter([Hit(self.spaces[h.owner], h.pa, h.va, h.page_size,
                         h.pages, LEVELS[h.level], flag_names(h.eff_flags))
                     for h in (hits[i] for i in range(n))])
