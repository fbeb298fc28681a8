# lrutop — plain Makefile with pkg-config (STYLE.md rule 10).
#
#   make            build ./lrutop
#   make check      build, run every test, rebuild with ASan+UBSan, run again
#   make demo       install missing deps, build, start the demo
#   make bench      reproducible speed/memory measurements (bench/)
#   make install    PREFIX=/usr/local DESTDIR=
#   make deps       apt-get what pkg-config / command -v say is missing

PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
BUILD    ?= build
PKGS     := ncursesw libproc2 jansson
TEST_PKGS := cmocka

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
ALL_CFLAGS := $(WARN) $(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS)

SRCS     := $(wildcard src/*.c)
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(filter-out src/main.c,$(SRCS)))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
BENCH_SRCS := $(wildcard bench/*.c)
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))

.PHONY: all clean check check-build tests deps demo bench install uninstall format

all: lrutop

ifeq ($(BUILD),build)
lrutop: $(BUILD)/lrutop
	rm -f $@ && cp $< $@
endif

$(BUILD)/lrutop: $(BUILD)/main.o $(BUILD)/liblrutop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/liblrutop.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -c -o $@ $<

$(BUILD):
	mkdir -p $(BUILD)/tests $(BUILD)/bench

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/liblrutop.a $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(TEST_CFLAGS) -Isrc -o $@ $< $(BUILD)/liblrutop.a $(PKG_LIBS) $(TEST_LIBS) -lm

$(BUILD)/bench/%: bench/%.c $(BUILD)/liblrutop.a $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Isrc -o $@ $< $(BUILD)/liblrutop.a $(PKG_LIBS) -lm

tests: $(BUILD)/lrutop $(UNIT_BINS)

# Both passes feed one summary line (tests/run prints it).
check: deps
	$(MAKE) tests
	$(MAKE) BUILD=build-asan SAN=1 tests
	tests/run build build-asan

bench: deps lrutop $(BENCH_BINS)
	bench/run $(BUILD)

demo: deps lrutop
	./lrutop --demo

deps:
	@tools/deps

install: lrutop
	install -D -m 755 lrutop $(DESTDIR)$(PREFIX)/bin/lrutop
	install -d $(DESTDIR)$(PREFIX)/share/lrutop/themes
	install -m 644 themes/*.theme $(DESTDIR)$(PREFIX)/share/lrutop/themes/
	install -D -m 644 man/lrutop.1 $(DESTDIR)$(PREFIX)/share/man/man1/lrutop.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/lrutop $(DESTDIR)$(PREFIX)/share/man/man1/lrutop.1
	rm -rf $(DESTDIR)$(PREFIX)/share/lrutop

format:
	clang-format -i src/*.c src/*.h tests/unit/*.c bench/*.c

clean:
	rm -rf build build-asan lrutop

-include $(wildcard $(BUILD)/*.d)
