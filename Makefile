# coinrow — build, test, install and benchmark.
#
#   make                   build/coinrow, the core library, build/coinrow.so (the SQLite
#                          extension), the man page and the bash completion, checking the layering;
#                          installs nothing (a missing package is named, with the command)
#   make test              every test; runs `make deps` first
#   make test SANITIZE=1   the same under AddressSanitizer + UBSan (in build/san)
#   make test SANITIZE=thread   the threaded tests under ThreadSanitizer, with clang (in build/tsan)
#   make test-hold         make test 3 times, once pinned to one CPU, once beside a busy loop
#                          on every core, and every test that failed in any (docs/testing.md)
#   make test-cluster      the Slurm and GNU parallel recipes for real (root; installs
#                          and starts slurm and munge)
#   make test-judges       exports checked with the judges' own tools (../shared/judge-tools
#                          or JUDGE_TOOLS=DIR; skipped when absent)
#   make install           PREFIX=/usr/local DESTDIR= : bin/coinrow, lib/libcoinrow.a,
#                          lib/coinrow.so, include/coinrow.h and include/coinrow/*.h,
#                          lib/pkgconfig/coinrow.pc, the man page coinrow(1) and the bash completion
#   make uninstall         removes what install installed
#   make deps              installs the Debian packages the build and the tests need (as root)
#   make bench             the benchmarks (docs/performance.md)
#   make bench-check       only checking lines of 10^6 moves (BENCH_CHECK_ARGS="--n N --rows R")
#   make bench-pipeline    only the batch pipeline's (BENCH_ARGS="--reps R --against OLD-COINROW ...")
#   make bench-read        its writing, size and reading back against plain tables (BENCH_ARGS="--rows N ...")
#   make bench-ext         only the SQL extension's (BENCH_EXT_ARGS="--rows N --reps R")
#   make bench-invoke      only invoke's (BENCH_INVOKE_ARGS="--instances N --builtin-instances M
#                          --sandbox-instances K --reps R")
#   make bench-jury        the online jury's CPU time for a game of 10^6 coins (BENCH_JURY_ARGS="--n N --rows R")
#   make bench-interactive  one game of invoke --interactive against a bare relay (BENCH_INTERACTIVE_ARGS="--n N --reps R")
#   make bench-wal         what readers cost a run's WAL (BENCH_WAL_ARGS="--rows N --reps R --against OLD")
#   make bench-report      coinrow report of 10^6 instances: time and size (BENCH_REPORT_ARGS="--instances N --reps R")
#   make bench-scale       shards and merge of 10^6 instances against the single run, for 10, 100 and 1,000
#                          shards (BENCH_SCALE_ARGS="--instances N --reps R --shards \"10 100\"")
#   make fuzz              the libFuzzer targets of tests/fuzz/ in build/fuzz (clang; installed as root)
#   make fuzz-smoke        each of them for FUZZ_SECONDS (default 30) on its corpus
#   make demo              the main job on sample-data/; installs the build's missing packages
#                          first, as make test does (as root; else names the command)
#   make coverage          every test on an instrumented build (build/cov), then line and
#                          branch coverage per layer and an HTML report (docs/testing.md);
#                          installs gcovr when missing (as root)
#   make mutate            the mutation runner: each mutation of tests/mutations/ in a
#                          scratch copy, killed or survived, and the score (docs/testing.md)
#   WERROR=1               warnings are errors (CI)
#
# CFLAGS, CPPFLAGS, LDFLAGS and LDLIBS are yours: they add to what the code
# needs (CR_*), never replace it.

# the coverage build is unoptimized, so that lines and branches are the source's
ifeq ($(COVERAGE),1)
CFLAGS ?= -O0 -g
endif
CFLAGS ?= -O2 -g
CR_CPPFLAGS := -Iinclude -D_POSIX_C_SOURCE=200809L
CR_CFLAGS := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla \
             -fopenmp-simd -pthread -MMD -MP
CR_LDFLAGS := -pthread
CR_LDLIBS := -lsqlite3 -lcsv
BUILD := build

ifeq ($(WERROR),1)
CR_CFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
BUILD := build/san
CR_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
CR_LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(COVERAGE),1)
BUILD := build/cov
# one copy of the DP's inner loop, not three target clones of it
CR_CPPFLAGS += -DCR_NO_TARGET_CLONES
CR_CFLAGS += --coverage
CR_LDFLAGS += --coverage
endif
ifeq ($(SANITIZE),thread)
# gcc 12's ThreadSanitizer does not start on every kernel; clang's does.
ifeq ($(origin CC),default)
CC := clang
endif
BUILD := build/tsan
# (instrumented loops do not vectorize, as the core's simd hints ask: clang says so)
CR_CFLAGS += -fsanitize=thread -fno-omit-frame-pointer -Wno-pass-failed
CR_LDFLAGS += -fsanitize=thread
endif
# The fuzz build (make fuzz, through scripts/fuzz.sh): clang, every object
# instrumented for libFuzzer and the sanitizers, in build/fuzz.
ifeq ($(FUZZ),1)
CC := clang
BUILD := build/fuzz
CR_CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
             -Wno-pass-failed
