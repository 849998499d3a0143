# pgwalk — GNU Make.  `make` builds build/pgwalk and the libraries
# (libpgwalk.a, libpgwalk.so); `make check` runs the suite;
# `make SAN=1 check` runs it under ASan+UBSan in build-asan/;
# `make install` (mk/install.mk) copies them under PREFIX.
.DEFAULT_GOAL := all
CC      ?= cc
SAN     ?=
O        = $(if $(SAN),build-asan,build)

# Warnings are errors for developers and CI; `make RELEASE=1` (building a
# release with a compiler newer than ours) keeps them warnings.
RELEASE ?=
WARN     = -Wall -Wextra $(if $(RELEASE),,-Werror) -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-missing-field-initializers
# CFLAGS and LDFLAGS are the user's (`make CFLAGS=-O0`); what the build
# needs whatever they say is in PGW_CFLAGS and PGW_LDFLAGS, which every
# rule puts before them.
CFLAGS  ?= -O2 -g
PGW_CFLAGS  = -std=c11 $(WARN) -Iinclude -D_GNU_SOURCE -MMD -MP
PGW_LDFLAGS =
SAN_FLAGS = -fsanitize=address,undefined
ifneq ($(SAN),)
PGW_CFLAGS  += $(SAN_FLAGS) -fno-omit-frame-pointer -fno-sanitize-recover=all
PGW_LDFLAGS += $(SAN_FLAGS)
endif

# Libraries: each through pkg-config when it has a .pc file, and named in
# pgwalk.pc for static linking (mk/deps.mk).
include mk/deps.mk
$(eval $(call pgw_require,libelf,-lelf))
$(eval $(call pgw_require,zlib,-lz))
# libbpf parses the kernel's BTF (src/linux/kernel_btf.c): loaded with
# dlopen when BTF is first read (src/lib/dynlib.c), so only its headers
# and soname here; the tests' and tools' BTF writers link it.
BPF_CFLAGS := $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
BPF_LIBS   := $(or $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null),-lbpf)
PGW_CFLAGS += $(BPF_CFLAGS)
PGW_SONAMES = bpf=$(call pgw_soname,bpf)
# Optional codecs (kdump pages): found with pkg-config, or absent.
include mk/codecs.mk
# YARA (search --yara): its header when pkg-config finds it, loaded with
# dlopen by its soname only when rules are asked for (PGW_HAVE_YARA).
ifeq ($(shell $(PKG_CONFIG) --exists yara 2>/dev/null && echo y),y)
PGW_CFLAGS += $(shell $(PKG_CONFIG) --cflags yara)
PGW_CODEC_MACROS += YARA
PGW_SONAMES += yara=$(call pgw_soname,yara)
endif
TEST_LDLIBS = $(PGW_CODEC_LIBS) $(BPF_LIBS)
# VERSION, and $(O)/config.h: PGW_VERSION, PGW_CODECS, PGW_HAVE_*.
include mk/config.mk

