# coinrow — build, test and benchmark.
#
#   make                 build/coinrow and build/coinrow.so (the SQLite extension)
#   make test            every test (installs missing Debian packages as root)
#   make test SANITIZE=1 the same under AddressSanitizer + UBSan (in build/san)
#   make test-cluster    the Slurm and GNU parallel recipes for real (root; installs
#                        and starts slurm and munge)
#   make bench           the benchmarks (figures for the README)
#   make bench-pipeline  only the batch pipeline's (BENCH_ARGS="--reps R --against OLD-COINROW ...")
#   make bench-wal       what readers cost a run's WAL (BENCH_WAL_ARGS="--rows N --reps R --against OLD")
#   make fuzz            the libFuzzer targets of tests/fuzz/ in build/fuzz (clang; installed as root)
#   make fuzz-smoke      each of them for FUZZ_SECONDS (default 30) on its corpus
#   make bench-ext       only the SQL extension's (BENCH_EXT_ARGS="--rows N --reps R")
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
# The fuzz build (make fuzz): clang, every object instrumented for libFuzzer
# and the sanitizers, in build/fuzz.
ifeq ($(FUZZ),1)
BUILD   := build/fuzz
CC      := clang
CFLAGS  += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
           -Wno-pass-failed -Wno-missing-field-initializers
LDFLAGS += -fsanitize=address,undefined
endif

DEB_PACKAGES := libsqlite3-dev libcsv-dev libcmocka-dev
# header each package provides, in the same order
DEB_HEADERS  := sqlite3.h csv.h cmocka.h

