# libpgwalk.so: the library's sources compiled a second time as PIC
# objects ($(O)/pic/) and linked with a version script.
#
# Every library object (the archive's too) is compiled with
# -fvisibility=hidden, and include/pgwalk.h declares its names with default
# visibility, so the .so exports exactly the public header: internal helpers
# named pgw_* (pgw_source_open, pgw_formats, ...) stay hidden, and calls
# between the library's own functions need no PLT.  The version script then
# keeps anything else that is not pgw_* local.
#
# The pgwalk binary links the non-PIC archive instead: no dynamic loader
# work for its own code at start-up.
SO_NAME  = libpgwalk.so.$(SOVERSION)
SO_REAL  = $(O)/libpgwalk.so.$(VERSION)
SO_LINKS = $(O)/$(SO_NAME) $(O)/libpgwalk.so
SO_MAP   = src/libpgwalk.map
PIC_OBJ  = $(LIB_SRC:%.c=$(O)/pic/%.o)

all: $(LIB) $(SO_REAL) $(SO_LINKS)

$(LIB_OBJ) $(PIC_OBJ): PGW_CFLAGS += -fvisibility=hidden

$(O)/pic/%.o: %.c | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PGW_CFLAGS) $(CFLAGS) -fPIC -c -o $@ $<

$(SO_REAL): $(PIC_OBJ) $(SO_MAP)
	$(CC) -shared $(PGW_LDFLAGS) $(LDFLAGS) -Wl,-soname,$(SO_NAME) \
	  -Wl,--version-script=$(SO_MAP) -Wl,--no-undefined \
	  -o $@ $(PIC_OBJ) $(LDLIBS)

$(O)/$(SO_NAME): $(SO_REAL)
	ln -sf $(notdir $<) $@

$(O)/libpgwalk.so: $(O)/$(SO_NAME)
	ln -sf $(notdir $<) $@

-include $(PIC_OBJ:.o=.d)
