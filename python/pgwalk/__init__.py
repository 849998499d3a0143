"""pgwalk: walk x86 page tables inside memory dumps, from Python.

    import pgwalk
    with pgwalk.open("vmcore.elf") as image:
        k = image.kernel()
        t = k.translate(0xffffffff81000000)
        for task in image.tasks(): ...

A binding of libpgwalk (python/README.md says how and why cffi).  Answers
are exact or raise: a page the image does not hold is NotInImage, never
zeros; a walk cut short raises LimitReached after what it found.
"""
from ._ffi import lib as _lib
from ._errors import (Error, InvalidArgument, ImageIOError, BadImage,
                      Unsupported, NotFound, LimitReached, NotInImage,
                      NotMapped, OutOfMemory, cstr as _cstr)
from ._keys import LEVELS, STOPS, ABSENCES, FLAGS
from ._image import Image
from ._space import Space, Answers
from ._rmap import ReverseMap
from ._maps import Maps, Vma, VmaUsage
from ._records import (Translation, Level, Mapping, Task, Root, Finding,
                       Evidence, DiffRange, DiffSide, Hit)
from ._search import SearchHit, SearchHits

__version__ = _cstr(_lib.pgw_version())

__all__ = [
    "open", "Image", "Space", "Answers", "ReverseMap", "Translation", "Level", "Mapping",
    "Task", "Root", "Maps", "Vma", "VmaUsage", "Finding", "Evidence", "DiffRange", "DiffSide", "Hit",
    "SearchHit", "SearchHits",
    "Error", "InvalidArgument", "ImageIOError", "BadImage", "Unsupported",
    "NotFound", "LimitReached", "NotInImage", "NotMapped", "OutOfMemory",
    "LEVELS", "STOPS", "ABSENCES", "FLAGS", "__version__",
]


def open(path, image_format=None, base=None):
    """Open a memory dump read-only: an Image.  image_format names the
    format (pgwalk --format: "elf", "kdump", "raw" ...; None: probe); base
    is a raw image's physical address of byte 0."""
    return Image(path, image_format, base)