CORE_SRC := $(wildcard src/core/*.c)
UTIL_SRC := $(wildcard src/util/*.c)
IO_SRC   := $(wildcard src/io/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
JUDGE_SRC := $(wildcard src/judge/*.c)
TEST_SRC := $(wildcard tests/test_*.c)
SUPPORT_SRC := $(wildcard tests/support/*.c)
SCHEMA   := $(sort $(wildcard schema/*.sql))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
UTIL_OBJ := $(UTIL_SRC:%.c=$(BUILD)/%.o)
JUDGE_OBJ := $(JUDGE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/judge_sources.o
IO_OBJ   := $(IO_SRC:%.c=$(BUILD)/%.o) $(if $(SCHEMA),$(BUILD)/gen/schema.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
SUPPORT_OBJ := $(SUPPORT_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

LIBCORE  := $(BUILD)/libcoinrow.a
LIBUTIL  := $(BUILD)/libcoinrow-util.a
LIBJUDGE := $(BUILD)/libcoinrow-judge.a
LIBIO    := $(BUILD)/libcoinrow-io.a
# every layer above the core, in link order
LIBS_UP  := $(LIBIO) $(LIBJUDGE) $(LIBUTIL)
BIN      := $(BUILD)/coinrow

VERSION  := $(shell git describe --tags --always --dirty 2>/dev/null || echo 0.1.0-nogit)

.PHONY: all test test-cluster check deps demo bench bench-core bench-pipeline bench-wal clean FORCE
.SECONDARY:
all: $(BIN)

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIBCORE): $(CORE_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
$(LIBUTIL): $(UTIL_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
$(LIBJUDGE): $(JUDGE_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
$(LIBIO): $(IO_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

# The schema files, applied in order, become one array of strings in the binary.
$(BUILD)/gen/schema.c: $(SCHEMA) scripts/embed-schema.sh
	@mkdir -p $(@D)
	sh scripts/embed-schema.sh $(SCHEMA) > $@
$(BUILD)/gen/schema.o: $(BUILD)/gen/schema.c
	$(CC) $(CPPFLAGS) -Isrc $(CFLAGS) -c $< -o $@

# The judge programs as single C files that build alone (the core, the judge
# runner and a main, amalgamated), embedded in coinrow for export.
JUDGE_PROGRAMS := $(BUILD)/judge/checker.c $(BUILD)/judge/validator.c
AMALGAMATED := $(CORE_SRC) $(wildcard src/core/*.h include/coinrow/*.h) $(wildcard src/util/*.[ch]) \
               src/judge/judge.c src/judge/judge.h scripts/amalgamate.sh
$(BUILD)/judge/%.c: src/judge/main/%.c $(AMALGAMATED)
	@mkdir -p $(@D)
	sh scripts/amalgamate.sh $< > $@
$(BUILD)/gen/judge_sources.c: $(JUDGE_PROGRAMS) scripts/embed-text.sh
	@mkdir -p $(@D)
	sh scripts/embed-text.sh cr_judge__checker_source $(BUILD)/judge/checker.c \
	    cr_judge__validator_source $(BUILD)/judge/validator.c > $@
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

$(BUILD)/src/util/%.o: CPPFLAGS += -Isrc
$(BUILD)/src/io/%.o: CPPFLAGS += -Isrc
$(BUILD)/src/cli/%.o: CPPFLAGS += -Isrc
$(BUILD)/src/judge/%.o: CPPFLAGS += -Isrc
$(BUILD)/tests/support/%.o: CPPFLAGS += -Itests -Isrc

$(BIN): $(CLI_OBJ) $(LIBS_UP) $(LIBCORE) | $(CHECKS)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(SUPPORT_OBJ) $(LIBS_UP) $(LIBCORE) | $(BIN)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc -Itests $(CFLAGS) $(LDFLAGS) $< $(SUPPORT_OBJ) $(LIBS_UP) $(LIBCORE) \
	    $(LDLIBS) -lcmocka -o $@

# The tree's layering (docs/design.md, "Layers"), checked whenever a source
# changes: a build that breaks it fails.  check-layers.sh: includes point
# down, SQL stays in the store; check-core-symbols.sh: the core links only
# against memory and string functions.
CHECKS := $(BUILD)/check/layers.ok $(BUILD)/check/core-symbols.ok
$(BUILD)/check/layers.ok: $(shell find include src -name '*.[ch]') scripts/check-layers.sh
	@mkdir -p $(@D)
	@sh scripts/check-layers.sh && touch $@
$(BUILD)/check/core-symbols.ok: $(LIBCORE) scripts/check-core-symbols.sh
	@mkdir -p $(@D)
	@sh scripts/check-core-symbols.sh $(LIBCORE) && touch $@
check: $(CHECKS)

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

test: deps check
	@$(MAKE) --no-print-directory $(BIN) $(TESTS)
	@failed=0; for t in $(TESTS); do \
	    echo "== $$t"; CR_BIN=$(BIN) $$t || failed=1; \
	done; \
	if [ $$failed = 0 ]; then echo "all tests passed"; else echo "TESTS FAILED"; exit 1; fi

# The recipes in contrib/ on a one-node Slurm cluster started for the test
# (tests/cluster/run.sh); skipped, saying why, when not root.
test-cluster: $(BIN)
	@COINROW="$${COINROW:-$(BIN)}" bash tests/cluster/run.sh

# The main job on the sample data, into a fresh database, and a look at it.
DEMO_DB := $(BUILD)/demo.db
demo: $(BIN)
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	$(BIN) run sample-data/ --db $(DEMO_DB)
	$(BIN) show --db $(DEMO_DB) --limit 12

bench: bench-core bench-pipeline bench-wal

bench-core: $(BUILD)/bench/bench_core
	$(BUILD)/bench/bench_core

# coinrow run against the sqlite3 shell's .import of the same CSV (README,
# "Batch pipeline"); the sqlite3 shell is installed here when run as root.
bench-pipeline: sqlite3-shell $(BIN) $(BUILD)/bench/bench_pipeline
	$(BUILD)/bench/bench_pipeline $(BIN) $(BENCH_ARGS)

# A run's peak WAL beside no reader, a sqlite3 query loop and one held read
# transaction (docs/batch.md, "What a long reader costs").
bench-wal: sqlite3-shell $(BIN) $(BUILD)/bench/bench_wal
	$(BUILD)/bench/bench_wal $(BIN) $(BENCH_WAL_ARGS)

$(BUILD)/bench/%: bench/%.c $(LIBCORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc $(CFLAGS) $(LDFLAGS) $< $(LIBCORE) $(LDLIBS) -o $@

# ---- the SQLite extension, build/coinrow.so (docs/sql.md) --------------------
# It links position-independent copies of the core, of the values parser and
# of the error formatter it uses, built under $(BUILD)/pic/ with hidden
# symbols (calls inside the library stay direct); exports.map exports the
# entry point alone, and -z defs refuses a symbol left undefined.
EXT      := $(BUILD)/coinrow.so
EXT_OBJ  := $(patsubst %.c,$(BUILD)/pic/%.o,$(wildcard src/ext/*.c) src/io/coins_text.c src/util/errorf.c)
PIC_CORE := $(BUILD)/pic/libcoinrow.a
EXT_TESTS := $(filter $(BUILD)/tests/test_ext_%,$(TESTS))

PREFIX   ?= /usr/local

.PHONY: bench-ext sqlite3-shell install install-ext
all: $(EXT)
test: sqlite3-shell
bench: bench-ext
install: install-ext

$(BUILD)/pic/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
$(PIC_CORE): $(CORE_SRC:%.c=$(BUILD)/pic/%.o)
	rm -f $@ && $(AR) rcs $@ $^
$(BUILD)/pic/src/ext/ext.o: $(BUILD)/gen/version.h
$(BUILD)/pic/src/ext/ext.o: CPPFLAGS += -I$(BUILD)/gen
$(EXT): $(EXT_OBJ) $(PIC_CORE) src/ext/exports.map | $(CHECKS)
	$(CC) -shared $(LDFLAGS) -Wl,--version-script=src/ext/exports.map -Wl,-z,defs $(EXT_OBJ) $(PIC_CORE) -o $@
$(EXT_TESTS): $(EXT)

install-ext: $(EXT)
	install -d $(DESTDIR)$(PREFIX)/lib
	install -m 644 $(EXT) $(DESTDIR)$(PREFIX)/lib/coinrow.so

# The shell the extension's tests (and bench-pipeline) run: Debian's sqlite3,
# installed here when run as root.
sqlite3-shell:
	@command -v sqlite3 >/dev/null || { \
	    if [ "$$(id -u)" = 0 ]; then echo "installing: sqlite3"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null; \
	    else echo "missing the sqlite3 shell; run: sudo apt-get update && sudo apt-get install -y sqlite3" >&2; exit 1; fi; }

# SUM(coinrow_value(coins, 'diff')) against SUM over json_each on the same
# rows (docs/sql.md, "Speed"); BENCH_EXT_ARGS="--rows N --reps R".
bench-ext: $(EXT) $(BUILD)/bench/bench_ext
	$(BUILD)/bench/bench_ext $(EXT) $(BENCH_EXT_ARGS)
# ---- end of the SQLite extension -----------------------------------------------

# ---- fuzzing (docs/testing.md, "Fuzzing") ---------------------------------------
# One libFuzzer target per tests/fuzz/fuzz_NAME.c, linked with every layer but
# the CLI's main; its seeds are tests/fuzz/corpus/NAME/, what it finds goes
# to build/fuzz/corpus/NAME/.  clang (and libFuzzer) are installed here when
# run as root; otherwise fuzz and fuzz-smoke skip, saying so.
FUZZ_SECONDS ?= 30
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS  := $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)
FUZZ_LINK  := $(filter-out $(BUILD)/src/cli/main.o,$(CLI_OBJ)) $(LIBS_UP) $(LIBCORE)

.PHONY: fuzz fuzz-smoke fuzz-targets
fuzz:
	@sh scripts/fuzz.sh build
fuzz-smoke:
	@sh scripts/fuzz.sh smoke $(FUZZ_SECONDS) $(FUZZ_NAMES)

# (with FUZZ=1, from scripts/fuzz.sh)
fuzz-targets: $(FUZZ_BINS)
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LINK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc -Itests/fuzz $(CFLAGS) $(LDFLAGS) -fsanitize=fuzzer $< $(FUZZ_LINK) $(LDLIBS) -o $@

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
