"""A process's memory map (/proc/PID/maps from the image) and what its
page tables hold of each mapping (smaps)."""
from typing import NamedTuple, Optional, Tuple

from ._ffi import ffi, lib
from ._errors import check, cstr
from ._records import escape

_NAMING = ("none", "path", "named", "unknown")


class Vma(NamedTuple):
    """A VMA as /proc/PID/maps prints it: [start, end), perms ("rwxp"),
    pgoff, dev (major << 20 | minor), ino, and its name: naming "path"
    (a file: d_path's answer), "named" ([heap], [stack], [vdso],
    [anon:NAME] ...), "none", or "unknown" (the image does not say: why).
    name holds the raw bytes, name_str the same escaped for a terminal."""
    start: int
    end: int
    perms: str
    flags: int              # vm_flags
    pgoff: int
    dev: int
    ino: int
    naming: str
    name: bytes
    name_str: str
    huge_page_size: int
    vma: int                # its vm_area_struct (kernel VA)
    file: int               # its struct file (0: anonymous)
    why: str


class Maps(NamedTuple):
    """A process's VMAs in address order.  complete False: the tree or
    list ended early (why says where); the VMAs before it are kept.  exe:
    the running executable's path (None: none, or not known: exe_why)."""
    vmas: Tuple[Vma, ...]
    complete: bool
    why: str
    exe: Optional[bytes]
    exe_why: str


class VmaUsage(NamedTuple):
    """What the page tables hold of a VMA (smaps), in bytes: each byte in
    one of present, protnone, swap, other_np, empty and unknown (under a
    page table the image lacks); rss as smaps counts it; thp, hugetlb;
    not_in_image: present, the data not in the image."""
    present: int
    rss: int
    protnone: int
    swap: int
    other_np: int
    empty: int
    unknown: int
    thp: int
    hugetlb: int
    kernel_page_size: int
    not_in_image: int
    complete: bool


def maps(v):
    names = v.names
    out = []
    perms = ffi.new("char[5]")
    for i in range(v.n):
        x = v.vma[i]
        lib.pgw_vma_perms(x.flags, perms)
        name = bytes(ffi.buffer(names + x.name_at, x.name_len)) if x.name_len else b""
        out.append(Vma(x.start, x.end, ffi.string(perms, 4).decode(), x.flags,
                       x.pgoff, x.dev, x.ino, _NAMING[x.naming], name,
                       escape(name), x.huge_page_size, x.vma, x.file,
                       cstr(x.why)))
    exe = bytes(ffi.buffer(names + v.exe_at, v.exe_len)) if v.exe_len else None
    return Maps(tuple(out), bool(v.complete), cstr(v.why), exe, cstr(v.exe_why))


def c_vma(vma):
    """A struct pgw_vma for pgw_vma_measure, from a Vma."""
    c = ffi.new("struct pgw_vma *")
    c.vma, c.start, c.end, c.flags = vma.vma, vma.start, vma.end, vma.flags
    c.pgoff, c.file, c.dev, c.ino = vma.pgoff, vma.file, vma.dev, vma.ino
    c.huge_page_size = vma.huge_page_size
    c.naming = _NAMING.index(vma.naming)
    return c


def usage(u):
    return VmaUsage(u.present, u.rss, u.protnone, u.swap, u.other_np, u.empty,
                    u.unknown, u.thp, u.hugetlb, u.kernel_page_size,
                    u.not_in_image, bool(u.complete))
