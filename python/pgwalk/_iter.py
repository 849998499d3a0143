"""One Python iterator over the library's pull iterators (pgw_*_iter)."""
from ._ffi import ffi
from ._errors import error


class WalkIterator:
    """Items one at a time, converted before the next call (the C item
    lives only until then).  A walk that ended short (LimitReached, a read
    error) raises after every item it found.  close() (or the image's)
    stops a walk not finished; .complete is True once it ended whole."""

    def __init__(self, images, it, next_fn, item_type, convert, free_fn):
        self._images = images
        self._it = it
        self._next = next_fn
        self._item = ffi.new(item_type)
        self._convert = convert
        self._free = free_fn
        self._err = ffi.new("struct pgw_err *")
        self.complete = False
        for img in images:
            img._iters.add(self)

    def __iter__(self):
        return self

    def __next__(self):
        if self._it is None:
            raise StopIteration
        with self._images[0]._use(*self._images[1:]):
            st = self._next(self._it, self._item, self._err)
            item = self._item[0]
            if item != ffi.NULL:
                return self._convert(item)
        self.close()
        if st:
            raise error(st, self._err)
        self.complete = True
        raise StopIteration

    def close(self):
        """Stop the walk and free it (nothing once it ended)."""
        if self._it is not None:
            self._free(self._it)
            self._it = None
            for img in self._images:
                img._iters.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()
