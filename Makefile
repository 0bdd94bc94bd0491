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
# `make deps`, `make deps-test`, `make test` and `make demo` install what is
# missing first, so they must not stop here.
ifeq ($(filter deps deps-test test demo,$(MAKECMDGOALS)),)
MISSING := $(call missing,$(PKGS))
ifneq ($(MISSING),)
$(error missing build dependencies: install them with 'apt-get install $(MISSING)' (or run 'make deps'))
endif
endif

WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes \
            -Wstrict-prototypes -Wwrite-strings -Wno-missing-field-initializers
CFLAGS   ?= -O2 -g
# -MMD -MP: each object (and test program) depends on the headers it includes,
# as the compiler found them (BUILD/**/*.d).
override CFLAGS += -std=c17 -D_GNU_SOURCE $(WARN) $(WERROR) $(SAN) -MMD -MP -Isrc \
            $(shell pkg-config --cflags $(call pkg_names,$(PKGS)))
override LDLIBS += $(shell pkg-config --libs $(call pkg_names,$(PKGS))) -lm
override LDFLAGS += $(SAN)

# Every .c file below src/ except main.c and cmd-*.c goes into the library
# that unit tests link against; new modules need no Makefile edit.
LIB_SRC  := $(sort $(wildcard src/*/*.c) $(filter-out src/main.c src/cmd-%.c,$(wildcard src/*.c)))
CMD_SRC  := $(sort $(wildcard src/cmd-*.c)) src/main.c
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ  := $(CMD_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/unit/test-*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
SCRIPTS  := $(sort $(wildcard src/target/*.sh))
# Texts that are not C, embedded at build time (tools/embed-text.sh): the
# target scripts, the per-boot runner's shell helpers, report.html's CSS.
EMBED_H  := $(BUILD)/src/target-scripts.h $(BUILD)/src/runner-helpers.h $(BUILD)/src/report-css.h

# What bootab and its lab need (tools/debian-packages), for make demo; what
# the tests need besides (tools/debian-packages-test), for make test.
deps:
	sh tools/install-deps.sh tools/debian-packages

deps-test:
	sh tools/install-deps.sh tools/debian-packages tools/debian-packages-test

# The README's test command: install what is missing, then the whole suite,
# plain, under ASan + UBSan and under valgrind, and the lint.
test: deps-test
	sh tools/test-suite.sh

.PHONY: deps deps-test test all check check-unit check-cli check-cli-lab check-cli-nolab check-debian check-lab-fleet check-lava check-kernel-dev check-valgrind-unit check-valgrind-cli check-cli-plain-only print-valgrind-files build-tests check-asan check-fuzz check-valgrind lint clean bench \
	bench-method bench-method-quick bench-fleet bench-screen bench-scaling demo install uninstall man man-pages fuzz fuzz-build fuzz-targets

all: bootab man

# bootab(1): man/bootab.1.in with every command's section made from its usage
# text (tools/gen-man.sh), so 'bootab help CMD' and the page say the same.
man: $(BUILD)/man/bootab.1

$(BUILD)/man/bootab.1: man/bootab.1.in tools/gen-man.sh $(BUILD)/bootab
	@mkdir -p $(dir $@)
	sh tools/gen-man.sh $(BUILD)/bootab man/bootab.1.in > $@.tmp && mv $@.tmp $@

# bootab-plan(5) and bootab-results(5) are docs/plan.md and
# docs/results-format.md turned into man(7) by tools/md2man.sh: edit the
# doc, then run this. The pages are checked in (building needs no
# converter); make lint and tests/cli/man.bats check they are up to date.
MAN5_DOCS = plan:plan results:results-format
man-pages:
	for p in $(MAN5_DOCS); do \
	    sh tools/md2man.sh docs/$${p#*:}.md > man/bootab-$${p%%:*}.5.tmp && \
	    mv man/bootab-$${p%%:*}.5.tmp man/bootab-$${p%%:*}.5 || exit 1; \
	done

# make install PREFIX=/usr/local DESTDIR=: the binary, man pages, bash
# completion, docs and examples, and the lab builder (tools/install.sh lists
# the paths); make uninstall removes exactly those.
DESTDIR  ?=
install: $(BUILD)/bootab man
	sh tools/install.sh install $(BUILD) $(PREFIX) $(DESTDIR)

uninstall:
	sh tools/install.sh uninstall $(BUILD) $(PREFIX) $(DESTDIR)

bootab: $(BUILD)/bootab
	ln -sf $(BUILD)/bootab $@

$(BUILD)/bootab: $(CMD_OBJ) $(BUILD)/libbootab.a
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libbootab.a $(LDLIBS)

$(BUILD)/libbootab.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

# The generated headers exist before the first compile (order-only); after
# that the .d files name them for the objects that include them. An edited
# Makefile (flags) builds everything again.
$(BUILD)/%.o: %.c Makefile | $(EMBED_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -I$(BUILD)/src -c -o $@ $<

# Target-side POSIX sh scripts are carried inside the binary.
$(BUILD)/src/target-scripts.h: $(SCRIPTS) tools/embed-scripts.sh tools/embed-text.sh
	@mkdir -p $(dir $@)
	sh tools/embed-scripts.sh $(SCRIPTS) > $@.tmp && mv $@.tmp $@

# The shell helpers every per-boot script carries (src/campaign/runner.c).
$(BUILD)/src/runner-helpers.h: src/campaign/runner-helpers.sh tools/embed-text.sh
	@mkdir -p $(dir $@)
	sh tools/embed-text.sh runner_helpers src/campaign/runner-helpers.sh > $@.tmp && mv $@.tmp $@

# report.html's stylesheet; its whole-line comments stay out of the page.
$(BUILD)/src/report-css.h: src/report/report.css tools/embed-text.sh
	@mkdir -p $(dir $@)
	sed '/^\/\*.*\*\/$$/d' src/report/report.css > $@.css
	sh tools/embed-text.sh report_css $@.css > $@.tmp && mv $@.tmp $@

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

# A screening design against one mode per factor (docs/statistics.md):
# simulated boxes through design_effects().
$(BUILD)/bench/screen: bench/method/screen.c $(BUILD)/libbootab.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -I$(BUILD)/src -o $@ $< $(BUILD)/libbootab.a $(LDFLAGS) $(LDLIBS)

bench-screen: $(BUILD)/bench/screen
	$(BUILD)/bench/screen > bench/method/screen.csv

# Verdicts pooled over machines (docs/fleet.md): simulated fleets through
# compare_sides() and fleet_judge().
$(BUILD)/bench/fleet: bench/method/fleet.c $(BUILD)/libbootab.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -I$(BUILD)/src -o $@ $< $(BUILD)/libbootab.a $(LDFLAGS) $(LDLIBS)

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(TEST_BIN:=.d) $(BUILD)/bench/method.d $(BUILD)/bench/fleet.d

check-deps:
	@m="$(call missing,$(TEST_PKGS))"; if [ -n "$$m" ]; then \
	    echo "missing test dependencies: install them with 'apt-get install $$m'" >&2; exit 2; fi
	@command -v bats >/dev/null || { echo "missing test dependency: install it with 'apt-get install bats'" >&2; exit 2; }
	@command -v man >/dev/null && command -v groff >/dev/null || \
	    { echo "missing test dependency: install it with 'apt-get install man-db groff-base'" >&2; exit 2; }

check: check-deps check-unit check-cli $(if $(filter no,$(FUZZ_SMOKE)),,check-fuzz)

check-unit: $(TEST_BIN)
	@fail=0; for t in $(TEST_BIN); do \
	    echo "== $$t"; $(TEST_WRAP) $$t || fail=1; done; exit $$fail

# The CLI test files that boot the QEMU lab (tests/cli/helpers/lab.bash), and
# the others. check-cli runs both; `make test` runs them in separate lanes.
LAB_CLI   := $(filter-out tests/cli/lab-cli.bats tests/cli/lab-fixtures.bats,\
               $(sort $(wildcard tests/cli/lab.bats tests/cli/lab-*.bats)))
NOLAB_CLI := $(filter-out $(LAB_CLI),$(sort $(wildcard tests/cli/*.bats)))
CLI_FILES ?= tests/cli

check-cli: bootab man $(BUILD)/bench/method $(BUILD)/bench/fleet
	BOOTAB="$(CURDIR)/$(BUILD)/bootab" BOOTAB_BUILD="$(BUILD)" METHOD_BENCH="$(CURDIR)/$(BUILD)/bench/method" \
	    FLEET_BENCH="$(CURDIR)/$(BUILD)/bench/fleet" \
	    TEST_WRAP="$(TEST_WRAP)" bats $(CLI_FILES)

check-cli-lab:
	$(MAKE) CLI_FILES="$(LAB_CLI)" check-cli

check-cli-nolab:
	$(MAKE) CLI_FILES="$(NOLAB_CLI)" check-cli

# The Debian lab guest end to end (tests/cli/debian): the image built from
# Debian's archive with mmdebstrap when the cache has none, then one guest
# session of nine boots through GRUB and systemd. As root (skipped
# otherwise). Not part of check; `make test` runs it as its own job beside
# the lab's (tools/test-suite.sh). Its measured runs are in
# bench/results/lab-timings.md.
check-debian: bootab
	BOOTAB="$(CURDIR)/$(BUILD)/bootab" BOOTAB_BUILD="$(BUILD)" bats --timing tests/cli/debian

# A fleet campaign on two named lab boxes at once (tests/cli/fleet): two
# QEMUs side by side, two boots each. Not part of check; `make test` runs it
# after the lab's files, in the same job (tools/test-suite.sh). Its cost is in
# docs/fleet.md.
check-lab-fleet: bootab
	BOOTAB="$(CURDIR)/$(BUILD)/bootab" BOOTAB_BUILD="$(BUILD)" bats --timing tests/cli/fleet

# One real LAVA job (lava-server and lava-dispatcher from Debian) on a qemu
# device booting the lab's kernel and initramfs (tests/lava/check-lava.sh;
# docs/fleet.md). Not part of check or test: it starts PostgreSQL and LAVA's
# services by hand and takes about 4 minutes.
check-lava: bootab
	BOOTAB="$(CURDIR)/$(BUILD)/bootab" nice -n 19 sh tests/lava/check-lava.sh

# The kernel developer's lab kernel (lab/kernel-dev/capture.sh): Debian's
# linux-source-6.1 with KUnit and the DMA map benchmark, built under nice
# when its inputs changed, booted four times on the lab's machine, and the
# fixtures' tests (tests/cli/kernel-dev-lab.bats) run on this capture. Not
# part of check or test; its cost is in tests/fixtures/kernel-dev-lab/README.md.
KDEV_OUT ?= $(BUILD)/kernel-dev
check-kernel-dev: bootab
	bash lab/kernel-dev/capture.sh "$(KDEV_OUT)" 4
	KDEV_LAB_BOOTS="$(CURDIR)/$(KDEV_OUT)" BOOTAB="$(CURDIR)/$(BUILD)/bootab" bats tests/cli/kernel-dev-lab.bats

# The lab's QEMU boots are the slow part of the suite; they run once, in the
# plain pass, and the sanitizer pass skips them.
check-asan:
	BOOTAB_TEST_NO_LAB=check-asan $(MAKE) BUILD=build-asan SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    CFLAGS="-O1 -g" FUZZ_SMOKE=no check

# The -Werror build, no C function over 120 lines outside tests
# (tools/long-functions.sh), no bats line starting with a bare "!" that
# cannot fail its test (tools/bats-negations.sh), and shellcheck over every
# shell script.
lint:
	$(MAKE) WERROR=-Werror BUILD=build-lint bootab $(TEST_BIN:$(BUILD)/%=build-lint/%) build-lint/bench/method build-lint/bench/fleet build-lint/bench/screen
	sh tools/long-functions.sh 120 $(LIB_SRC) $(CMD_SRC)
	sh tools/bats-negations.sh $(wildcard tests/cli/*.bats tests/cli/*/*.bats)
	sh tools/doc-hashes.sh README.md docs/*.md
	for p in $(MAN5_DOCS); do \
	    sh tools/md2man.sh docs/$${p#*:}.md | cmp -s - man/bootab-$${p%%:*}.5 || \
	    { echo "man/bootab-$${p%%:*}.5 is not docs/$${p#*:}.md: run make man-pages" >&2; exit 1; }; \
	done
	shellcheck -s sh $(SCRIPTS) src/campaign/runner-helpers.sh tools/*.sh tests/cli/helpers/*.sh tests/cli/expected/*.sh bench/scaling.sh bench/snapshot-forks.sh bench/snapshot-same.sh bench/campaign-overhead.sh tests/lava/check-lava.sh
	shellcheck -s bash completion/bootab.bash
	shellcheck -x .ci/run $(wildcard lab/*.sh)
	shellcheck -s sh $(wildcard lab/guest/*.sh) lab/kernel-dev/init.sh
	shellcheck lab/kernel-dev/capture.sh

# The main job: a whole campaign (examples/lab-iommu.ini) against the QEMU
# lab, from lab up to the printed report and lab down (tools/demo.sh).
demo: deps
	$(MAKE) bootab
	sh tools/demo.sh

bench: bootab
	sh bench/compare.sh ./bootab 5

# Readers that once grew as n^2: fio jobs and IOMMU groups, medians and the
# ratio per doubling (about 2: linear).
bench-scaling: bootab
	sh bench/scaling.sh ./bootab 5

# The full grid takes about 15 minutes of CPU; its CSV goes to
# bench/method/results.csv and its summary to bench/results/method.md
# (docs/statistics.md quotes its figures).
bench-method: $(BUILD)/bench/method
	nice $(BUILD)/bench/method > bench/method/results.csv.tmp && \
	    mv bench/method/results.csv.tmp bench/method/results.csv
	sh bench/method/summarise.sh bench/method/results.csv > bench/results/method.md
	nice $(BUILD)/bench/method --sequential --null-draws 16384 --draws 2048 > bench/method/sequential.csv.tmp && \
	    mv bench/method/sequential.csv.tmp bench/method/sequential.csv
	sh bench/method/summarise-sequential.sh bench/method/sequential.csv

bench-method-quick: $(BUILD)/bench/method
	$(BUILD)/bench/method --quick

# Verdicts pooled over machines: the fleet cells' CSV and their summary
# (docs/fleet.md); about 5 minutes of CPU.
bench-fleet: $(BUILD)/bench/fleet
	nice $(BUILD)/bench/fleet > bench/method/fleet.csv.tmp && \
	    mv bench/method/fleet.csv.tmp bench/method/fleet.csv
	sh bench/method/fleet-summarise.sh bench/method/fleet.csv

# The unit tests and the CLI tests (but the QEMU lab's, which run once in
# the plain pass) under valgrind, with fewer random kills in the unit kill
# test (15): a memory error or a leak fails the test. `make test` runs it.
VALGRIND     := valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,possible
# The lab's files boot QEMU once, in the plain pass; crash.bats measures
# where kills land in time (valgrind's pace moves them all outside the
# writes), bench-method.bats and bench-fleet.bats run no bootab: they run in
# the plain and sanitizer passes only.
VALGRIND_CLI := $(filter-out tests/cli/crash.bats tests/cli/bench-method.bats tests/cli/bench-fleet.bats,$(NOLAB_CLI))

VALGRIND_FILES ?= $(VALGRIND_CLI)

# The non-lab CLI files the valgrind pass does not run, or skips
# (scaling.bats times the algorithm). `make test` runs only these bare: it
# runs every other one with the same plain binary under valgrind, so a bare
# run of them would repeat the same tests on the same binary.
PLAIN_ONLY_CLI := $(filter-out $(VALGRIND_CLI),$(NOLAB_CLI)) tests/cli/scaling.bats

check-cli-plain-only:
	$(MAKE) CLI_FILES="$(PLAIN_ONLY_CLI)" check-cli

# For tools/test-suite.sh: the valgrind pass's CLI files, and every program
# the plain pass runs.
print-valgrind-files:
	@echo $(VALGRIND_CLI)

build-tests: $(TEST_BIN) $(BUILD)/bench/method $(BUILD)/bench/fleet

check-valgrind: check-valgrind-unit check-valgrind-cli

check-valgrind-unit: bootab man $(TEST_BIN)
	@command -v valgrind >/dev/null || { echo "check-valgrind needs valgrind: install it with 'apt-get install valgrind'" >&2; exit 2; }
	@export BOOTAB_TEST_NO_LAB=check-valgrind BOOTAB_TEST_KILL_ITERATIONS=15; \
	fail=0; for t in $(TEST_BIN); do echo "== valgrind $$t"; $(VALGRIND) $$t > /dev/null || fail=1; done; exit $$fail

check-valgrind-cli: bootab man
	@command -v valgrind >/dev/null || { echo "check-valgrind needs valgrind: install it with 'apt-get install valgrind'" >&2; exit 2; }
	BOOTAB_TEST_NO_LAB=check-valgrind BOOTAB_VALGRIND_BIN="$(CURDIR)/$(BUILD)/bootab" \
	    BOOTAB="$(CURDIR)/tools/valgrind-bootab.sh" BOOTAB_BUILD="$(BUILD)" bats $(VALGRIND_FILES)

# libFuzzer targets (fuzz/fuzz-NAME.c), built with clang into build-fuzz/
# against the library compiled with coverage, ASan and UBSan.
# `make fuzz FUZZ_SECONDS=N` fuzzes each for N seconds, starting from the
# fixtures in fuzz/NAME.seeds, with fuzz/NAME.dict; findings land in
# build-fuzz/crashes/. `make check` runs a short smoke of each and every
# input kept in tests/fixtures/fuzz-regressions/NAME/.
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_BIN     := $(patsubst fuzz/%.c,$(BUILD)/fuzz/%,$(sort $(wildcard fuzz/fuzz-*.c)))

fuzz: fuzz-build
	FUZZ_JOBS=$(FUZZ_JOBS) sh tools/fuzz.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-build:
	@command -v clang >/dev/null || { echo "make fuzz needs clang: install it with 'apt-get install clang'" >&2; exit 2; }
	$(MAKE) BUILD=build-fuzz CC=clang SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" CFLAGS="-O1 -g" fuzz-targets

fuzz-targets: $(FUZZ_BIN)

$(BUILD)/fuzz/%: fuzz/%.c fuzz/fuzz-common.h $(BUILD)/libbootab.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -I$(BUILD)/src -Ifuzz -fsanitize=fuzzer -o $@ $< \
	    $(BUILD)/libbootab.a $(LDFLAGS) $(LDLIBS)

check-fuzz:
	@if command -v clang >/dev/null; then $(MAKE) fuzz FUZZ_SECONDS=$(or $(FUZZ_SMOKE_SECONDS),2); \
	else echo "check-fuzz: clang is not installed, skipping the fuzz smoke ('apt-get install clang')"; fi

clean:
	rm -rf build build-asan build-lint build-fuzz bootab
