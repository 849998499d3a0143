"""Print where `make install` puts the package for PREFIX (argv[1]).

The interpreter's own rule: Debian's python3 reads /usr/local packages
from dist-packages (its posix_local scheme), every other from
PREFIX/lib/pythonX.Y/site-packages (posix_prefix).
"""
import sys
import sysconfig

prefix = sys.argv[1].rstrip("/") or "/"
if "posix_local" in sysconfig.get_scheme_names() and prefix.endswith("/local"):
    base = prefix[: -len("/local")] or "/"
    print(sysconfig.get_path("platlib", "posix_local",
                             {"base": base, "platbase": base}))
else:
    print(sysconfig.get_path("platlib", "posix_prefix",
                             {"base": prefix, "platbase": prefix}))
