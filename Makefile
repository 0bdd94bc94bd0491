# bootab build. `make` builds ./bootab; `make check` runs unit and CLI tests;
# `make check-asan` runs the same suite built with ASan + UBSan.

.DEFAULT_GOAL := all

CC       ?= cc
PREFIX   ?= /usr/local
BUILD    ?= build
WERROR   ?=
SAN      ?=

# Debian -dev package for each pkg-config module bootab links against.
PKGS     := jansson:libjansson-dev inih:libinih-dev gsl:libgsl-dev libpci:libpci-dev
TEST_PKGS := cmocka:libcmocka-dev

pkg_names = $(foreach p,$(1),$(firstword $(subst :, ,$(p))))
missing = $(strip $(foreach p,$(1),$(if $(shell pkg-config --exists $(firstword $(subst :, ,$(p))) 2>/dev/null && echo y),,$(word 2,$(subst :, ,$(p))))))

ifeq ($(shell command -v pkg-config 2>/dev/null),)
$(error pkg-config not found: install it with 'apt-get install pkg-config')
endif
# `make deps`, `make test` and `make demo` install what is missing first,
# so they must not stop here.
ifeq ($(filter deps test demo,$(MAKECMDGOALS)),)
MISSING := $(call missing,$(PKGS))
ifneq ($(MISSING),)
$(error missing build dependencies: install them with 'apt-get install $(MISSING)' (or run 'make deps'))
endif
endif

WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes \
            -Wstrict-prototypes -Wwrite-strings -Wno-missing-field-initializers
CFLAGS   ?= -O2 -g
override CFLAGS += -std=c17 -D_GNU_SOURCE $(WARN) $(WERROR) $(SAN) -Isrc \
            $(shell pkg-config --cflags $(call pkg_names,$(PKGS)))
override LDLIBS += $(shell pkg-config --libs $(call pkg_names,$(PKGS))) -lm -ldl
override LDFLAGS += $(SAN)

# Every .c file below src/ except main.c and cmd-*.c goes into the library
# that unit tests link against; new modules need no Makefile edit.
LIB_SRC  := $(sort $(wildcard src/lib/*.c src/parsers/*.c src/boot/*.c src/report/*.c) \
            $(filter-out src/main.c src/cmd-%.c,$(wildcard src/*.c)))
CMD_SRC  := $(sort $(wildcard src/cmd-*.c)) src/main.c
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ  := $(CMD_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/unit/test-*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
HEADERS  := $(wildcard src/*.h src/*/*.h)
SCRIPTS  := $(sort $(wildcard src/target/*.sh))

deps:
	sh tools/install-deps.sh

# The README's test command: install what is missing, then the whole suite,
# plain and under ASan + UBSan, and the lint.
test: deps
	$(MAKE) check
	$(MAKE) check-asan
	$(MAKE) lint

.PHONY: deps test all check check-unit check-cli check-asan lint clean bench bench-method bench-method-quick demo install uninstall

all: bootab

bootab: $(BUILD)/bootab
	ln -sf $(BUILD)/bootab $@

$(BUILD)/bootab: $(CMD_OBJ) $(BUILD)/libbootab.a
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libbootab.a $(LDLIBS)

$(BUILD)/libbootab.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c $(HEADERS) $(BUILD)/src/target-scripts.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -I$(BUILD)/src -c -o $@ $<

# Target-side POSIX sh scripts are carried inside the binary.
$(BUILD)/src/target-scripts.h: $(SCRIPTS) tools/embed-scripts.sh
	@mkdir -p $(dir $@)
	sh tools/embed-scripts.sh $(SCRIPTS) > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libbootab.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -I$(BUILD)/src $(shell pkg-config --cflags cmocka) \
	    -DFIXTURES='"$(CURDIR)/tests/fixtures"' -o $@ $< $(BUILD)/libbootab.a \
	    $(LDFLAGS) $(shell pkg-config --libs cmocka) $(LDLIBS)

# The statistics' own benchmark (docs/statistics.md): simulated campaigns
# through compare_sides().
$(BUILD)/bench/method: bench/method/method.c $(BUILD)/libbootab.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -I$(BUILD)/src -o $@ $< $(BUILD)/libbootab.a $(LDFLAGS) $(LDLIBS)

check-deps:
	@m="$(call missing,$(TEST_PKGS))"; if [ -n "$$m" ]; then \
	    echo "missing test dependencies: install them with 'apt-get install $$m'" >&2; exit 2; fi
	@command -v bats >/dev/null || { echo "missing test dependency: install it with 'apt-get install bats'" >&2; exit 2; }

check: check-deps check-unit check-cli

check-unit: $(TEST_BIN)
	@fail=0; for t in $(TEST_BIN); do \
	    echo "== $$t"; $(TEST_WRAP) $$t || fail=1; done; exit $$fail

check-cli: bootab $(BUILD)/bench/method
	BOOTAB="$(CURDIR)/$(BUILD)/bootab" METHOD_BENCH="$(CURDIR)/$(BUILD)/bench/method" \
	    TEST_WRAP="$(TEST_WRAP)" bats tests/cli

# The lab's QEMU boots are the slow part of the suite; they run once, in the
# plain pass, and the sanitizer pass skips them.
check-asan:
	BOOTAB_TEST_NO_LAB=check-asan $(MAKE) BUILD=build-asan SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    CFLAGS="-O1 -g" check

lint:
	$(MAKE) WERROR=-Werror BUILD=build-lint bootab $(TEST_BIN:$(BUILD)/%=build-lint/%) build-lint/bench/method
	shellcheck -s sh $(SCRIPTS) tools/*.sh
	shellcheck .ci/run $(wildcard lab/*.sh)
	shellcheck -s sh $(wildcard lab/guest/*.sh)

# The main job. Until a campaign can run against the lab, it compares the
# case study's recorded boots.
demo: deps
	$(MAKE) bootab
	./bootab compare --by-run strata-prefill --by-run strata-decode \
	    examples/case-study/round2/pt examples/case-study/round2/translated \
	    examples/case-study/round2/off examples/case-study/round2/pt2

bench: bootab
	sh bench/compare.sh ./bootab 5

# The full grid takes about 15 minutes of CPU; its CSV goes to
# bench/method/results.csv and its summary into docs/statistics.md.
bench-method: $(BUILD)/bench/method
	nice $(BUILD)/bench/method > bench/method/results.csv.tmp && \
	    mv bench/method/results.csv.tmp bench/method/results.csv
	sh bench/method/summarise.sh bench/method/results.csv

bench-method-quick: $(BUILD)/bench/method
	$(BUILD)/bench/method --quick

clean:
	rm -rf build build-asan build-lint bootab
