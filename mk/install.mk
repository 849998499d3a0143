# make install / make uninstall, and pgwalk.pc (from mk/pgwalk.pc.in).
#
#   make install PREFIX=/usr DESTDIR=/tmp/stage LIBDIR=/usr/lib/x86_64-linux-gnu
#
# PREFIX (default /usr/local) places everything; BINDIR, LIBDIR,
# INCLUDEDIR, MANDIR, PKGCONFIGDIR and BASHCOMPDIR move one kind of file;
# DESTDIR is prepended to every path when copying (a staging root for
# packages) and never appears inside the files.  `make install` builds
# nothing `make` did not (it depends on `all`, which builds every file it
# copies) and writes nothing in the build directory: pgwalk.pc, the one
# file that depends on the directories, is written straight to its place.
# Without DESTDIR, install also refreshes the dynamic loader's cache
# (ldconfig; quietly nothing when not root).
PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
DATADIR      ?= $(PREFIX)/share
MANDIR       ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# bash-completion's own directory rule (its .pc file), moved under PREFIX
# like the rest; without bash-completion installed, the same place.
BASHCOMPDIR  ?= $(strip $(or $(shell $(PKG_CONFIG) \
                  --define-variable=prefix=$(PREFIX) \
                  --variable=completionsdir bash-completion 2>/dev/null),\
                  $(DATADIR)/bash-completion/completions))

INSTALL      ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 755
INSTALL_DATA ?= $(INSTALL) -m 644
LDCONFIG     ?= ldconfig

MAN1      = $(O)/pgwalk.1
MAN3      = $(O)/pgwalk.3
PUBLIC_H  = $(wildcard include/*.h)
COMPLETION = completion/pgwalk.bash

all: $(MAN1) $(MAN3)

# The dynamic loader's own directories (ld.so's defaults and Debian's
# ld.so.conf): a LIBDIR elsewhere (make install PREFIX=$HOME/.local) puts
# -Wl,-rpath,${libdir} in pgwalk.pc's Libs, so that a program built with
# `pkg-config --libs pgwalk` finds libpgwalk.so there (its RUNPATH)
# without LD_LIBRARY_PATH.
MULTIARCH    := $(shell $(CC) -print-multiarch 2>/dev/null)
LOADER_DIRS   = /lib /usr/lib /lib64 /usr/lib64 /usr/local/lib \
		$(if $(MULTIARCH),/lib/$(MULTIARCH) /usr/lib/$(MULTIARCH) \
		  /usr/local/lib/$(MULTIARCH))
comma        := ,
empty        :=
space        := $(empty) $(empty)
PC_RPATH      = $(if $(filter $(patsubst %/,%,$(LIBDIR)),$(LOADER_DIRS)),,$(space)-Wl$(comma)-rpath$(comma)$${libdir})

# Paths inside pgwalk.pc relative to ${prefix} where they lie under it, so
# pkg-config's --define-prefix can relocate an installed tree.
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
# pgwalk.pc for these directories and this build's libraries, on stdout
# (an empty Requires.private or Libs.private line is left out).
pc_text = sed -e 's|@PREFIX@|$(PREFIX)|' \
	  -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	  -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' \
	  -e 's|@VERSION@|$(VERSION)|' \
	  -e 's|@RPATH@|$(PC_RPATH)|' \
	  -e 's|@REQUIRES_PRIVATE@|$(strip $(PC_REQUIRES_PRIVATE))|' \
	  -e 's|@LIBS_PRIVATE@|$(strip $(PC_LIBS_PRIVATE))|' \
	  -e '/^[A-Za-z.]*: *$$/d' mk/pgwalk.pc.in

# The man pages in the tree name a version too; the installed ones say
# VERSION's.
$(MAN1) $(MAN3): $(O)/pgwalk.%: man/pgwalk.% VERSION
	@mkdir -p $(@D)
	sed '1s/"pgwalk [^"]*"/"pgwalk $(VERSION)"/' $< >$@

.PHONY: install uninstall
install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	  $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	  $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL_PROGRAM) $(BIN) $(DESTDIR)$(BINDIR)/pgwalk
	$(INSTALL_DATA) $(MAN1) $(DESTDIR)$(MANDIR)/man1/pgwalk.1
	$(INSTALL_DATA) $(MAN3) $(DESTDIR)$(MANDIR)/man3/pgwalk.3
	$(INSTALL_DATA) $(PUBLIC_H) $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL_DATA) $(LIB) $(DESTDIR)$(LIBDIR)/libpgwalk.a
	$(INSTALL_DATA) $(SO_REAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SO_REAL)) $(DESTDIR)$(LIBDIR)/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(LIBDIR)/libpgwalk.so
	$(pc_text) >$(DESTDIR)$(PKGCONFIGDIR)/pgwalk.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/pgwalk.pc
	$(INSTALL_DATA) $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/pgwalk
	@[ -n "$(DESTDIR)" ] || $(LDCONFIG) 2>/dev/null || :

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pgwalk $(DESTDIR)$(MANDIR)/man1/pgwalk.1 \
	  $(DESTDIR)$(MANDIR)/man3/pgwalk.3 \
	  $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(PUBLIC_H))) \
	  $(DESTDIR)$(LIBDIR)/libpgwalk.a $(DESTDIR)$(LIBDIR)/$(notdir $(SO_REAL)) \
	  $(DESTDIR)$(LIBDIR)/$(SO_NAME) $(DESTDIR)$(LIBDIR)/libpgwalk.so \
	  $(DESTDIR)$(PKGCONFIGDIR)/pgwalk.pc $(DESTDIR)$(BASHCOMPDIR)/pgwalk
