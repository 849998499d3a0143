# The Python package (python/README.md): `make` (or `make python`) builds
# it in $(O)/python/pgwalk, importable with PYTHONPATH=$(O)/python; `make
# check` runs its tests (tests/cli/python.t); `make install` copies it
# under PYTHONDIR.  Built only when $(PYTHON) has cffi and its headers
# (python3-cffi, python3-dev); without them `make python` says so and
# tests/cli/python.t skips loudly.
#
# The binding is cffi's "API mode": python/ffi_build.py writes C that
# $(CC) compiles against include/pgwalk.h (so struct layouts come from the
# header, never restated) and that links libpgwalk.so.  The in-place
# module finds the library by a RUNPATH to $(O); the installed one is
# linked again at install time with LIBDIR's, like pgwalk.pc is written
# there (the object is the one `make python` compiled).
# Debian's own interpreter, which scripts/install-deps.sh's python3-cffi,
# python3-dev and python3-numpy are for, else python3 on PATH (a PATH may
# put another interpreter first, without them).
PYTHON    ?= $(shell for p in /usr/bin/python3 python3; do \
               $$p -c 'import cffi' 2>/dev/null && { echo $$p; exit 0; }; \
             done; echo python3)
PY_OK     := $(shell $(PYTHON) -c 'import cffi, sysconfig, os; \
               assert os.path.exists(sysconfig.get_paths()["include"] + "/Python.h")' \
               2>/dev/null && echo y)
ifeq ($(PY_OK),y)
PY_INC    := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
PY_EXT    := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
endif
# Where `make install` puts the package: the interpreter's own rule for
# PREFIX (python/sitedir.py: Debian's dist-packages under /usr/local).
PYTHONDIR ?= $(shell $(PYTHON) python/sitedir.py $(PREFIX) 2>/dev/null)

PY_DIR     = $(O)/python/pgwalk
PY_SRC     = $(wildcard python/pgwalk/*.py python/pgwalk/*.pyi python/pgwalk/py.typed)
PY_COPIES  = $(PY_SRC:python/pgwalk/%=$(PY_DIR)/%)
PY_OBJ     = $(O)/python/_ffi.o
PY_MOD     = $(PY_DIR)/_ffi$(PY_EXT)
# The generated C is cffi's, not ours: the project's warnings stay off it.
PY_CFLAGS  = $(filter-out -W% -std=% -MMD -MP,$(CFLAGS)) -fPIC -Iinclude

# Part of `all` (so `make install` builds nothing `make` did not) when the
# interpreter can build it.
.PHONY: python
ifeq ($(PY_OK),y)
python: $(PY_MOD) $(PY_COPIES)
all: python
else
python:
	@echo "make python: $(PYTHON) lacks cffi or Python.h" \
	  "(Debian: apt-get install python3-cffi python3-dev)" >&2; exit 1
endif

$(O)/python/_ffi.c: python/ffi_build.py
	@mkdir -p $(@D)
	$(PYTHON) python/ffi_build.py $@ >/dev/null

$(PY_OBJ): $(O)/python/_ffi.c include/pgwalk.h
	$(CC) $(PY_CFLAGS) -I$(PY_INC) -c -o $@ $<

$(PY_MOD): $(PY_OBJ) $(SO_LINKS)
	@mkdir -p $(@D)
	$(CC) -shared $(LDFLAGS) -o $@ $(PY_OBJ) -L$(O) -lpgwalk \
	  -Wl,-rpath,$(abspath $(O))

$(PY_DIR)/%: python/pgwalk/%
	@mkdir -p $(@D)
	cp $< $@

.PHONY: install-python
ifeq ($(PY_OK),y)
install: install-python
endif
install-python: $(PY_OBJ) $(PY_COPIES)
	$(INSTALL) -d $(DESTDIR)$(PYTHONDIR)/pgwalk
	$(INSTALL_DATA) $(PY_SRC) $(DESTDIR)$(PYTHONDIR)/pgwalk/
	$(CC) -shared $(LDFLAGS) -o $(DESTDIR)$(PYTHONDIR)/pgwalk/_ffi$(PY_EXT) \
	  $(PY_OBJ) -L$(O) -lpgwalk -Wl,-rpath,$(LIBDIR)

.PHONY: uninstall-python
uninstall: uninstall-python
uninstall-python:
	rm -f $(addprefix $(DESTDIR)$(PYTHONDIR)/pgwalk/,$(notdir $(PY_SRC)) \
	  _ffi$(PY_EXT))
	rmdir $(DESTDIR)$(PYTHONDIR)/pgwalk 2>/dev/null || :
