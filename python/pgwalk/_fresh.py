"""New bytes objects the library fills in place (Space.read,
Image.read_phys): one allocation, touched once.  bytes(n) comes from
calloc, its pages not yet faulted in; it is written through a pointer
before anyone else holds it, so it is never seen changing.  A copy out of
a bytearray instead cost a second allocation and its faults: 64 MiB read
at 0.2 GB/s, against 3 GB/s into a buffer already touched."""
from ._ffi import ffi, lib

# Smaller reads go through a bytearray (a copy costs less than the call
# here); bytes(0) and bytes(1) are objects the interpreter shares.
FRESH_MIN = 1 << 16


def new_bytes(n, fill):
    """A new bytes object of n bytes that fill(pointer, n) writes (it
    raises when it cannot)."""
    if n < FRESH_MIN:
        buf = bytearray(n)
        fill(ffi.from_buffer(buf, require_writable=True), n)
        return bytes(buf)
    out = bytes(n)
    p = ffi.from_buffer(out)
    lib.pgwpy_prefer_huge(p, n)
    fill(p, n)
    return out
