# make valgrind: the CLI tests (tests/cli/*.t) with every pgwalk run under
# valgrind memcheck.  Any memory error or any leak (all kinds, still
# reachable included) fails the target: the wrapper makes valgrind exit 99
# and log to build/valgrind/, and a non-empty log fails the run even when a
# test expected a non-zero exit.
VALGRIND ?= valgrind
VG_DIR    = build/valgrind
VG_FLAGS  = --quiet --error-exitcode=99 --leak-check=full \
            --show-leak-kinds=all --errors-for-leak-kinds=all \
            --suppressions=$(CURDIR)/tests/valgrind.supp \
            --log-file=$(CURDIR)/$(VG_DIR)/vg.%p.log

.PHONY: valgrind
valgrind:
	@test -z "$(SAN)" || { echo "make valgrind: not with SAN=1" >&2; exit 1; }
	$(MAKE) build/pgwalk $(TOOL_BIN) $(FUZZ_REPLAY)
	@command -v $(VALGRIND) >/dev/null || { echo "make valgrind needs \
	valgrind (Debian: apt-get install valgrind)" >&2; exit 1; }
	rm -rf $(VG_DIR) && mkdir -p $(VG_DIR)
	printf '#!/bin/sh\nexec %s %s %s "$$@"\n' "$(VALGRIND)" "$(VG_FLAGS)" \
	  "$(CURDIR)/build/pgwalk" >$(VG_DIR)/pgwalk && chmod +x $(VG_DIR)/pgwalk
	PGWALK=$(CURDIR)/$(VG_DIR)/pgwalk PGW_TOOLS=$(CURDIR)/build/tools \
	  PGW_VALGRIND=1 PGW_PLAIN=$(CURDIR)/build/pgwalk PGW_TIMEOUT=120 \
	  PGW_FILE_TIMEOUT=7200 prove -f tests/cli/*.t
	@bad=$$(find $(VG_DIR) -name 'vg.*.log' -size +0); \
	if [ -n "$$bad" ]; then cat $$bad; \
	  echo "make valgrind: errors or leaks in $$(echo $$bad | wc -w) runs" >&2; \
	  exit 1; fi; \
	echo "make valgrind: $$(ls $(VG_DIR) | grep -c '^vg') runs, no errors, no leaks"
