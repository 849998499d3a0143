# kdump and AVML page codecs beyond zlib (always linked): lzo, snappy and
# zstd, each used when pkg-config or its header finds it.  An image that
# needs a missing one fails with "this build lacks <codec>".
# `make WITHOUT_CODECS="lzo zstd"` leaves some out on purpose (to try that
# error); $(O)/config.h then changes and what includes it is rebuilt.
#
# Each codec found adds PGW_HAVE_<MACRO> and PGW_SONAME_<name> to config.h
# (mk/config.mk) and its flags to PGW_CFLAGS, but nothing to LDLIBS: the
# library is loaded with dlopen by that soname when a page needs it
# (src/lib/dynlib.c), so a start-up pays nothing for it.  The tests' and
# tools' image writers compress with them: PGW_CODEC_LIBS links those.
WITHOUT_CODECS ?=

PGW_SONAMES ?=
# pgw_soname LIB: the soname of the library -lLIB links, from the file the
# compiler would link (else libLIB.so).
pgw_soname = $(or $(shell objdump -p "$$($(CC) -print-file-name=lib$(1).so)" \
	2>/dev/null | sed -n 's/^ *SONAME *//p'),lib$(1).so)

# pgw_codec NAME PKG MACRO HEADER LIB
define pgw_codec
ifeq ($$(filter $(1),$$(WITHOUT_CODECS)),)
ifeq ($$(shell $$(PKG_CONFIG) --exists $(2) 2>/dev/null && echo y),y)
PGW_CFLAGS += $$(shell $$(PKG_CONFIG) --cflags $(2))
PGW_CODEC_LIBS += $$(shell $$(PKG_CONFIG) --libs $(2))
PGW_CODECS += $(1)
PGW_CODEC_MACROS += $(3)
PGW_SONAMES += $(1)=$$(call pgw_soname,$(5))
else ifneq ($$(wildcard $(4)),)
PGW_CODEC_LIBS += -l$(5)
PGW_CODECS += $(1)
PGW_CODEC_MACROS += $(3)
PGW_SONAMES += $(1)=$$(call pgw_soname,$(5))
endif
endif
endef

PGW_CODECS = zlib
PGW_CODEC_MACROS =
$(eval $(call pgw_codec,lzo,lzo2,LZO,/usr/include/lzo/lzo1x.h,lzo2))
$(eval $(call pgw_codec,snappy,snappy,SNAPPY,/usr/include/snappy-c.h,snappy))
$(eval $(call pgw_codec,zstd,libzstd,ZSTD,/usr/include/zstd.h,zstd))
# dlopen: in libc since glibc 2.34, in libdl before.
LDLIBS += -ldl
PC_LIBS_PRIVATE += -ldl
