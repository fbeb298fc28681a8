# lrutop — plain Makefile with pkg-config (docs/style.md rule 10).
#
#   make            build ./lrutop (says which library pkg-config cannot find)
#   make check      install missing deps, build, run every test, rebuild with
#                   ASan+UBSan and run them again, fuzz each parser briefly
#   make demo       install missing deps, build, start the demo
#   make fuzz       install missing deps, fuzz each parser FUZZ_TIME s (300)
#   make bench      install missing deps, speed/memory measurements (bench/)
#   make install    PREFIX=/usr/local DESTDIR=
#   make deps       apt-get what pkg-config / command -v say is missing
#
# pkg-config is asked when this file is read, so a target that installs
# packages (demo, check, bench, fuzz) runs $(DEPS) first and then builds in
# a sub-make, which reads this file again with the packages in place.
# Plain `make` and `make install` do not install anything: they stop with
# the name of what is missing.

PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
BUILD    ?= build
DEPS     ?= tools/deps
FUZZ_CC  ?= clang
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 300
FUZZ_CHECK_TIME ?= 10
# make check / demo / fuzz / bench build with one job a CPU
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
FUZZ_JOBS ?= 2
PKGS     := ncursesw libproc2 jansson zlib
TEST_PKGS := cmocka
comma := ,

CFLAGS   ?= -O2 -g
WARN     := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifdef CI
WARN     += -Werror
endif
ifdef SAN
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
CPPFLAGS += -D_GNU_SOURCE -DPREFIX='"$(PREFIX)"' -DLRUTOP_SRCDIR='"$(CURDIR)"'
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_CFLAGS := $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS   := $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)
# -pthread: the reader parses a recording's lines on worker threads
# (recording_read_ahead); every link line, the fuzz targets' too, has it
ALL_CFLAGS := $(WARN) $(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) -pthread
# Recursive (=): only the need-* checks expand them, once each.
PKG_MISSING = $(shell for p in $(PKGS); do pkg-config --exists $$p 2>/dev/null || echo $$p; done)
TEST_PKG_MISSING = $(shell for p in $(TEST_PKGS); do pkg-config --exists $$p 2>/dev/null || echo $$p; done)

