# coinrow — build, test and benchmark.
#
#   make                 build/coinrow
#   make test            every test (installs missing Debian packages as root)
#   make test SANITIZE=1 the same under AddressSanitizer + UBSan (in build/san)
#   make test-cluster    the Slurm and GNU parallel recipes for real (root; installs
#                        and starts slurm and munge)
#   make test-judges     exports checked with the judges' own tools (../shared/judge-tools
#                        or JUDGE_TOOLS=DIR; skipped when absent)
#   make bench           the benchmarks (figures for the README)
#   make bench-pipeline  only the batch pipeline's (BENCH_ARGS="--reps R --against OLD-COINROW ...")
#   make demo            the main job on sample-data/
#   WERROR=1             warnings are errors (CI)

CC      ?= cc
OPT     ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla
CPPFLAGS += -Iinclude -D_POSIX_C_SOURCE=200809L
CFLAGS  += $(OPT) $(WARN) -fopenmp-simd -pthread -MMD -MP
LDLIBS  += -lsqlite3 -lcsv -lpthread
BUILD   := build

ifeq ($(WERROR),1)
CFLAGS  += -Werror
endif
ifeq ($(SANITIZE),1)
BUILD   := build/san
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif

DEB_PACKAGES := libsqlite3-dev libcsv-dev libcmocka-dev
# header each package provides, in the same order
DEB_HEADERS  := sqlite3.h csv.h cmocka.h

