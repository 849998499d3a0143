# kdump and AVML page codecs beyond zlib (always linked): lzo, snappy and
# zstd, each used when pkg-config or its header finds it.  An image that
# needs a missing one fails with "this build lacks <codec>".
# `make WITHOUT_CODECS="lzo zstd"` leaves some out on purpose (to try that
# error); $(O)/config.h then changes and what includes it is rebuilt.
#
# Each codec found adds PGW_HAVE_<MACRO> to config.h (mk/config.mk), its
# flags to CFLAGS/LDLIBS, and itself to pgwalk.pc: to Requires.private when
# it has a .pc file of its own, else its -l flag to Libs.private.
WITHOUT_CODECS ?=

# pgw_codec NAME PKG MACRO HEADER LIB
define pgw_codec
ifeq ($$(filter $(1),$$(WITHOUT_CODECS)),)
ifeq ($$(shell $$(PKG_CONFIG) --exists $(2) 2>/dev/null && echo y),y)
CFLAGS += $$(shell $$(PKG_CONFIG) --cflags $(2))
LDLIBS += $$(shell $$(PKG_CONFIG) --libs $(2))
PGW_CODECS += $(1)
PGW_CODEC_MACROS += $(3)
PC_REQUIRES_PRIVATE += $(2)
else ifneq ($$(wildcard $(4)),)
LDLIBS += $(5)
PGW_CODECS += $(1)
PGW_CODEC_MACROS += $(3)
PC_LIBS_PRIVATE += $(5)
endif
endif
endef

PGW_CODECS = zlib
PGW_CODEC_MACROS =
$(eval $(call pgw_codec,lzo,lzo2,LZO,/usr/include/lzo/lzo1x.h,-llzo2))
$(eval $(call pgw_codec,snappy,snappy,SNAPPY,/usr/include/snappy-c.h,-lsnappy))
$(eval $(call pgw_codec,zstd,libzstd,ZSTD,/usr/include/zstd.h,-lzstd))