CR_LDFLAGS += -fsanitize=address,undefined
endif

COMPILE = $(CC) $(CR_CPPFLAGS) $(CPPFLAGS) $(CR_CFLAGS) $(CFLAGS)

# Debian packages, each with what shows it is there (scripts/deps.sh): the
# build's, then what the tests add.
DEPS_BUILD := libsqlite3-dev:sqlite3.h libcsv-dev:csv.h
# (chromium and python3: the report rendered in a browser, tests/report/browser.sh;
# bubblewrap: invoke --sandbox; g++: the exported testlib programs, built with testlib.h)
DEPS_TEST := libcmocka-dev:cmocka.h pkgconf:pkg-config mandoc:mandoc sqlite3:sqlite3 chromium:chromium python3:python3 \
             bubblewrap:bwrap g++:g++
ifeq ($(SANITIZE),thread)
DEPS_BUILD := clang:clang $(DEPS_BUILD)
endif

# The layers, bottom up (scripts/layers.txt): the core, then one folder and
# one archive, build/libcoinrow-NAME.a, per layer up to export; then the
# program (cli) and the extension (ext), which link them.
LAYERS := $(shell grep -v '^\#' scripts/layers.txt)
UP_LAYERS := $(filter-out core cli ext,$(LAYERS))
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
CORE_SRC := $(wildcard src/core/*.c)
# the program: its frame, and the commands grouped by the docs that tell of them
CLI_SRC := $(wildcard src/cli/*.c src/cli/batch/*.c src/cli/judges/*.c)
TEST_SRC := $(wildcard tests/test_*.c)
SUPPORT_SRC := $(wildcard tests/support/*.c)
SCHEMA := $(sort $(wildcard schema/*.sql))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
# each layer's objects: its folder's, and what the build generates for it
layer_obj = $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/$(1)/*.c)) $(LAYER_GEN_$(1))
LAYER_GEN_store := $(if $(SCHEMA),$(BUILD)/gen/schema.o $(BUILD)/gen/schema_current.o)
LAYER_GEN_export := $(BUILD)/gen/judge_sources.o
UP_OBJ := $(foreach l,$(UP_LAYERS),$(call layer_obj,$(l)))
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
# the commands without main: for programs that run them their own way
CLI_LIB_OBJ := $(filter-out $(BUILD)/src/cli/main.o,$(CLI_OBJ))
SUPPORT_OBJ := $(SUPPORT_SRC:%.c=$(BUILD)/%.o)
TESTS := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
ifeq ($(SANITIZE),thread)
# the tests whose code runs on several threads
TESTS := $(addprefix $(BUILD)/tests/,test_batch_pipeline test_cli_interrupt test_export_zip test_cli_invoke test_cli_interactive \
           test_cli_report test_cli_shard test_cli_check_db test_ext_functions)
endif

LIBCORE := $(BUILD)/libcoinrow.a
# every layer above the core, in link order (the top first)
LIBS_UP := $(foreach l,$(call reverse,$(UP_LAYERS)),$(BUILD)/libcoinrow-$(l).a)
BIN := $(BUILD)/coinrow
# stamps of the tree's checks (below), which the build waits for
CHECKS := $(BUILD)/check/layers.ok $(BUILD)/check/calls.ok $(BUILD)/check/core-symbols.ok $(BUILD)/check/headers.ok \
          $(BUILD)/check/core-cxx.ok
DOC_GEN := $(BUILD)/tools/coinrow-doc
EXT := $(BUILD)/coinrow.so
MAN := $(BUILD)/doc/coinrow.1
COMPLETION := $(BUILD)/doc/coinrow.bash

VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo 0.1.0-nogit)

.PHONY: all test test-hold coverage coverage-report mutate test-cluster test-judges check deps deps-check install uninstall demo \
        bench bench-core bench-jury bench-check bench-pipeline bench-read bench-ext bench-invoke bench-interactive bench-wal bench-report \
        bench-scale fuzz fuzz-smoke \
        fuzz-targets clean FORCE
.SECONDARY:
all: $(BIN) $(LIBCORE) $(EXT) $(MAN) $(COMPLETION) check

$(BUILD)/%.o: %.c | deps-check
	@mkdir -p $(@D)
	$(COMPILE) -c $< -o $@

$(LIBCORE): $(CORE_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
define LAYER_ARCHIVE
$(BUILD)/libcoinrow-$(1).a: $(call layer_obj,$(1))
	rm -f $$@ && $$(AR) rcs $$@ $$^
endef
$(foreach l,$(UP_LAYERS),$(eval $(call LAYER_ARCHIVE,$(l))))

# The schema files, applied in order, become one array of strings in the binary.
$(BUILD)/gen/schema.c: $(SCHEMA) scripts/embed-schema.sh
	@mkdir -p $(@D)
	sh scripts/embed-schema.sh $(SCHEMA) > $@
$(BUILD)/gen/schema.o: $(BUILD)/gen/schema.c
	$(COMPILE) -Isrc -c $< -o $@
# ...and the one script a new database takes, flattened from them
# (src/store/flatten/main.c).
SCHEMA_FLATTEN := $(BUILD)/tools/flatten-schema
$(SCHEMA_FLATTEN): $(BUILD)/src/store/flatten/main.o $(BUILD)/gen/schema.o
	@mkdir -p $(@D)
	$(CC) $(CR_LDFLAGS) $(LDFLAGS) $^ $(CR_LDLIBS) $(LDLIBS) -o $@
$(BUILD)/gen/schema_current.c: $(SCHEMA_FLATTEN)
	$(SCHEMA_FLATTEN) > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/schema_current.o: $(BUILD)/gen/schema_current.c
	$(COMPILE) -Isrc -c $< -o $@

# The judge programs' pieces (the core, the utilities, the judge runner, each
# program's main), each amalgamated into one file and embedded in coinrow,
# which writes a program as its settings followed by its pieces
# (src/export/program.c); with testlib.h, which the Polygon ones (C++) are
# written against.
JUDGE_MAINS := checker.c validator.c validator_groups.c solution.c greedy.c brute_force.c check.cpp val.cpp \
               val_groups.cpp interactor.c interactor.cpp check_game.cpp manager.c play_reference.c play_greedy.c play_line.c play_unflushed.c play_crash.c
# the core they use: not the generator, stress testing, run comparison or the
# built-in strategies, which would only weigh on an exported submission
# (Kattis refuses one over 128 KiB); the PRNG stays, for the jury's seeded
# deviations (the interactor)
JUDGE_CORE_SRC := $(filter-out $(addprefix src/core/,compare.c gen.c strategy.c stress.c),$(CORE_SRC))
# and the utilities they use (util/util.h: the first three)
JUDGE_UTIL_SRC := $(addprefix src/util/,errorf.c memory.c read_all.c)
JUDGE_PIECES := $(BUILD)/judge/core.c $(BUILD)/judge/util.c $(BUILD)/judge/judge.c $(BUILD)/judge/dialogue.c \
                $(addprefix $(BUILD)/judge/main/,$(JUDGE_MAINS))
TESTLIB := third_party/testlib/testlib.h third_party/testlib/LICENSE
JUDGE_HEADERS := $(wildcard src/core/*.h include/coinrow/*.h src/util/*.h src/judge/*.h src/judge/main/*.h) \
                 scripts/amalgamate.sh
# each piece leaves out the headers the pieces before it in its programs have
$(BUILD)/judge/util.c: JUDGE_AFTER := $(JUDGE_CORE_SRC)
$(BUILD)/judge/judge.c $(BUILD)/judge/dialogue.c: JUDGE_AFTER := $(JUDGE_CORE_SRC) $(JUDGE_UTIL_SRC)
$(BUILD)/judge/main/checker.c $(BUILD)/judge/main/validator.c $(BUILD)/judge/main/validator_groups.c: JUDGE_AFTER := $(JUDGE_CORE_SRC) $(JUDGE_UTIL_SRC) \
    src/judge/judge.c
$(BUILD)/judge/main/interactor.c $(BUILD)/judge/main/interactor.cpp: JUDGE_AFTER := $(JUDGE_CORE_SRC) $(JUDGE_UTIL_SRC) \
    src/judge/dialogue.c src/judge/serve.c
$(BUILD)/judge/main/manager.c: JUDGE_AFTER := $(JUDGE_CORE_SRC) $(JUDGE_UTIL_SRC) src/judge/judge.c \
    src/judge/dialogue.c src/judge/serve.c
$(BUILD)/judge/main/solution.c $(BUILD)/judge/main/greedy.c $(BUILD)/judge/main/brute_force.c \
    $(BUILD)/judge/main/play_reference.c $(BUILD)/judge/main/play_greedy.c \
    $(BUILD)/judge/main/play_line.c: JUDGE_AFTER := $(JUDGE_CORE_SRC) $(JUDGE_UTIL_SRC)
# the interactive submissions that fail use nothing of coinrow's
$(BUILD)/judge/main/play_unflushed.c $(BUILD)/judge/main/play_crash.c: JUDGE_AFTER :=
$(BUILD)/judge/main/check.cpp $(BUILD)/judge/main/val.cpp $(BUILD)/judge/main/val_groups.cpp \
    $(BUILD)/judge/main/check_game.cpp: JUDGE_AFTER := $(JUDGE_CORE_SRC)
AMALGAMATE = @mkdir -p $(@D) && echo "amalgamate $@" && \
    sh scripts/amalgamate.sh --after $(JUDGE_AFTER) -- $(filter-out $(JUDGE_HEADERS) Makefile,$^) > $@
# (the Makefile too: it says which of the core's files go in), without its
# comments (scripts/strip-comments.awk), which would take an exported
# submission past Kattis' code size limit of 128 KiB
$(BUILD)/judge/core.c: $(JUDGE_CORE_SRC) $(JUDGE_HEADERS) Makefile scripts/strip-comments.awk
	@mkdir -p $(@D) && echo "amalgamate $@ (without comments)" && \
	    sh scripts/amalgamate.sh --after -- $(filter-out $(JUDGE_HEADERS) Makefile scripts/strip-comments.awk,$^) \
	    > $@.full && awk -f scripts/strip-comments.awk $@.full > $@ && rm $@.full
$(BUILD)/judge/util.c: $(JUDGE_UTIL_SRC) $(JUDGE_HEADERS)
	$(AMALGAMATE)
$(BUILD)/judge/judge.c: src/judge/judge.c $(JUDGE_HEADERS)
	$(AMALGAMATE)
$(BUILD)/judge/dialogue.c: src/judge/dialogue.c src/judge/serve.c $(JUDGE_HEADERS)
	$(AMALGAMATE)
$(BUILD)/judge/main/%: src/judge/main/% $(JUDGE_HEADERS)
	$(AMALGAMATE)
$(BUILD)/gen/judge_sources.c: $(JUDGE_PIECES) $(TESTLIB) scripts/embed-text.sh
	@mkdir -p $(@D) && echo "embed $@"
	@sh scripts/embed-text.sh $(foreach f,$(JUDGE_PIECES),cr_judge__$(subst .,_,$(subst /,_,$(f:$(BUILD)/judge/%=%))) $(f)) \
	    cr_judge__testlib_h third_party/testlib/testlib.h cr_judge__testlib_license third_party/testlib/LICENSE > $@
$(BUILD)/gen/judge_sources.o: $(BUILD)/gen/judge_sources.c
	$(COMPILE) -c $< -o $@

# The version is rewritten only when it changes, so that builds stay incremental.
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@echo '#define CR_VERSION "$(VERSION)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
$(BUILD)/src/cli/version.o: $(BUILD)/gen/version.h
$(BUILD)/src/cli/version.o: CR_CPPFLAGS += -I$(BUILD)/gen
FORCE:

# Every layer but the core sees src/: the core sees only include/.
$(UP_OBJ) $(CLI_OBJ) $(BUILD)/src/cli/doc/main.o $(BUILD)/src/store/flatten/main.o: CR_CPPFLAGS += -Isrc
$(BUILD)/tests/support/%.o: CR_CPPFLAGS += -Itests -Isrc

$(BIN): $(CLI_OBJ) $(LIBS_UP) $(LIBCORE) | $(CHECKS)
	$(CC) $(CR_LDFLAGS) $(LDFLAGS) $^ $(CR_LDLIBS) $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(SUPPORT_OBJ) $(LIBS_UP) $(LIBCORE) | $(BIN)
	@mkdir -p $(@D)
	$(COMPILE) -Isrc -Itests $(CR_LDFLAGS) $(TEST_LDFLAGS) $(LDFLAGS) $< $(TEST_CLI) $(SUPPORT_OBJ) $(LIBS_UP) \
	    $(LIBCORE) $(CR_LDLIBS) -lcmocka $(LDLIBS) -o $@
# coinrow's own allocations go through the test's, which fail on demand
$(BUILD)/tests/test_core_nomem: TEST_LDFLAGS := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
$(BUILD)/tests/test_subsystems_nomem: TEST_LDFLAGS := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup
# the pipeline's budget for a canonical line, the machine's memory, is the test's to set
$(BUILD)/tests/test_batch_pipeline: TEST_LDFLAGS := -Wl,--wrap=cr_physical_memory
# another merge of the job, run between a merge's check of its target and its write
$(BUILD)/tests/test_cli_shard: TEST_LDFLAGS := -Wl,--wrap=cr_store_begin
$(BUILD)/tests/test_store_report: TEST_LDFLAGS := -Wl,--wrap=cr_store_run_variant_stats
# The crash test runs commands in children of its own, as main does.
$(BUILD)/tests/test_cli_interrupt: TEST_CLI := $(CLI_LIB_OBJ)
$(BUILD)/tests/test_cli_interrupt: $(CLI_LIB_OBJ)

# The SQLite extension, build/coinrow.so (docs/sql.md).  It links
# position-independent copies of the core, of the values parser and of the
# error formatter it uses, built under $(BUILD)/pic/ with hidden symbols
# (calls inside the library stay direct); exports.map exports the entry
# point alone, and -z defs refuses a symbol left undefined (but under
# ThreadSanitizer, whose runtime the program that loads the library has).
EXT_DEFS := $(if $(filter thread,$(SANITIZE)),,-Wl,-z,defs)
EXT_OBJ := $(patsubst %.c,$(BUILD)/pic/%.o,$(wildcard src/ext/*.c) src/util/coins.c src/util/errorf.c src/util/memory.c \
    src/util/text.c)
PIC_CORE := $(BUILD)/pic/libcoinrow.a
EXT_TESTS := $(filter $(BUILD)/tests/test_ext_%,$(TESTS))
$(BUILD)/pic/%.o: %.c | deps-check
	@mkdir -p $(@D)
	$(COMPILE) -Isrc -fPIC -fvisibility=hidden -c $< -o $@
$(PIC_CORE): $(CORE_SRC:%.c=$(BUILD)/pic/%.o)
	rm -f $@ && $(AR) rcs $@ $^
$(BUILD)/pic/src/ext/ext.o: $(BUILD)/gen/version.h
$(BUILD)/pic/src/ext/ext.o: CR_CPPFLAGS += -I$(BUILD)/gen
$(EXT): $(EXT_OBJ) $(PIC_CORE) src/ext/exports.map | $(CHECKS)
	$(CC) -shared $(CR_LDFLAGS) $(LDFLAGS) -Wl,--version-script=src/ext/exports.map $(EXT_DEFS) $(EXT_OBJ) \
	    $(PIC_CORE) -o $@
$(EXT_TESTS): $(EXT)

# The man page and the bash completion, written by coinrow-doc from the
# command tables --help prints (src/cli/doc/main.c); dated by the last commit.
DOC_DATE := $(shell git log -1 --format=%cs 2>/dev/null || echo 1970-01-01)
$(DOC_GEN): $(BUILD)/src/cli/doc/main.o $(CLI_LIB_OBJ) $(LIBS_UP) $(LIBCORE)
	@mkdir -p $(@D)
	$(CC) $(CR_LDFLAGS) $(LDFLAGS) $^ $(CR_LDLIBS) $(LDLIBS) -o $@
$(MAN): $(DOC_GEN)
	@mkdir -p $(@D)
	$(DOC_GEN) man "$(VERSION)" "$(DOC_DATE)" > $@
$(COMPLETION): $(DOC_GEN)
	@mkdir -p $(@D)
	$(DOC_GEN) bash > $@

# The man page read by mandoc -T lint (and groff -ww when there is one):
# nothing to report, style included (scripts/check-man.sh).
$(BUILD)/check/man.ok: $(MAN) scripts/check-man.sh
	@mkdir -p $(@D)
	@sh scripts/check-man.sh $(MAN) && touch $@

# The tree's rules, checked whenever what they look at changes; a build that
# breaks one fails.  check-layers.sh: includes point down the layers of
# scripts/layers.txt, no folder's private header is included from outside it,
# SQL stays in the store; check-calls.sh: the objects' symbols call down the
# layers too, and no files call each other in a circle;
# check-core-symbols.sh: the core links only against memory and string
# functions; check-headers.sh: the umbrella header includes every public
# header, and each compiles alone.
$(BUILD)/check/layers.ok: $(shell find include src -name '*.[ch]' -o -name '*.cpp') scripts/check-layers.sh \
    scripts/layers.txt
	@mkdir -p $(@D)
	@sh scripts/check-layers.sh && touch $@
CALL_OBJ := $(CORE_OBJ) $(UP_OBJ) $(CLI_OBJ) $(BUILD)/src/cli/doc/main.o $(BUILD)/src/store/flatten/main.o $(filter $(BUILD)/pic/src/ext/%,$(EXT_OBJ))
$(BUILD)/check/calls.ok: $(CALL_OBJ) scripts/check-calls.sh scripts/layers.txt
	@mkdir -p $(@D)
	@sh scripts/check-calls.sh $(BUILD) $(CALL_OBJ) && touch $@
$(BUILD)/check/core-symbols.ok: $(LIBCORE) scripts/check-core-symbols.sh
	@mkdir -p $(@D)
	@sh scripts/check-core-symbols.sh $(LIBCORE) && touch $@
$(BUILD)/check/headers.ok: include/coinrow.h $(wildcard include/coinrow/*.h) scripts/check-headers.sh
	@mkdir -p $(@D)
	@CC="$(CC)" sh scripts/check-headers.sh && touch $@
# The core also compiles as C++, inside the exported Polygon checker
# (files/check.cpp); without a C++ compiler this is said and not checked.
$(BUILD)/check/core-cxx.ok: $(CORE_SRC) $(wildcard src/core/*.h include/coinrow/*.h)
	@mkdir -p $(@D)
	@if command -v $(CXX) >/dev/null 2>&1; then \
	    for f in $(CORE_SRC); do \
	        $(CXX) -x c++ -std=c++11 $(CR_CPPFLAGS) -fsyntax-only -Wall -Wextra -Wno-unknown-pragmas -Werror $$f || exit 1; \
	    done; touch $@; \
	else echo "the core as C++: not checked ($(CXX) not found)"; fi
check: $(CHECKS)

# A plain build only names what is missing; `make deps` installs it.
deps-check:
	@CC="$(CC)" sh scripts/deps.sh check $(DEPS_BUILD)
deps:
	@CC="$(CC)" sh scripts/deps.sh install $(DEPS_BUILD) $(DEPS_TEST)

# The build's own promises (tests/build.sh): flags, installing nothing, and
# `make install` into a temporary DESTDIR used through pkg-config alone.
# Every test program, each with the coinrow it runs, then the report in a
# browser (tests/report/browser.sh), the build's promises and the mutations'
# snippets (an edit that moves code a mutation plants in breaks it);
# $$failed says whether one failed, and $(FAILED_LIST) names what failed, a
# line each ("FAILED tests/test_x.c: test_name", scripts/run-test.sh): the
# last lines of a failed run, which make test-hold collects too.
FAILED_LIST := $(BUILD)/tests/failed.txt
RUN_TESTS = failed=0; mkdir -p $(BUILD)/tests; : > $(FAILED_LIST); \
    for t in $(TESTS); do echo "== $$t"; CR_BIN=$(BIN) sh scripts/run-test.sh $(FAILED_LIST) $$t || failed=1; done
# a step that is not a test program: named when it fails
FAILED_STEP = { failed=1; echo "FAILED $(1)" >> $(FAILED_LIST); }
SAY_FAILED = if [ $$failed != 0 ]; then cat $(FAILED_LIST); echo "$(1)"; exit 1; fi
test: deps
	@$(MAKE) --no-print-directory $(BIN) $(TESTS) check $(BUILD)/check/man.ok
	@$(RUN_TESTS); \
	echo "== tests/report/browser.sh"; COINROW=$(BIN) sh tests/report/browser.sh || $(call FAILED_STEP,tests/report/browser.sh); \
	echo "== tests/build.sh"; MAKE="$(MAKE)" CC="$(CC)" SANITIZE="$(SANITIZE)" sh tests/build.sh || $(call FAILED_STEP,tests/build.sh); \
	echo "== every mutation of tests/mutations/ still finds its code"; \
	python3 scripts/mutate.py --check || $(call FAILED_STEP,scripts/mutate.py --check); \
	$(call SAY_FAILED,TESTS FAILED); echo "all tests passed"

# Whether the suite holds at any pace (scripts/test-hold.sh): make test three
# times, once pinned to one CPU and once beside a busy loop on every core,
# then every test that failed in any run.  Five suites long: not in .ci/run.
test-hold: deps
	@$(MAKE) --no-print-directory $(BIN) $(TESTS) check $(BUILD)/check/man.ok
	@MAKE="$(MAKE)" sh scripts/test-hold.sh $(BUILD)

# Coverage (docs/testing.md): the test programs on the instrumented build in
# build/cov, from fresh counters, then scripts/coverage.sh: the figures per
# layer against their targets, and build/cov/coverage/index.html.
coverage: deps
	@sh scripts/deps.sh install gcovr:gcovr
	@$(MAKE) --no-print-directory COVERAGE=1 coverage-report
coverage-report:
	@test "$(COVERAGE)" = 1 || { echo "make coverage-report: run make coverage" >&2; exit 2; }
	@$(MAKE) --no-print-directory $(BIN) $(TESTS)
	@find $(BUILD) -name '*.gcda' -delete
	@$(RUN_TESTS); \
	sh scripts/coverage.sh $(BUILD) || $(call FAILED_STEP,scripts/coverage.sh); \
	$(call SAY_FAILED,COVERAGE FAILED)

# Mutation testing (docs/testing.md): each mutation of tests/mutations/ planted
# in a scratch copy of the tree, built and tested; killed or survived, then
# the score.  Slow, so not in make test; MUTATE_ARGS="NAME..." runs only those.
mutate: deps
	@sh scripts/deps.sh install python3:python3
	@python3 scripts/mutate.py $(MUTATE_ARGS)

# The recipes in contrib/ on a one-node Slurm cluster started for the test
# (tests/cluster/run.sh); skipped, saying why, when not root.
test-cluster: $(BIN)
	@COINROW="$${COINROW:-$(BIN)}" bash tests/cluster/run.sh

# Fresh exports of every variant checked by Kattis' verifyproblem, the Polygon
# checker built with testlib and run, its Polygon2DOMjudge conversion judged,
# and the CMS checker (tests/judges/run.sh); skipped, saying why, without the
# tools.
test-judges: $(BIN)
	@COINROW="$${COINROW:-$(BIN)}" bash tests/judges/run.sh

# Installing: PREFIX and DESTDIR as usual; the directories may be set one by one.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL ?= install
# the libraries that go to LIBDIR: the core and the SQLite extension
INSTALL_LIBS := $(LIBCORE) $(EXT)
INSTALLED_HEADERS := $(wildcard include/coinrow/*.h)

$(BUILD)/coinrow.pc: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' 'Name: coinrow' \
	    'Description: the pure solver core of the "coins in a row" game' 'Version: $(VERSION)' \
	    'Libs: -L$${libdir} -lcoinrow' 'Cflags: -I$${includedir}' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

install: $(BIN) $(INSTALL_LIBS) $(BUILD)/coinrow.pc $(MAN) $(COMPLETION)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/coinrow $(DESTDIR)$(PKGCONFIGDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	$(INSTALL) -m 755 $(BIN) $(DESTDIR)$(BINDIR)/coinrow
	$(INSTALL) -m 644 $(INSTALL_LIBS) $(DESTDIR)$(LIBDIR)
	$(INSTALL) -m 644 include/coinrow.h $(DESTDIR)$(INCLUDEDIR)/coinrow.h
	$(INSTALL) -m 644 $(INSTALLED_HEADERS) $(DESTDIR)$(INCLUDEDIR)/coinrow
	$(INSTALL) -m 644 $(BUILD)/coinrow.pc $(DESTDIR)$(PKGCONFIGDIR)/coinrow.pc
	$(INSTALL) -m 644 $(MAN) $(DESTDIR)$(MANDIR)/man1/coinrow.1
	$(INSTALL) -m 644 $(COMPLETION) $(DESTDIR)$(COMPLETIONDIR)/coinrow

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/coinrow $(addprefix $(DESTDIR)$(LIBDIR)/,$(notdir $(INSTALL_LIBS))) \
	    $(DESTDIR)$(INCLUDEDIR)/coinrow.h $(addprefix $(DESTDIR)$(INCLUDEDIR)/coinrow/,$(notdir $(INSTALLED_HEADERS))) \
	    $(DESTDIR)$(PKGCONFIGDIR)/coinrow.pc $(DESTDIR)$(MANDIR)/man1/coinrow.1 $(DESTDIR)$(COMPLETIONDIR)/coinrow
	-rmdir $(DESTDIR)$(INCLUDEDIR)/coinrow 2>/dev/null

# The main job on the sample data, into a fresh database, and a look at it.
# The README's first command: like make test, it installs what the build
# misses when run as root (else names the command), and builds only then.
DEMO_DB := $(BUILD)/demo.db
demo:
	@CC="$(CC)" sh scripts/deps.sh install $(DEPS_BUILD)
	@$(MAKE) --no-print-directory $(BIN)
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	$(BIN) run sample-data/ --db $(DEMO_DB)
	$(BIN) show --db $(DEMO_DB) --limit 12

bench: bench-core bench-jury bench-check bench-pipeline bench-ext bench-invoke bench-interactive bench-wal bench-report

bench-core: $(BUILD)/bench/bench_core
	$(BUILD)/bench/bench_core

# The online jury's own CPU time for a game (docs/performance.md).
bench-jury: $(BUILD)/bench/bench_jury
	$(BUILD)/bench/bench_jury $(BENCH_JURY_ARGS)

# coinrow check and a fresh export's Kattis and Polygon checkers on lines of
# 10^6 moves (docs/performance.md); BENCH_CHECK_ARGS="--n N --rows R".
bench-check: $(BIN) $(BUILD)/bench/bench_check
	$(BUILD)/bench/bench_check $(BIN) third_party/testlib $(BENCH_CHECK_ARGS)

# coinrow run against the sqlite3 shell's .import of the same CSV
# (docs/performance.md); the sqlite3 shell is installed here when run as root.
bench-pipeline: $(BIN) $(BUILD)/bench/bench_pipeline
	@sh scripts/deps.sh install sqlite3:sqlite3
	$(BUILD)/bench/bench_pipeline $(BIN) $(BENCH_ARGS)

# What issue 34 measures (docs/performance.md, "Reading results back"):
# coinrow run --variant all against .import, the database's bytes by table
# and index, and queries through result and result_view against the same
# rows in plain tables; medians of 5.
bench-read: $(BIN) $(BUILD)/bench/bench_pipeline
	@sh scripts/deps.sh install sqlite3:sqlite3
	$(BUILD)/bench/bench_pipeline $(BIN) --read-back --reps 5 $(BENCH_ARGS)

# SUM(coinrow_value(coins, 'diff')) against SUM over json_each on the same
# rows (docs/sql.md, "Speed"); BENCH_EXT_ARGS="--rows N --reps R".
bench-ext: $(EXT) $(BUILD)/bench/bench_ext
	@sh scripts/deps.sh install sqlite3:sqlite3
	$(BUILD)/bench/bench_ext $(EXT) $(BENCH_EXT_ARGS)

# invoke's overhead per instance, what --sandbox adds to it, and --builtin
# throughput (docs/invoke.md, "Figures"); BENCH_INVOKE_ARGS="--instances N
# --builtin-instances M --sandbox-instances K --reps R".
bench-invoke: $(BIN) $(BUILD)/bench/bench_invoke
	@sh scripts/deps.sh install bubblewrap:bwrap
	$(BUILD)/bench/bench_invoke $(BIN) $(BENCH_INVOKE_ARGS)

# One game of n = 10^5 through invoke --interactive against a bare relay
# over the same pipes (docs/invoke.md, "Interactive"; issue 37's target:
# at most 1.5 times); BENCH_INTERACTIVE_ARGS="--n N --reps R".
bench-interactive: $(BIN) $(BUILD)/bench/bench_interactive
	$(BUILD)/bench/bench_interactive $(BIN) $(BENCH_INTERACTIVE_ARGS)

# coinrow report of a 10^6-instance set with two runs and an invocation:
# its time and its size (docs/performance.md, "The report");
# BENCH_REPORT_ARGS="--instances N --reps R".
bench-report: $(BIN)
	bash bench/bench_report.sh $(BIN) $(BENCH_REPORT_ARGS)

# Shards and their merge against the single run (bench/bench_scale.sh): the
# figures of docs/scaling.md and issue 35's targets.  Not in make bench: it
# takes a quiet machine about ten minutes.
bench-scale: $(BIN)
	@sh scripts/deps.sh install sqlite3:sqlite3
	bash bench/bench_scale.sh $(BIN) $(BENCH_SCALE_ARGS)

# A run's peak WAL beside no reader, two sqlite3 query loops and one held read
# transaction (docs/batch.md, "What a long reader costs").
bench-wal: $(BIN) $(BUILD)/bench/bench_wal
	@sh scripts/deps.sh install sqlite3:sqlite3
	$(BUILD)/bench/bench_wal $(BIN) $(BENCH_WAL_ARGS)

$(BUILD)/bench/%: bench/%.c $(LIBCORE)
	@mkdir -p $(@D)
	$(COMPILE) -Isrc $(CR_LDFLAGS) $(LDFLAGS) $(filter %.c,$^) $(LIBCORE) $(CR_LDLIBS) $(LDLIBS) -o $@
$(BUILD)/bench/bench_pipeline: bench/read_back.c bench/read_back.h

# Fuzzing (docs/testing.md): one libFuzzer target per tests/fuzz/fuzz_NAME.c,
# linked with every layer but the CLI's main; its seeds are
# tests/fuzz/corpus/NAME/, what it finds goes to build/fuzz/corpus/NAME/.
# scripts/fuzz.sh installs clang (and libFuzzer) when run as root, and
# otherwise skips, saying so.
FUZZ_SECONDS ?= 30
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_LINK := $(CLI_LIB_OBJ) $(LIBS_UP) $(LIBCORE)
fuzz:
	@MAKE="$(MAKE)" sh scripts/fuzz.sh build
fuzz-smoke:
	@MAKE="$(MAKE)" sh scripts/fuzz.sh smoke $(FUZZ_SECONDS) $(FUZZ_NAMES)
# (with FUZZ=1, from scripts/fuzz.sh)
fuzz-targets: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LINK)
	$(COMPILE) -Isrc -Itests/fuzz $(CR_LDFLAGS) $(LDFLAGS) -fsanitize=fuzzer $< $(FUZZ_LINK) $(CR_LDLIBS) $(LDLIBS) -o $@

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
