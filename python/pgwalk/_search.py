"""image.search(): pgw_search's hits, one at a time."""
import os
from typing import NamedTuple, Optional

from ._ffi import ffi, lib
from ._errors import InvalidArgument, LimitReached, check, cstr
from ._iter import WalkIterator
from ._keys import ABSENCES


class SearchHit(NamedTuple):
    """One match: the fields of `pgwalk search --format=json`'s hit.  va
    (and root) is None in physical memory; pid and comm (raw bytes) when
    the space is a process's.  pattern is "kind:text" as the CLI names it
    (a YARA match "yara:RULE:$STRING"); match the bytes matched (size of
    them; .hex the CLI's hex); context the bytes around it, as far as they
    can be read, from context_start (an address of the same kind as va,
    or pa in physical memory).  same_frame_pages (with page_size): a
    shared table maps this frame at that many pages, else None."""
    pa: int
    va: Optional[int]
    root: Optional[int]
    pid: Optional[int]
    comm: Optional[bytes]
    pattern: str
    size: int
    match: bytes
    context_start: int
    context: bytes
    same_frame_pages: Optional[int]
    page_size: Optional[int]

    @property
    def hex(self):
        """The bytes matched in hex, as the CLI's hex field."""
        return self.match.hex()


def _texts(value, what):
    """A pattern argument as C strings: one str/bytes or an iterable."""
    if value is None:
        return []
    if isinstance(value, (str, bytes, os.PathLike)):
        value = [value]
    out = []
    for v in value:
        b = os.fsencode(v) if what == "yara" else (
            v.encode() if isinstance(v, str) else bytes(v))
        if b"\0" in b:
            raise InvalidArgument("pgwalk: search: a %s pattern holds a NUL "
                                  "byte" % what)
        out.append(b)
    return out


def patterns(string=None, hex=None, regex=None, yara=None, wide=False):
    """Compile the patterns as the CLI takes them (--string, each followed
    by its --wide form, then --hex, --regex, --yara): a cdata freed by
    the garbage collector."""
    err = ffi.new("struct pgw_err *")
    pp = ffi.new("struct pgw_patterns **")
    check(lib.pgw_patterns_new(pp, err), err)
    pat = ffi.gc(pp[0], lib.pgw_patterns_free)
    adds = []
    for s in _texts(string, "string"):
        adds.append((lib.PGW_PATTERN_STRING, s))
        if wide:
            adds.append((lib.PGW_PATTERN_WIDE, s))
    adds += [(lib.PGW_PATTERN_HEX, h) for h in _texts(hex, "hex")]
    adds += [(lib.PGW_PATTERN_REGEX, r) for r in _texts(regex, "regex")]
    adds += [(lib.PGW_PATTERN_YARA, y) for y in _texts(yara, "yara")]
    if not adds:
        raise InvalidArgument("pgwalk: search: give a pattern: string=, "
                              "hex=, regex= or yara=")
    for kind, text in adds:
        check(lib.pgw_patterns_add(pat, kind, text, err), err)
    return pat


class SearchHits(WalkIterator):
    """An iterator of SearchHit in address order (a pgw_search_iter).
    Once it ends, summary() is the CLI's summary record."""

    def __init__(self, image, it, pat, space, npatterns):
        self._pat = pat          # outlives the C iterator
        self._labels = {}
        self._npatterns = npatterns
        self._base = (None, None, None)
        if space is not None:
            self._base = (space.root, space.pid, space.comm)
        self._phys = space is None
        super().__init__([image], it, lib.pgw_search_iter_next,
                         "const struct pgw_search_hit **", self._hit,
                         lib.pgw_search_iter_free)
        self._stats = None
        self._budget = False

    def __next__(self):
        try:
            return super().__next__()
        except LimitReached:
            self._budget = True
            raise

    def _label(self, h):
        if h.rule != ffi.NULL:
            return "yara:%s:%s" % (cstr(h.rule), cstr(h.rule_string))
        label = self._labels.get(h.pattern)
        if label is None:
            label = "%s:%s" % (cstr(lib.pgw_pattern_kind_key(h.kind)),
                               cstr(h.text))
            self._labels[h.pattern] = label
        return label

    def _hit(self, h):
        root, pid, comm = self._base
        repeat = h.same_frame_pages > 1
        return SearchHit(
            h.pa, None if self._phys else h.addr, root, pid, comm,
            self._label(h), h.size, bytes(ffi.buffer(h.match, h.size)),
            h.context_start, bytes(ffi.buffer(h.context, h.context_len)),
            h.same_frame_pages if repeat else None,
            h.page_size if repeat else None)

    def close(self):
        if self._it is not None:
            st = ffi.new("struct pgw_search_stats *")
            lib.pgw_search_iter_stats(self._it, st)
            self._stats = st
        super().close()

    def summary(self):
        """The CLI's summary of the search once it ended (None before):
        patterns, hits (every match), listed (given, max_hits),
        bytes_searched, bytes_not_in_image with not_in_image by reason,
        tables_not_in_image, complete and, when not, reason."""
        s = self._stats
        if s is None or not (self.complete or self._budget):
            return None
        nii = {ABSENCES[i].replace("-", "_"): s.not_in_image[i]
               for i in range(1, len(ABSENCES))}
        unseen = sum(nii.values()) - nii["outside"]
        reason = ("budget" if self._budget else
                  "hit-limit" if s.hits > s.given else
                  "table-not-in-image" if s.tables_not_in_image else
                  "data-not-in-image" if unseen else None)
        out = {"patterns": self._npatterns, "hits": s.hits,
               "listed": s.given, "bytes_searched": s.bytes_searched,
               "bytes_not_in_image": sum(nii.values()),
               "not_in_image": nii,
               "tables_not_in_image": s.tables_not_in_image,
               "complete": reason is None}
        if reason is not None:
            out["reason"] = reason
        return out


class MappedHits:
    """search(all_roots=True)'s hits: each physical hit once per mapping
    of its frame (root, pid, comm, va), or once unmapped; computed whole
    when asked for (the roots are walked after the search, as the CLI
    does), given one at a time.  summary() is the CLI's summary record:
    the search's, with the tables the roots' walks could not read, and
    "budget" when the entry budget cut one."""

    def __init__(self, hits, summary):
        self._hits = iter(hits)
        self._summary = summary
        self.complete = summary["complete"]

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._hits)

    def close(self):
        self._hits = iter(())

    def summary(self):
        return self._summary


def map_summary(summary, tables, cut):
    """The search's summary once the roots' walks are in: as the CLI's
    conclude() says it (a budget cut first, then the hit limit, tables
    the image lacks, data it lacks)."""
    s = dict(summary)
    s["tables_not_in_image"] += tables
    reason = s.get("reason")
    if cut:
        reason = "budget"
    elif reason is None and s["tables_not_in_image"]:
        reason = "table-not-in-image"
    s.pop("reason", None)
    s["complete"] = reason is None
    if reason is not None:
        s["reason"] = reason
    return s