CORE_SRC := $(wildcard src/core/*.c)
IO_SRC   := $(wildcard src/io/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
JUDGE_SRC := $(wildcard src/judge/*.c)
TEST_SRC := $(wildcard tests/test_*.c)
SUPPORT_SRC := $(wildcard tests/support/*.c)
SCHEMA   := $(sort $(wildcard schema/*.sql))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
IO_OBJ   := $(IO_SRC:%.c=$(BUILD)/%.o) $(if $(SCHEMA),$(BUILD)/gen/schema.o) \
            $(JUDGE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/judge_sources.o
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
SUPPORT_OBJ := $(SUPPORT_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

LIBCORE  := $(BUILD)/libcoinrow.a
LIBIO    := $(BUILD)/libcoinrow-io.a
BIN      := $(BUILD)/coinrow

VERSION  := $(shell git describe --tags --always --dirty 2>/dev/null || echo 0.1.0-nogit)

.PHONY: all test test-cluster test-judges check-core deps demo bench bench-core bench-pipeline clean FORCE
.SECONDARY:
all: $(BIN)

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIBCORE): $(CORE_OBJ)
	$(AR) rcs $@ $^
$(LIBIO): $(IO_OBJ)
	$(AR) rcs $@ $^

# The schema files, applied in order, become one array of strings in the binary.
$(BUILD)/gen/schema.c: $(SCHEMA) scripts/embed-schema.sh
	@mkdir -p $(@D)
	sh scripts/embed-schema.sh $(SCHEMA) > $@
$(BUILD)/gen/schema.o: $(BUILD)/gen/schema.c
	$(CC) $(CPPFLAGS) -Isrc $(CFLAGS) -c $< -o $@

# The judge programs' pieces (the core, the readers, the judge runner, each
# program's main), each amalgamated into one file and embedded in coinrow,
# which writes a program as its settings followed by its pieces
# (src/judge/source.c); with testlib.h, which the Polygon ones (C++) are
# written against.
JUDGE_MAINS := checker.c validator.c solution.c greedy.c brute_force.c check.cpp val.cpp
JUDGE_PIECES := $(BUILD)/judge/core.c $(BUILD)/judge/read_all.c $(BUILD)/judge/judge.c \
                $(addprefix $(BUILD)/judge/main/,$(JUDGE_MAINS))
TESTLIB := third_party/testlib/testlib.h third_party/testlib/LICENSE
JUDGE_HEADERS := $(wildcard src/core/*.h include/coinrow/*.h src/io/*.h src/judge/*.h) scripts/amalgamate.sh
$(BUILD)/judge/core.c: $(CORE_SRC) $(JUDGE_HEADERS)
	@mkdir -p $(@D) && echo "amalgamate $@" && sh scripts/amalgamate.sh $(CORE_SRC) > $@
# each piece leaves out the headers the pieces before it in its programs have
$(BUILD)/judge/read_all.c: JUDGE_AFTER := $(CORE_SRC)
$(BUILD)/judge/judge.c: JUDGE_AFTER := $(CORE_SRC) src/io/read_all.c
$(BUILD)/judge/main/checker.c $(BUILD)/judge/main/validator.c: JUDGE_AFTER := $(CORE_SRC) src/io/read_all.c \
    src/judge/judge.c
$(BUILD)/judge/main/solution.c $(BUILD)/judge/main/greedy.c $(BUILD)/judge/main/brute_force.c: \
    JUDGE_AFTER := $(CORE_SRC) src/io/read_all.c
$(BUILD)/judge/main/check.cpp $(BUILD)/judge/main/val.cpp: JUDGE_AFTER := $(CORE_SRC)
AMALGAMATE = @mkdir -p $(@D) && echo "amalgamate $@" && sh scripts/amalgamate.sh --after $(JUDGE_AFTER) -- $< > $@
$(BUILD)/judge/read_all.c: src/io/read_all.c $(JUDGE_HEADERS)
	$(AMALGAMATE)
$(BUILD)/judge/judge.c: src/judge/judge.c $(JUDGE_HEADERS)
	$(AMALGAMATE)
$(BUILD)/judge/main/%: src/judge/main/% $(JUDGE_HEADERS)
	$(AMALGAMATE)
$(BUILD)/gen/judge_sources.c: $(JUDGE_PIECES) $(TESTLIB) scripts/embed-text.sh
	@mkdir -p $(@D) && echo "embed $@"
	@sh scripts/embed-text.sh $(foreach f,$(JUDGE_PIECES),cr_judge__$(subst .,_,$(subst /,_,$(f:$(BUILD)/judge/%=%))) $(f)) \
	    cr_judge__testlib_h third_party/testlib/testlib.h cr_judge__testlib_license third_party/testlib/LICENSE > $@
$(BUILD)/gen/judge_sources.o: $(BUILD)/gen/judge_sources.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# The version is rewritten only when it changes, so that builds stay incremental.
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@echo '#define CR_VERSION "$(VERSION)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
$(BUILD)/src/cli/cmd_version.o: $(BUILD)/gen/version.h
$(BUILD)/src/cli/cmd_version.o: CPPFLAGS += -I$(BUILD)/gen
FORCE:

$(BUILD)/src/io/%.o: CPPFLAGS += -Isrc
$(BUILD)/src/cli/%.o: CPPFLAGS += -Isrc
$(BUILD)/src/judge/%.o: CPPFLAGS += -Isrc
$(BUILD)/tests/support/%.o: CPPFLAGS += -Itests -Isrc

$(BIN): $(CLI_OBJ) $(LIBIO) $(LIBCORE)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(SUPPORT_OBJ) $(LIBIO) $(LIBCORE) | $(BIN)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc -Itests $(CFLAGS) $(LDFLAGS) $< $(SUPPORT_OBJ) $(LIBIO) $(LIBCORE) \
	    $(LDLIBS) -lcmocka -o $@

# The core does no I/O: it must never include stdio.h or sqlite3.h.  It also
# compiles as C++, inside the exported Polygon checker (files/check.cpp).
check-core:
	@bad=$$(grep -lE '^\s*#\s*include\s*[<"](stdio|sqlite3)\.h[>"]' src/core/*.[ch] include/coinrow.h include/coinrow/*.h); \
	if [ -n "$$bad" ]; then echo "core includes stdio.h or sqlite3.h: $$bad" >&2; exit 1; fi; \
	echo "core includes: ok"
	@if command -v $(CXX) >/dev/null 2>&1; then \
	    for f in $(CORE_SRC); do \
	        $(CXX) -x c++ -std=c++11 $(CPPFLAGS) -fsyntax-only -Wall -Wextra -Wno-unknown-pragmas -Werror $$f || exit 1; \
	    done; echo "core compiles as C++: ok"; \
	else echo "core compiles as C++: not checked ($(CXX) not found)"; fi

# Debian packages the build needs: installed here when run as root.
deps:
	@missing=""; set -- $(DEB_HEADERS); \
	for pkg in $(DEB_PACKAGES); do \
	    echo "#include <$$1>" | $(CC) -E -x c - >/dev/null 2>&1 || missing="$$missing $$pkg"; shift; \
	done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing:$$missing"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null || exit 1; \
	    else \
	        echo "missing packages; run: sudo apt-get update && sudo apt-get install -y$$missing" >&2; exit 1; \
	    fi; \
	fi

test: deps check-core
	@$(MAKE) --no-print-directory $(BIN) $(TESTS)
	@failed=0; for t in $(TESTS); do \
	    echo "== $$t"; CR_BIN=$(BIN) $$t || failed=1; \
	done; \
	if [ $$failed = 0 ]; then echo "all tests passed"; else echo "TESTS FAILED"; exit 1; fi

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

# The main job on the sample data, into a fresh database, and a look at it.
DEMO_DB := $(BUILD)/demo.db
demo: $(BIN)
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	$(BIN) run sample-data/ --db $(DEMO_DB)
	$(BIN) show --db $(DEMO_DB) --limit 12

bench: bench-core bench-pipeline

bench-core: $(BUILD)/bench/bench_core
	$(BUILD)/bench/bench_core

# coinrow run against the sqlite3 shell's .import of the same CSV (README,
# "Batch pipeline"); the sqlite3 shell is installed here when run as root.
bench-pipeline: $(BIN) $(BUILD)/bench/bench_pipeline
	@command -v sqlite3 >/dev/null || { \
	    if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null; \
	    else echo "the benchmark needs the sqlite3 shell: sudo apt-get install -y sqlite3" >&2; exit 1; fi; }
	$(BUILD)/bench/bench_pipeline $(BIN) $(BENCH_ARGS)

$(BUILD)/bench/%: bench/%.c $(LIBCORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc $(CFLAGS) $(LDFLAGS) $< $(LIBCORE) $(LDLIBS) -o $@

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
