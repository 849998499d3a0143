# Fuzzing: fuzz/README.md tells how to run it.
#
#   make fuzz          libFuzzer targets (clang, ASan+UBSan) in build-fuzz/
#   make fuzz-smoke    each target for FUZZ_SECONDS, seeded by fuzz/corpus/
#   make fuzz-afl      the same targets for AFL++ (afl-clang-fast), build-afl/
#
# `make check` also builds a replay driver per target ($(O)/tools/
# fuzz-replay-TARGET, plain $(CC), no libFuzzer) and runs the committed
# corpus through it, so every past finding stays a regression test.
#
# One image target per format name below: adding a format to the fuzzing
# is adding its name here (plus seeds under fuzz/corpus/image_NAME/).
# The name "probe" builds a target that opens without naming a format, so
# the library probes (worth adding once several formats have magic).
FUZZ_FORMATS  = elf raw kdump lime avml
# The Linux readers: kallsyms' decoder, the BTF reader and the task layout
# inferred without BTF (fuzz/*.c).
FUZZ_LINUX    = kallsyms kernel_btf task_infer
# The CLI's parser of what it reads back from disk: the facts cache.
FUZZ_CLI      = facts_cache
FUZZ_TARGETS  = $(FUZZ_FORMATS:%=image_%) walker $(FUZZ_LINUX) $(FUZZ_CLI)

FUZZ_CC      ?= clang
FUZZ_ENGINE  ?= libfuzzer
FZ           ?= build-fuzz
FUZZ_SECONDS ?= 10
FUZZ_MAX_LEN ?= 131072
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
# Codec include paths and -I$(O) (config.h: which codecs) travel in PGW_CFLAGS.
FUZZ_CFLAGS   = -O2 -g -std=c11 $(WARN) $(filter -D% -I%,$(PGW_CFLAGS)) -Isrc \
                $(FUZZ_SAN) -MMD -MP
FUZZ_COV_libfuzzer  = -fsanitize=fuzzer-no-link
FUZZ_LINK_libfuzzer = -fsanitize=fuzzer
FUZZ_MAIN_libfuzzer =
FUZZ_COV_afl  =
FUZZ_LINK_afl =
FUZZ_MAIN_afl = $(FZ)/obj/fuzz/driver.o

FUZZ_LIB_OBJ = $(LIB_SRC:%.c=$(FZ)/obj/%.o)
FUZZ_BIN     = $(FUZZ_TARGETS:%=$(FZ)/fuzz-%)
FUZZ_COMMON  = $(FZ)/obj/fuzz/exercise.o $(FZ)/obj/fuzz/exercise_linux.o \
               $(FUZZ_MAIN_$(FUZZ_ENGINE))

.PHONY: fuzz fuzz-smoke fuzz-afl fuzz-check-cc
fuzz: fuzz-check-cc $(FUZZ_BIN)

fuzz-check-cc:
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz needs \
	$(FUZZ_CC) (Debian: apt-get install clang libclang-rt-dev)" >&2; \
	exit 1; }

$(FZ)/obj/%.o: %.c | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_COV_$(FUZZ_ENGINE)) -c -o $@ $<

# The walker's inner loops compare every entry against constants; tracing
# those comparisons costs a third of the run time and finds nothing bit
# flips do not (the parsers, where magic numbers live, keep it).
$(FZ)/obj/src/walk/%.o $(FZ)/obj/src/arch/%.o: FUZZ_COV_libfuzzer += \
  -fno-sanitize-coverage=trace-cmp

$(FZ)/obj/fuzz/image_%.o: fuzz/image.c | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_COV_$(FUZZ_ENGINE)) \
	  -DFUZZ_FORMAT='"$*"' -c -o $@ $<

$(FZ)/libpgwalk.a: $(FUZZ_LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(FZ)/fuzz-%: $(FZ)/obj/fuzz/%.o $(FUZZ_COMMON) $(FZ)/libpgwalk.a
	$(FUZZ_CC) $(FUZZ_SAN) $(FUZZ_LINK_$(FUZZ_ENGINE)) -o $@ $^ $(LDLIBS)

# Seed directories of a target: its own, or every image corpus for probe.
fuzz_seeds = $$(if [ -d fuzz/corpus/$(1) ]; then echo fuzz/corpus/$(1); \
             else echo fuzz/corpus/image_*; fi)

# The committed corpus is read, never written: new inputs go to $(FZ)/.
# One rule per target, so `make -j2 fuzz-smoke` runs two at once.
FUZZ_SMOKE = $(FUZZ_TARGETS:%=fuzz-smoke-%)
.PHONY: $(FUZZ_SMOKE)
fuzz-smoke: $(FUZZ_SMOKE)

$(FUZZ_SMOKE): fuzz-smoke-%: $(FZ)/fuzz-% | fuzz-check-cc
	@mkdir -p $(FZ)/corpus/$*
	@echo "fuzz-smoke: $* for $(FUZZ_SECONDS)s"
	@$(FZ)/fuzz-$* -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -rss_limit_mb=2048 -max_len=$(FUZZ_MAX_LEN) -print_final_stats=1 \
	  -artifact_prefix=$(FZ)/$*- \
	  $(FZ)/corpus/$* $(call fuzz_seeds,$*) 2>$(FZ)/smoke-$*.log \
	  || { tail -50 $(FZ)/smoke-$*.log; exit 1; }
	@sed -n 's/^Done /fuzz-smoke: $*: /p' $(FZ)/smoke-$*.log

fuzz-afl:
	$(MAKE) fuzz FUZZ_ENGINE=afl FUZZ_CC=$${AFL_CC:-afl-clang-fast} FZ=build-afl

# Replay drivers for `make check` (the target's harness with fuzz/driver.c).
FUZZ_REPLAY = $(FUZZ_TARGETS:%=$(O)/tools/fuzz-replay-%)

$(O)/fuzz/image_%.o: fuzz/image.c | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PGW_CFLAGS) $(CFLAGS) -Isrc -DFUZZ_FORMAT='"$*"' -c -o $@ $<

# The Linux targets reach src/linux/'s internal headers.
$(FUZZ_LINUX:%=$(O)/fuzz/%.o) $(FUZZ_CLI:%=$(O)/fuzz/%.o): PGW_CFLAGS += -Isrc

$(O)/tools/fuzz-replay-%: $(O)/fuzz/%.o $(O)/fuzz/exercise.o \
                          $(O)/fuzz/exercise_linux.o $(O)/fuzz/driver.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PGW_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

check-build: $(FUZZ_REPLAY)

-include $(wildcard $(FZ)/obj/*/*.d $(FZ)/obj/*/*/*.d $(O)/fuzz/*.d)

# Objects made by pattern chains are kept (make would delete them).
.SECONDARY: $(FUZZ_TARGETS:%=$(O)/fuzz/%.o) $(O)/fuzz/exercise.o \
            $(O)/fuzz/exercise_linux.o \
            $(O)/fuzz/driver.o $(FUZZ_TARGETS:%=$(FZ)/obj/fuzz/%.o) \
            $(FZ)/obj/fuzz/exercise.o $(FZ)/obj/fuzz/exercise_linux.o \
            $(FZ)/obj/fuzz/driver.o
