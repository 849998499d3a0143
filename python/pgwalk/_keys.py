"""The library's stable keys, read once from it (never restated here)."""
from ._ffi import ffi, lib
from ._errors import cstr

LEVELS = ("pgd", "p4d", "pud", "pmd", "pte")
ABSENCES = tuple(cstr(lib.pgw_absence_key(i)) for i in range(lib.PGW_NABSENCES))
STOPS = tuple(cstr(lib.pgw_stop_key(i)) for i in range(lib.PGW_NSTOPS))
FLAGS = tuple(cstr(lib.pgw_flag_name(i)) for i in range(lib.PGW_NFLAGS))
DIFF_CHANGES = tuple(cstr(lib.pgw_diff_change_key(i))
                     for i in range(lib.PGW_NDIFF_CHANGES))


def flag_names(bits):
    """The names of the enum pgw_flag bits set in bits, in bit order."""
    return frozenset(name for i, name in enumerate(FLAGS) if bits >> i & 1)


def absence(why):
    """An absence key, None for PGW_ABSENT_NONE (the page is there)."""
    return ABSENCES[why] if why else None
