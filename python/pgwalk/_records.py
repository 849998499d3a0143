"""What the library answers, as plain Python values (copied out of the C
structs, which live only until the next call)."""
from typing import NamedTuple, Optional, FrozenSet, Tuple

from ._ffi import ffi, lib
from ._errors import cstr
from ._keys import LEVELS, STOPS, DIFF_CHANGES, flag_names, absence


class Level(NamedTuple):
    """One level of a walk: the table read, the entry and what it says."""
    name: str               # "pgd" ... "pte"
    table: int              # physical address of the table
    entry_pa: int           # physical address of the entry
    index: int
    in_image: bool          # False: the table's page is not in the image
    raw: Optional[int]      # the entry (None when not in the image)
    kind: Optional[str]     # "table", "leaf", "not-present"
    flags: FrozenSet[str]


class Translation(NamedTuple):
    """pgw_translate's answer.  mapped: a frame was reached (pa, page_size);
    else stop says why (the contract's keys: "not-present",
    "table-not-in-image" ...).  A frame whose data the image lacks is
    mapped with data_absence set: its bytes are unknown, never zeros."""
    va: int
    mapped: bool
    stop: str
    pa: Optional[int]
    page_size: Optional[int]
    level: str
    data_absence: Optional[str]
    table_absence: Optional[str]
    flags: FrozenSet[str]   # effective permissions ("rw", "user", "nx")
    levels: Tuple[Level, ...]


_ENTRY_KIND = ("not-present", "table", "leaf")


def translation(x):
    levels = []
    for i in range(x.nsteps):
        s = x.step[i]
        ok = bool(s.read_ok)
        levels.append(Level(LEVELS[s.level], s.table, s.entry_pa, s.index, ok,
                            s.entry.raw if ok else None,
                            _ENTRY_KIND[s.entry.kind] if ok else None,
                            flag_names(s.entry.flags) if ok else frozenset()))
    mapped = x.stop == lib.PGW_STOP_OK
    return Translation(
        x.va, mapped, STOPS[x.stop], x.pa if mapped else None,
        x.page_size if mapped else None, LEVELS[x.level],
        absence(x.data_absence) if mapped else None,
        absence(x.table_absence), flag_names(x.eff_flags) if mapped
        else frozenset(), tuple(levels))


class Mapping(NamedTuple):
    """A run of a walk (dump's records): kind "map" (va..end maps pa
    onward, or one frame again and again: same_frame) or "hole" (stop
    says why nothing is mapped; absence when a page table is not in the
    image, so what it maps is unknown).  end 0 means 2**64."""
    kind: str
    va: int
    end: int
    level: str
    pa: Optional[int]
    page_size: Optional[int]
    flags: FrozenSet[str]   # effective permissions
    same_frame: bool
    stop: Optional[str]
    absence: Optional[str]


def mapping(r):
    if r.kind == lib.PGW_RUN_MAP:
        return Mapping("map", r.va, r.end, LEVELS[r.level], r.pa, r.page_size,
                       flag_names(r.eff_flags), bool(r.same_frame), None, None)
    return Mapping("hole", r.va, r.end, LEVELS[r.level], None, None,
                   frozenset(), False, STOPS[r.stop], absence(r.absence))


class Task(NamedTuple):
    """A task of the kernel's task list.  comm is the raw bytes; name the
    same with every byte that is not printable ASCII escaped (\\xNN), safe
    for a terminal.  root: the physical address of its mm->pgd (None: no
    mm, or why says why it is unknown)."""
    pid: int
    tgid: int
    comm: bytes
    name: str
    kthread: bool
    task: int
    mm: int
    pgd: int
    root: Optional[int]
    why: str


def escape(raw):
    """Bytes from an image, safe for a terminal: printable ASCII kept,
    backslash and every other byte as \\xNN."""
    return "".join(chr(b) if 0x20 <= b < 0x7f and b != 0x5c else "\\x%02x" % b
                   for b in raw)


def task(t):
    comm = bytes(ffi.buffer(t.comm, t.comm_len))
    return Task(t.pid, t.tgid, comm, escape(comm), bool(t.kthread), t.task,
                t.mm, t.pgd, t.pgd_pa if t.has_pgd_pa else None, cstr(t.why))


class Root(NamedTuple):
    """A root the scan found (pgwalk roots): its top table and kind."""
    table: int
    kind: str
    why: str
    pti_user: Optional[int]
    ncpus: int
    user_bytes: int


def root(f):
    return Root(f.table, cstr(lib.pgw_root_kind_key(f.kind)), cstr(f.why),
                f.pti_user or None, f.ncpus, f.user_bytes)


class Evidence(NamedTuple):
    level: str
    table: int
    index: int
    entry_pa: int
    entry: int


class Finding(NamedTuple):
    """A check finding: rule and severity keys, the range (None for
    findings without one), the root, the entries that show it, why, and
    the process that owns the root (pid, comm: raw bytes; None when
    unknown)."""
    rule: str
    severity: str
    va: Optional[int]
    end: Optional[int]
    root: Optional[int]
    evidence: Tuple[Evidence, ...]
    why: str
    pid: Optional[int] = None
    comm: Optional[bytes] = None


def finding(f):
    ev = tuple(Evidence(LEVELS[e.level], e.table, e.index, e.entry_pa, e.entry)
               for e in (f.evidence[i] for i in range(f.nevidence)))
    return Finding(cstr(lib.pgw_rule_key(f.rule)),
                   cstr(lib.pgw_severity_key(f.severity)),
                   f.va if f.has_range else None,
                   f.end if f.has_range else None,
                   f.root if f.has_root else None, ev, cstr(f.why),
                   f.owner.pid if f.owner != ffi.NULL else None,
                   bytes(ffi.buffer(f.owner.comm, f.owner.comm_len))
                   if f.owner != ffi.NULL else None)


class DiffSide(NamedTuple):
    pa: int
    page_size: int
    level: str
    flags: FrozenSet[str]   # effective permissions


class DiffRange(NamedTuple):
    """A range of a diff: kind "added", "removed", "changed" or
    "uncompared" (a page table, or with data a page, not in an image:
    absence_a/absence_b say why); a and b how each side maps it (None:
    not mapped there); changes what differs."""
    kind: str
    va: int
    end: int
    a: Optional[DiffSide]
    b: Optional[DiffSide]
    changes: FrozenSet[str]
    absence_a: Optional[str]
    absence_b: Optional[str]


def _side(s):
    if not s.mapped:
        return None
    return DiffSide(s.pa, s.page_size, LEVELS[s.level], flag_names(s.eff_flags))


def diff_range(r):
    changes = frozenset(k for i, k in enumerate(DIFF_CHANGES)
                        if r.changes >> i & 1)
    return DiffRange(cstr(lib.pgw_diff_kind_key(r.kind)), r.va, r.end,
                     _side(r.a), _side(r.b), changes, absence(r.absence_a),
                     absence(r.absence_b))


class Hit(NamedTuple):
    """A virtual address that maps a physical one (ptov): in space, va
    (and pages - 1 more pages of page_size after it, for a shared table
    mapping one frame everywhere)."""
    space: object
    pa: int
    va: int
    page_size: int
    pages: int
    level: str
    flags: FrozenSet[str]   # effective permissions