LIB_SRC  = $(wildcard src/lib/*.c src/formats/*.c src/arch/*.c src/walk/*.c \
             src/linux/*.c)
CLI_SRC  = $(wildcard src/cli/*.c)
LIB_OBJ  = $(LIB_SRC:%.c=$(O)/%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(O)/%.o)
LIB      = $(O)/libpgwalk.a
BIN      = $(O)/pgwalk

TEST_C    = $(wildcard tests/unit/*.c)
TEST_BIN  = $(TEST_C:tests/unit/%.c=$(O)/tests/%)
TOOL_C    = $(wildcard tests/tools/*.c)
TOOL_BIN  = $(TOOL_C:tests/tools/%.c=$(O)/tools/%)

.PHONY: all check check-build bench clean sample mutants
# Everything `make install` copies: the binary here, the libraries in
# mk/shared.mk, the man page in mk/install.mk, the Python package in
# mk/python.mk.
all: $(BIN)

$(O)/%.o: %.c | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PGW_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(PGW_LDFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

$(O)/tests/%: tests/unit/%.c tests/unit/tap.h $(LIB) | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PGW_CFLAGS) $(CFLAGS) -Isrc -Itests/unit $(PGW_LDFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS) $(TEST_LDLIBS)

# The toy record type and the fast rows' comparison print through the
# CLI's own writers (the objects they need, from an archive of the CLI's).
$(O)/cli.a: $(filter-out $(O)/src/cli/main.o,$(CLI_OBJ))
	rm -f $@
	$(AR) rcs $@ $^

$(O)/tests/toy_record $(O)/tests/fast_rows: $(O)/tests/%: tests/unit/%.c tests/unit/tap.h $(O)/cli.a $(LIB) | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PGW_CFLAGS) $(CFLAGS) -Isrc -Isrc/cli -Itests/unit $(PGW_LDFLAGS) $(LDFLAGS) -o $@ $< $(O)/cli.a $(LIB) $(LDLIBS) $(TEST_LDLIBS)

$(O)/tools/%: tests/tools/%.c $(wildcard tests/tools/*.h) $(LIB) | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PGW_CFLAGS) $(CFLAGS) -Isrc -Itests/tools $(PGW_LDFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS) $(TEST_LDLIBS)

# prove runs the C unit tests (TAP) and the shell tests of the CLI.  The
# real-dump tests need ../shared/testdata (or PGW_SHARED): without it they
# skip, and the last lines say so.  PGW_STRICT=1 (CI) fails on any skip.
# tests/cli/install.t runs `make install` into a temporary DESTDIR and
# builds examples/ against it with $(CC) (and the sanitizers under SAN=1).
PGW_SHARED_DIR = $(or $(PGW_SHARED),$(CURDIR)/../shared/testdata)
# The files check runs: CHECK_TESTS=... narrows it (CI's quick runs of
# other builds).  Under SAN, the output-contract checkers are left out:
# they spend their time in jq on records the plain run already held to
# the contract, and every pgwalk path they drive other files drive too.
# prove runs PROVE_JOBS files at once (no two share a path: each has its
# own mktemp folder, and the dumps are unpacked under a lock).
CHECK_TESTS ?= $(TEST_BIN) $(wildcard tests/cli/*.t)
SAN_SKIP     = tests/cli/contract.t tests/cli/real-contract.t
PROVE_JOBS  ?= 2
# check-build: everything check runs, built without running it (of the
# unit tests, those CHECK_TESTS names).
check-build: all $(filter $(TEST_BIN),$(CHECK_TESTS)) $(TOOL_BIN)
check: check-build
	@rm -f $(O)/skipped.txt; \
	PGWALK=$(CURDIR)/$(BIN) PGW_TOOLS=$(CURDIR)/$(O)/tools PGW_TESTS=$(CURDIR)/$(O)/tests PGW_SAN=$(SAN) \
	  PGW_CC="$(CC)" PGW_SAN_FLAGS="$(if $(SAN),$(SAN_FLAGS))" PGW_PYTHON="$(PYTHON)" \
	  PGW_SKIP_LOG=$(CURDIR)/$(O)/skipped.txt \
	  prove -j$(PROVE_JOBS) $(PROVE_FLAGS) -f \
	    $(if $(SAN),$(filter-out $(SAN_SKIP),$(CHECK_TESTS)),$(CHECK_TESTS)); rc=$$?; \
	if [ -s $(O)/skipped.txt ]; then \
	  echo; \
	  echo "*** $$(grep -c '' $(O)/skipped.txt) tests were SKIPPED (prove counts them as passed):"; \
	  sed 's/^/***   /' $(O)/skipped.txt; \
	fi; \
	if [ ! -d "$(PGW_SHARED_DIR)" ]; then \
	  echo; \
	  echo "*** The real-dump tests were SKIPPED: no real dumps at $(PGW_SHARED_DIR)."; \
	  echo "*** To run them, put the dump folders there (or set PGW_SHARED=DIR) and run"; \
	  echo "*** make check again; PGW_UNPACKED=DIR says where to unpack them."; \
	fi; exit $$rc

# Mutation check of the suite (tests/mutants/): minutes, never part of check.
mutants:
	sh tests/mutants/run.sh

bench: $(BIN) $(TOOL_BIN)
	PGWALK=$(CURDIR)/$(BIN) PGW_TOOLS=$(CURDIR)/$(O)/tools sh bench/run.sh

clean:
	rm -rf build build-asan build-clang build-nosimd build-fuzz build-afl

# libpgwalk.so; make install/uninstall and pgwalk.pc; fuzz targets and
# their replay drivers; `make valgrind`; the Python package (after `all`,
# so none is the default goal).
include mk/shared.mk
include mk/install.mk
include mk/fuzz.mk
include mk/valgrind.mk
include mk/python.mk

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d) $(TOOL_BIN:=.d)
