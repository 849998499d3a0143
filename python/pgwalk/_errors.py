"""The exceptions, one per class of the output contract's exit statuses,
and the one place a library status becomes one of them."""
from ._ffi import ffi, lib


class Error(Exception):
    """Anything libpgwalk refused; .status is the library's status name."""
    status = None


class InvalidArgument(Error, ValueError):
    """Something impossible was asked (exit status 64's class)."""


class ImageIOError(Error, OSError):
    """The operating system refused to open or read the image (66)."""


class BadImage(Error):
    """The image is malformed, truncated where it matters, or unknown (65)."""


class Unsupported(Error):
    """Valid input this build cannot handle: a missing codec or library (69)."""


class NotFound(Error, LookupError):
    """No such CPU, process, mode or root (3)."""


class LimitReached(Error):
    """A safety bound (the entry budget) stopped the walk (4).  What was
    yielded before it is valid; the answer is not complete."""


class NotInImage(Error):
    """The page is not in the image: never read as zeros.  .absence says
    why ("outside", "excluded", "truncated", "missing", "other-file",
    "corrupt"); for reads .data holds the bytes read before it."""
    absence = None
    data = b""


class NotMapped(Error):
    """The virtual address does not translate (not present, non-canonical,
    a page table not in the image ...: the message says which and where);
    for reads .data holds the bytes read before it."""
    data = b""


class OutOfMemory(Error, MemoryError):
    """The library could not allocate."""


_BY_STATUS = {
    lib.PGW_E_ARG: InvalidArgument,
    lib.PGW_E_IO: ImageIOError,
    lib.PGW_E_FORMAT: BadImage,
    lib.PGW_E_UNSUPPORTED: Unsupported,
    lib.PGW_E_NOMEM: OutOfMemory,
    lib.PGW_E_NODATA: NotInImage,
    lib.PGW_E_NOTFOUND: NotFound,
    lib.PGW_E_LIMIT: LimitReached,
    lib.PGW_E_UNMAPPED: NotMapped,
}


def cstr(p):
    """A C string as str (NULL: None); bytes that are not UTF-8 escaped."""
    if p == ffi.NULL:
        return None
    return ffi.string(p).decode("utf-8", "backslashreplace")


def error(status, err):
    """The exception for a failed call's status and struct pgw_err."""
    cls = _BY_STATUS.get(status, Error)
    msg = cstr(err.msg) or cstr(lib.pgw_status_name(status))
    e = cls(msg)
    e.status = cstr(lib.pgw_status_name(status))
    if cls is ImageIOError and err.errnum:
        e.errno = err.errnum
    if cls is NotInImage:
        e.absence = cstr(lib.pgw_absence_key(err.absence))
    return e


def check(status, err):
    """Raise the exception for status unless it is PGW_OK."""
    if status != lib.PGW_OK:
        raise error(status, err)


for _cls in (Error, InvalidArgument, ImageIOError, BadImage, Unsupported,
             NotFound, LimitReached, NotInImage, NotMapped, OutOfMemory):
    _cls.__module__ = "pgwalk"
