# Libraries the library links, and how pgwalk.pc names them.
#
#   $(eval $(call pgw_require,PKG,LIBS))
#
# adds a library every build needs: with pkg-config's flags for PKG when
# PKG has a .pc file (and PKG to pgwalk.pc's Requires.private), else LIBS
# (and LIBS to pgwalk.pc's Libs.private), so that
# `pkg-config --static --libs pgwalk` links libpgwalk.a.  Optional codecs
# do the same in mk/codecs.mk.
PKG_CONFIG ?= pkg-config
PC_REQUIRES_PRIVATE =
PC_LIBS_PRIVATE =

define pgw_require
ifeq ($$(shell $$(PKG_CONFIG) --exists $(1) 2>/dev/null && echo y),y)
PGW_CFLAGS += $$(shell $$(PKG_CONFIG) --cflags $(1))
LDLIBS += $$(shell $$(PKG_CONFIG) --libs $(1))
PC_REQUIRES_PRIVATE += $(1)
else
LDLIBS += $(2)
PC_LIBS_PRIVATE += $(2)
endif
endef
