# kdump and AVML page codecs beyond zlib (always linked): lzo, snappy and
# zstd, each used when pkg-config or its header finds it.  An image that
# needs a missing one fails with "this build lacks <codec>".
# `make WITHOUT_CODECS="lzo zstd"` leaves some out on purpose (to try that
# error; use a clean build directory).
PKG_CONFIG     ?= pkg-config
WITHOUT_CODECS ?=

# pgw_codec NAME PKG MACRO HEADER LIB
define pgw_codec
ifeq ($$(filter $(1),$$(WITHOUT_CODECS)),)
ifeq ($$(shell $$(PKG_CONFIG) --exists $(2) 2>/dev/null && echo y),y)
CFLAGS += -DPGW_HAVE_$(3) $$(shell $$(PKG_CONFIG) --cflags $(2))
LDLIBS += $$(shell $$(PKG_CONFIG) --libs $(2))
PGW_CODECS += $(1)
else ifneq ($$(wildcard $(4)),)
CFLAGS += -DPGW_HAVE_$(3)
LDLIBS += $(5)
PGW_CODECS += $(1)
endif
endif
endef

PGW_CODECS = zlib
$(eval $(call pgw_codec,lzo,lzo2,LZO,/usr/include/lzo/lzo1x.h,-llzo2))
$(eval $(call pgw_codec,snappy,snappy,SNAPPY,/usr/include/snappy-c.h,-lsnappy))
$(eval $(call pgw_codec,zstd,libzstd,ZSTD,/usr/include/zstd.h,-lzstd))
