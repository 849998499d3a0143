# Type hints of the pgwalk package (the docstrings are in the modules).
import array
import os
from typing import (Any, FrozenSet, Iterable, Iterator, List, NamedTuple,
                    Optional, Sequence, Tuple, Union)

__version__: str
LEVELS: Tuple[str, ...]
STOPS: Tuple[str, ...]
ABSENCES: Tuple[Optional[str], ...]
FLAGS: Tuple[str, ...]

class Error(Exception):
    status: Optional[str]
class InvalidArgument(Error, ValueError): ...
class ImageIOError(Error, OSError): ...
class BadImage(Error): ...
class Unsupported(Error): ...
class NotFound(Error, LookupError): ...
class LimitReached(Error): ...
class NotInImage(Error):
    absence: Optional[str]
    data: bytes
class NotMapped(Error):
    data: bytes
class OutOfMemory(Error, MemoryError): ...

class Level(NamedTuple):
    name: str
    table: int
    entry_pa: int
    index: int
    in_image: bool
    raw: Optional[int]
    kind: Optional[str]
    flags: FrozenSet[str]

class Translation(NamedTuple):
    va: int
    mapped: bool
    stop: str
    pa: Optional[int]
    page_size: Optional[int]
    level: str
    data_absence: Optional[str]
    table_absence: Optional[str]
    flags: FrozenSet[str]
    levels: Tuple[Level, ...]

class Answers(NamedTuple):
    pa: Any      # array.array('Q') or numpy.ndarray(uint64)
    stop: Any    # array.array('B') or numpy.ndarray(uint8)
    absence: Any

class Mapping(NamedTuple):
    kind: str
    va: int
    end: int
    level: str
    pa: Optional[int]
    page_size: Optional[int]
    flags: FrozenSet[str]
    same_frame: bool
    stop: Optional[str]
    absence: Optional[str]

class Task(NamedTuple):
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

class Root(NamedTuple):
    table: int
    kind: str
    why: str
    pti_user: Optional[int]
    ncpus: int
    user_bytes: int

class Vma(NamedTuple):
    start: int
    end: int
    perms: str
    flags: int
    pgoff: int
    dev: int
    ino: int
    naming: str
    name: bytes
    name_str: str
    huge_page_size: int
    vma: int
    file: int
    why: str

class Maps(NamedTuple):
    vmas: Tuple[Vma, ...]
    complete: bool
    why: str
    exe: Optional[bytes]
    exe_why: str

class VmaUsage(NamedTuple):
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

class Evidence(NamedTuple):
    level: str
    table: int
    index: int
    entry_pa: int
    entry: int

class Finding(NamedTuple):
    rule: str
    severity: str
    va: Optional[int]
    end: Optional[int]
    root: Optional[int]
    evidence: Tuple[Evidence, ...]
    why: str
    pid: Optional[int]
    comm: Optional[bytes]

class DiffSide(NamedTuple):
    pa: int
    page_size: int
    level: str
    flags: FrozenSet[str]

class DiffRange(NamedTuple):
    kind: str
    va: int
    end: int
    a: Optional[DiffSide]
    b: Optional[DiffSide]
    changes: FrozenSet[str]
    absence_a: Optional[str]
    absence_b: Optional[str]

class Hit(NamedTuple):
    space: Space
    pa: int
    va: int
    page_size: int
    pages: int
    level: str
    flags: FrozenSet[str]

class SearchHit(NamedTuple):
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
    def hex(self) -> str: ...

class WalkIterator(Iterator[Any]):
    complete: bool
    def close(self) -> None: ...

class Mappings(Iterator[Mapping]):
    complete: bool
    unknown: int
    def close(self) -> None: ...

class SearchHits(Iterator[SearchHit]):
    complete: bool
    def close(self) -> None: ...
    def summary(self) -> Optional[dict]: ...

_Buffer = Any  # anything with the buffer protocol
_Texts = Union[str, bytes, Iterable[Union[str, bytes]], None]

class Space:
    image: Image
    mode: str
    root: int
    root_upper: int
    why: str
    pid: Optional[int]
    comm: Optional[bytes]
    def user_end(self) -> int: ...
    def translate(self, va: int) -> Translation: ...
    def translate_error(self, va: int) -> Optional[str]: ...
    def translate_many(self, vas: Union[Iterable[int], _Buffer]) -> Answers: ...
    def read(self, va: int, n: int) -> bytes: ...
    def readinto(self, va: int, buf: _Buffer) -> int: ...
    def measure(self, vma: Vma) -> VmaUsage: ...
    def mappings(self, start: int = ..., end: int = ..., holes: bool = ...,
                 max_entries: int = ...) -> Mappings: ...

class ReverseMap:
    spaces: List[Space]
    incomplete: List[Space]
    def lookup(self, pa: int) -> Iterator[Hit]: ...

class Image:
    path: str
    format: str
    def close(self) -> None: ...
    def __enter__(self) -> Image: ...
    def __exit__(self, *exc: Any) -> None: ...
    def read_phys(self, pa: int, n: int) -> bytes: ...
    def readinto_phys(self, pa: int, buf: _Buffer) -> int: ...
    def info(self) -> dict: ...
    def space(self, cpu: Optional[int] = ..., cr3: Optional[int] = ...,
              root: Optional[int] = ..., pid: Optional[int] = ...,
              comm: Union[str, bytes, None] = ..., mode: Optional[str] = ...,
              kernel: bool = ..., ttbr0: Optional[int] = ...,
              ttbr1: Optional[int] = ...) -> Space: ...
    def kernel(self) -> Space: ...
    def tasks(self) -> List[Task]: ...
    def roots(self) -> List[Root]: ...
    def maps(self, pid: int) -> Maps: ...
    def rmap(self, spaces: Optional[Iterable[Space]] = ...) -> ReverseMap: ...
    def ptov(self, pa: int, spaces: Optional[Iterable[Space]] = ...) -> Iterator[Hit]: ...
    def check(self, space: Optional[Space] = ..., max_entries: int = ...,
              all_roots: bool = ...) -> Iterator[Finding]: ...
    def diff(self, a: Space, b: Space, start: int = ..., end: int = ...,
             data: bool = ..., max_entries: int = ...) -> WalkIterator: ...
    def search(self, string: _Texts = ..., hex: _Texts = ...,
               regex: _Texts = ..., yara: Union[str, os.PathLike,
                                               Iterable[Union[str, os.PathLike]],
                                               None] = ...,
               wide: bool = ..., space: Optional[Space] = ...,
               phys: bool = ..., kernel_half: bool = ..., start: int = ...,
               end: Optional[int] = ..., context: int = ...,
               max_hits: int = ..., max_entries: int = ...,
               all_roots: bool = ...) -> Iterator[SearchHit]: ...

def open(path: Union[str, bytes, os.PathLike], image_format: Optional[str] = ...,
         base: Optional[int] = ...) -> Image: ...