# src/ is split by layer, one folder each (tools/layers has the table and
# the check); src/*.c are main and the two front ends.  -Isrc is the only
# include path: a header is named with its folder ("runs/strategy.h"), so
# an include says which layer it reaches into.
SRCS     := $(wildcard src/*.c src/*/*.c)
HDRS     := $(wildcard src/*.h src/*/*.h)
INCS     := -Isrc
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(filter-out src/main.c,$(SRCS)))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
# bench/alloc_count.c is no bench: it is linked into those that count
# allocations (bench/alloc_count.h)
BENCH_SRCS := $(filter-out bench/alloc_count.c,$(wildcard bench/*.c))
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(FUZZ_SRCS))
FUZZ_FLAGS := -g -O1 $(WARN) -pthread -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer -D_GNU_SOURCE $(INCS)

# The ./lrutop copy is made for the default build directory only.
ifeq ($(BUILD),build)
BIN := lrutop
RUN := ./lrutop
else
BIN := $(BUILD)/lrutop
RUN := $(BUILD)/lrutop
endif
DEMO_CMD ?= $(RUN) --demo

.PHONY: all clean check tests deps demo bench fuzz fuzz-build install uninstall format \
	need-pkgs need-test-pkgs

all: $(BIN)

ifeq ($(BUILD),build)
lrutop: $(BUILD)/lrutop
	rm -f $@ && cp $< $@
endif

# Say what is missing instead of failing later with a missing header or
# dozens of undefined references.
need-pkgs:
	@command -v pkg-config >/dev/null 2>&1 || \
		{ echo "lrutop: pkg-config is not installed — run 'make deps'" >&2; exit 1; }
	@m='$(strip $(PKG_MISSING))'; [ -z "$$m" ] || \
		{ echo "lrutop: pkg-config cannot find $$m — run 'make deps'" >&2; exit 1; }

need-test-pkgs: need-pkgs
	@m='$(strip $(TEST_PKG_MISSING))'; [ -z "$$m" ] || \
		{ echo "lrutop: pkg-config cannot find $$m (for the tests) — run 'make deps'" >&2; exit 1; }

$(BUILD)/lrutop: $(BUILD)/main.o $(BUILD)/liblrutop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/liblrutop.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: src/%.c $(HDRS) | $(BUILD) need-pkgs
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(INCS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD):
	mkdir -p $(BUILD)/tests $(BUILD)/bench

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/liblrutop.a $(HDRS) | $(BUILD) need-test-pkgs
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(TEST_CFLAGS) $(INCS) -o $@ $< $(BUILD)/liblrutop.a $(PKG_LIBS) $(TEST_LIBS) -lm

$(BUILD)/bench/%: bench/%.c $(BUILD)/liblrutop.a $(HDRS) | $(BUILD)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(INCS) -o $@ $(filter %.c,$^) $(BUILD)/liblrutop.a $(PKG_LIBS) -lm

$(BUILD)/bench/tick: bench/alloc_count.c bench/alloc_count.h

# tests/sh/export_long.sh writes its long recording with the bench's generator
tests: $(BUILD)/lrutop $(UNIT_BINS) $(BUILD)/bench/record_size

# Each fuzz target is one libFuzzer binary: tests/fuzz/fuzz_X.c linked with
# the whole library built for fuzzing (coverage and sanitizers, not the
# fuzzer's main) — the linker takes the objects the target needs, so a new
# dependency of a parser never breaks a target's link (a hand-kept source
# list per target did, twice).
# A compiler without libFuzzer builds nothing; tests/run then reports a skip.
FUZZ_OBJ_FLAGS := $(subst -fsanitize=fuzzer$(comma),-fsanitize=fuzzer-no-link$(comma),$(FUZZ_FLAGS))
FUZZ_OBJS := $(patsubst src/%.c,$(FUZZ_BUILD)/obj/%.o,$(filter-out src/main.c,$(SRCS)))

fuzz-build:
	@if tools/libfuzzer-ok $(FUZZ_CC); then $(MAKE) --no-print-directory $(FUZZ_BINS); else \
		echo "fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer; fuzz targets not built (make deps installs clang)"; fi

$(FUZZ_BUILD)/obj/%.o: src/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_OBJ_FLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/liblrutop.a: $(FUZZ_OBJS)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/%: tests/fuzz/%.c $(FUZZ_BUILD)/liblrutop.a $(HDRS) tests/fuzz/fuzz.h
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) $(PKG_CFLAGS) -o $@ $< $(FUZZ_BUILD)/liblrutop.a $(PKG_LIBS) -lm

# The user-facing targets that install packages first, then build in a
# sub-make (see the top).  All passes feed one summary line (tests/run).
# The systemd guest's image (minutes of Debian's archive, on a machine that
# has none cached in /var/cache/lrutop-vm) starts building first, in the
# background, so it overlaps the compiles and the suites; tests/run runs
# JOBS suites at once (default: CPUs + 1).
check: deps
	@tools/vm/systemd-guest prebuild
	$(MAKE) -j$(BUILD_JOBS) tests
	$(MAKE) -j$(BUILD_JOBS) BUILD=build-asan SAN=1 tests
	$(MAKE) -j$(BUILD_JOBS) fuzz-build
	FUZZ_TIME=$(FUZZ_CHECK_TIME) FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_CC=$(FUZZ_CC) FUZZ_JOBS=$(FUZZ_JOBS) \
		tests/run $(BUILD) build-asan

bench: deps
	$(MAKE) -j$(BUILD_JOBS) all $(BENCH_BINS)
	bench/run $(BUILD)

demo: deps
	$(MAKE) -j$(BUILD_JOBS) all
	$(DEMO_CMD)

# Longer runs; what libFuzzer finds is kept in $(FUZZ_BUILD)/corpus/ for the
# next run (the committed seeds in tests/fuzz/corpus/ are never written).
fuzz: deps
	$(MAKE) -j$(BUILD_JOBS) fuzz-build
	FUZZ_TIME=$(FUZZ_TIME) FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_CC=$(FUZZ_CC) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_KEEP=1 \
		TESTS=$(or $(TESTS),tests/fuzz/) tests/run

deps:
	@$(DEPS)

install: $(BIN)
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/lrutop
	install -d $(DESTDIR)$(PREFIX)/share/lrutop/themes
	install -m 644 themes/*.theme $(DESTDIR)$(PREFIX)/share/lrutop/themes/
	install -D -m 644 man/lrutop.1 $(DESTDIR)$(PREFIX)/share/man/man1/lrutop.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/lrutop $(DESTDIR)$(PREFIX)/share/man/man1/lrutop.1
	rm -rf $(DESTDIR)$(PREFIX)/share/lrutop

format:
	clang-format -i $(SRCS) $(HDRS) tests/unit/*.c tests/fuzz/*.c tests/fuzz/*.h bench/*.c

clean:
	rm -rf build build-asan $(FUZZ_BUILD) lrutop

-include $(wildcard $(BUILD)/*.d $(BUILD)/*/*.d)
