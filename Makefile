# gridsolve - build, test and run.
#
#   make run     install missing Debian packages (as root), build, serve
#   make test    the same dependency step, then unit and integration tests
#   make test SANITIZE=1   the same under AddressSanitizer + UBSan
#   make test TSAN=1       the same under ThreadSanitizer
#   make check-deep  the property tests alone, SCALE times longer, on a
#                fresh SEED (printed; not in test)
#   make bench   benchmarks (speed and memory figures)
#   make fuzz    libFuzzer harnesses, FUZZ_SECONDS each (clang)
#   make stress  the stress figures against build/gridsolve (not in test)
#   make test-web  browser tests of the playground (chromium + node)
#   make test-contract  the server against api/openapi.yaml (node)
#   make bench-sokoban   the sokoban targets of issue 8, each figure beside
#                its target (long: full collections; SOK_XSOKOBAN_MS sets
#                the XSokoban limit per level, default 60000)
#   make bench-selftest  the bench scripts' own checks (seconds, no solves)

BUILD ?= build
ifeq ($(SANITIZE),1)
override BUILD := $(BUILD)-san
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined
# The integration tests' bounds on wall-clock time (itest_slack).
export GS_ITEST_SLOWDOWN := 2
endif
# ThreadSanitizer: libmicrohttpd and libcurl are not instrumented, so the
# few reports inside them are suppressed (tests/tsan.supp says why); any
# report in our code fails the run (halt_on_error).
ifeq ($(TSAN),1)
override BUILD := $(BUILD)-tsan
SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
export TSAN_OPTIONS := suppressions=$(CURDIR)/tests/tsan.supp \
                       halt_on_error=1 second_deadlock_stack=1
# The solvers run 5-15 times slower instrumented.
export CK_TIMEOUT_MULTIPLIER := 5
export GS_ITEST_SLOWDOWN := 5
endif

CC ?= cc
PKGS := libmicrohttpd libcjson
TEST_PKGS := check libcurl
DEB_PKGS := build-essential pkg-config libmicrohttpd-dev libcjson-dev \
            check libsubunit-dev libcurl4-openssl-dev curl
# Recursive (=) so pkg-config runs after `make deps` installed it.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(PKGS))
# The binary itself links neither library: `serve` loads libmicrohttpd
# at run time (include/gridsolve/mhd.h), and the first JSON call loads
# libcjson (include/gridsolve/cjson.h), so that `solve` on judge text
# starts without them (and without libmicrohttpd's TLS stack).
BIN_LIBS =
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS))
TEST_LIBS = $(shell pkg-config --libs $(TEST_PKGS))

CPPFLAGS += -Iinclude -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread \
          $(SAN_FLAGS)
LDFLAGS += -pthread $(SAN_FLAGS)
LDLIBS += -lm

# The version comes from the VERSION file and the commit from git when the
# tree is a checkout (override either: make GS_COMMIT=abc123). Only
# src/core/version.c sees them; a stamp file that changes only when they
# do makes a new commit recompile that one file.
ifeq ($(origin GS_VERSION),undefined)
GS_VERSION := $(or $(strip $(shell cat VERSION 2>/dev/null)),unknown)
endif
ifeq ($(origin GS_COMMIT),undefined)
GS_COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && \
  { git diff --quiet HEAD -- 2>/dev/null || c="$$c-dirty"; } && echo "$$c")
endif
VERSION_STAMP := $(BUILD)/gen/version.stamp
VERSION_FLAGS := -DGS_VERSION='"$(GS_VERSION)"' -DGS_COMMIT='"$(GS_COMMIT)"'

SRC := $(shell find src -name '*.c' | sort)
CLI_SRC := $(filter src/cli/%,$(SRC))
CORE_SRC := $(filter-out $(CLI_SRC),$(SRC))
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/gen/openapi.o \
            $(BUILD)/gen/web.o
UNIT_SRC := $(shell find tests/unit -name '*.c' | sort)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/obj/%.o)
INTEG_SRC := $(shell find tests/integration -name '*.c' | sort)
INTEG_OBJ := $(INTEG_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_SRC := $(shell find bench -maxdepth 1 -name '*.c' 2>/dev/null | sort)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)

BIN := $(BUILD)/gridsolve
UNIT := $(BUILD)/unit_tests
INTEG := $(BUILD)/integration_tests
BENCH := $(BUILD)/bench

.PHONY: all deps build run test check-unit check-integration check-examples \
        check-deep bench \
        bench-compare bench-http bench-inputs container-test validate-k8s \
        format clean test-web test-contract web-screenshot bench-sokoban bench-selftest

all: build

# Installs the Debian packages when pkg-config does not find every library.
deps:
	@missing=$$(command -v pkg-config >/dev/null 2>&1 || echo pkg-config; \
	  command -v cc >/dev/null || echo cc; \
	  for p in $(PKGS) $(TEST_PKGS); do \
	    pkg-config --exists $$p 2>/dev/null || echo $$p; done); \
	if [ -z "$$missing" ]; then \
	  :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "make deps: installing $(DEB_PKGS)"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y --no-install-recommends $(DEB_PKGS); \
	else \
	  echo "make deps: missing:" $$missing"; run 'sudo make deps' or" \
	    "install: $(DEB_PKGS)" >&2; \
	  exit 1; \
	fi

build: $(BIN)

run: deps
	@$(MAKE) --no-print-directory build
	$(BIN) serve

test: deps
	@$(MAKE) --no-print-directory $(BIN) $(UNIT) $(INTEG)
	@# One after another, even under make -j: run together on a small
	@# machine they slow each other past the tests' time bounds.
	@$(MAKE) --no-print-directory check-unit
	@$(MAKE) --no-print-directory check-integration
	@$(MAKE) --no-print-directory check-examples
	@$(MAKE) --no-print-directory test-contract
	@$(MAKE) --no-print-directory test-web

# Check's per-test timeouts only catch hangs; a loaded machine (or a
# sanitizer build) must not turn them into failures, so they are stretched.
CK_TIMEOUT_MULTIPLIER ?= 4
export CK_TIMEOUT_MULTIPLIER

check-unit: $(UNIT)
	$(UNIT)

check-integration: $(INTEG) $(BIN)
	GRIDSOLVE_BIN=$(BIN) $(INTEG)

# The README's and examples/'s answers, replayed through the CLI.
check-examples: $(BIN)
	GRIDSOLVE_BIN=$(BIN) examples/check.sh

# The property tests alone (each suite's "property" case: random instances
# against a brute force written in the test), SCALE times as many, drawn
# from SEED: by default a fresh one, printed before and after the run so
# that a failure can be rerun with it. SUITE=name runs one suite's. The
# timeouts stretch with SCALE. Not part of `make test`.
SCALE ?= 20
check-deep: $(UNIT)
	@case "$(SCALE)" in ''|0*|*[!0-9]*) \
	  echo "make check-deep: SCALE=$(SCALE): expected a positive integer" >&2; \
	  exit 2 ;; esac; \
	f=$$(grep -l 'suite_create("$(SUITE)")' tests/unit/*.c); \
	if [ -n "$(SUITE)" ] && { [ -z "$$f" ] || \
	    ! grep -q 'tcase_create("property")' $$f; }; then \
	  echo "make check-deep: SUITE=$(SUITE): no unit suite of that name" \
	    "with property tests" >&2; \
	  exit 2; \
	fi; \
	seed="$(SEED)"; [ -n "$$seed" ] || seed=$$(date +%s); \
	case "$$seed" in *[!0-9]*) \
	  echo "make check-deep: SEED=$$seed: expected a decimal integer" >&2; \
	  exit 2 ;; esac; \
	again="make check-deep SEED=$$seed SCALE=$(SCALE)$(if $(SUITE), SUITE=$(SUITE))"; \
	echo "make check-deep: SEED=$$seed SCALE=$(SCALE) (rerun: $$again)"; \
	start=$$(date +%s); \
	GS_PROP_SEED=$$seed GS_PROP_SCALE=$(SCALE) CK_RUN_CASE=property \
	  $(if $(SUITE),CK_RUN_SUITE=$(SUITE)) \
	  CK_TIMEOUT_MULTIPLIER=$$(awk "BEGIN { print $(CK_TIMEOUT_MULTIPLIER) * $(SCALE) }") \
	  $(UNIT); \
	rc=$$?; [ $$rc = 0 ] && result=passed || result=FAILED; \
	echo "make check-deep: $$result in $$(( $$(date +%s) - start )) s (rerun: $$again)"; \
	exit $$rc

# The inputs bench-compare uses (fixed seeds), for the per-state figures:
# made again when bench-gen changes, and written whole or not at all (an
# interrupted run must not leave a short input that later runs measure).
BENCH_INPUTS := blox-big blox-batch curling sokoban wallpushers holedox
bench-inputs: $(BENCH_INPUTS:%=$(BUILD)/bench-compare/%.txt)
$(BUILD)/bench-compare/%.txt: $(BUILD)/bench-gen
	@mkdir -p $(dir $@)
	@$(BUILD)/bench-gen $* 1 > $@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

bench: deps
	@$(MAKE) --no-print-directory $(BIN) $(BENCH) bench-inputs
	GS_BENCH_INPUTS=$(BUILD)/bench-compare $(BENCH)
	GRIDSOLVE_BIN=$(BIN) bash bench/sokoban.sh

# gridsolve against plain contest solutions of the same problems
# (bench/baseline/, C and C++ built with the system's cc and g++).
BASE_BIN := $(patsubst bench/baseline/%.cpp,$(BUILD)/baseline-%,\
              $(wildcard bench/baseline/*.cpp))
CXX ?= g++
bench-compare: deps
	@$(MAKE) --no-print-directory $(BIN) $(BUILD)/bench-runner $(BASE_BIN) bench-inputs
	BUILD=$(BUILD) bash bench/compare.sh $(if $(RUNS),-r $(RUNS))

$(BUILD)/bench-gen $(BUILD)/bench-runner: $(BUILD)/bench-%: bench/baseline/%.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -Wall -Wextra -D_DEFAULT_SOURCE -o $@ $<

$(BUILD)/baseline-%: bench/baseline/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) -O2 -o $@ $<

# gridsolve's HTTP path against a bare libmicrohttpd server (bench/http/),
# loaded by Debian's wrk, installed here when missing (as root).
bench-http: deps
	@command -v wrk >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wrk; \
	  else echo "make bench-http: needs wrk; run 'sudo apt-get install wrk'" >&2; exit 1; fi; }
	@$(MAKE) --no-print-directory $(BIN) $(BUILD)/bench-bare
	BUILD=$(BUILD) bash bench/http.sh $(if $(RUNS),-r $(RUNS))

$(BUILD)/bench-bare: bench/http/bare.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -Wall -Wextra -Wno-unused-parameter $(CPPFLAGS) $(PKG_CFLAGS) -o $@ $< $(PKG_LIBS)

# The bench scripts' own checks, against stand-in binaries (seconds).
bench-selftest:
	bash bench/selftest.sh

SOK_XSOKOBAN_MS ?= 60000
SOK_BENCH = GRIDSOLVE_BIN=$(BIN) bash bench/sokoban.sh -q -l all
bench-sokoban: deps
	@$(MAKE) --no-print-directory $(BIN) $(BENCH)
	@echo "5. memory per state printed, limit past a budget (target: limit within it)"
	@out=$$($(BENCH) sokoban) || { printf '%s\n' "$$out"; exit 1; }; \
	  printf '%s\n' "$$out" | grep -E 'bytes/state|budget'
	@echo "1. moves, Microban I   (target: 155 of 155, each <= 10 s, total <= 35 s)"
	@$(SOK_BENCH) -o moves -t 10000 bench/levels/microban1.xsb
	@echo "2. pushes, Microban I  (target: 155 of 155, each <= 10 s)"
	@$(SOK_BENCH) -o pushes -t 10000 bench/levels/microban1.xsb
	@echo "3. any, Microban I     (target: 155 of 155, each <= 10 s)"
	@$(SOK_BENCH) -o any -t 10000 bench/levels/microban1.xsb
	@echo "   any, Microban II    (target: 135 of 135, each <= 10 s)"
	@$(SOK_BENCH) -o any -t 10000 bench/levels/microban2.xsb
	@echo "   any, XSokoban       (target: >= 45 of 90 within 60 s each; moonshot 60;" \
	  "this run: $(SOK_XSOKOBAN_MS) ms each)"
	@$(SOK_BENCH) -o any -t $(SOK_XSOKOBAN_MS) bench/levels/xsokoban.xsb

container-test:
	bash docker/container-test.sh

# Browser tests of the playground (tests/web): node's test runner drives
# Debian's chromium through playwright-core against a `gridsolve serve`
# that the tests start on a free port and stop. Skipped, saying so, when
# chromium or node is missing; `npm ci` runs first when needed.
CHROMIUM ?= /usr/bin/chromium
WEB_TEST_ENV = GRIDSOLVE_BIN=$(BIN) CHROMIUM=$(CHROMIUM)
# playwright-core (tests/web/package-lock.json) needs Node.js 20 or later:
# older ones (Debian 12's nodejs is 18) skip with a message, not a failure.
# `npm ci` runs when tests/web/node_modules is older than the lockfile.
WEB_NPM_CI = if [ ! tests/web/node_modules/.package-lock.json -nt tests/web/package-lock.json ]; then \
	  (cd tests/web && npm ci --no-audit --no-fund) || exit 1; \
	fi
WEB_NODE_MAJOR = node_major=$$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null); \
	case "$$node_major" in ''|*[!0-9]*) node_major=0 ;; esac
test-web: $(BIN)
	@$(WEB_NODE_MAJOR); \
	if [ ! -x "$(CHROMIUM)" ] || [ "$$node_major" -lt 20 ]; then \
	  echo "make test-web: SKIPPED: needs $(CHROMIUM) and Node.js 20 or" \
	    "later with npm (found: $$(node --version 2>/dev/null || echo no node))"; \
	else \
	  $(WEB_NPM_CI); \
	  $(WEB_TEST_ENV) $(WEB_TEST_EXTRA) node --test --test-timeout=180000 \
	    tests/web/playground.test.mjs; \
	fi

# The contract test (tests/web/contract.test.mjs): the real server's
# answers, every operation and status, validated against api/openapi.yaml
# (yaml, ajv, eventsource-parser from tests/web/package-lock.json). Needs
# Node.js 20 or later, no browser; skipped, saying so, without it.
test-contract: $(BIN)
	@$(WEB_NODE_MAJOR); \
	if [ "$$node_major" -lt 20 ]; then \
	  echo "make test-contract: SKIPPED: needs Node.js 20 or later with npm" \
	    "(found: $$(node --version 2>/dev/null || echo no node))"; \
	else \
	  $(WEB_NPM_CI); \
	  GRIDSOLVE_BIN=$(BIN) node --test --test-timeout=180000 \
	    tests/web/contract.test.mjs; \
	fi

# Remakes docs/playground.png, the README's picture, with the browser tests.
web-screenshot:
	@$(MAKE) --no-print-directory test-web \
	  WEB_TEST_EXTRA=PLAYGROUND_SCREENSHOT=docs/playground.png

# Renders docker/k8s with kubectl kustomize and schema-checks every object
# (docker/k8s/validate.sh; installs kubectl and Node.js from Debian as root
# when missing, the validator's npm packages from its package-lock.json).
validate-k8s:
	bash docker/k8s/validate.sh

# libm only as needed: an optimised build inlines the little it uses, and
# one library less to load at every start of `gridsolve solve` is
# measurable on a small judge batch.
$(BIN): $(CORE_OBJ) $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
	$(CC) $(LDFLAGS) -o $@ $^ $(BIN_LIBS) \
	    -Wl,--push-state,--as-needed $(LDLIBS) -Wl,--pop-state

$(UNIT): $(CORE_OBJ) $(UNIT_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) $(PKG_LIBS) $(LDLIBS)

$(INTEG): $(INTEG_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) $(PKG_LIBS) $(LDLIBS)

$(BENCH): $(CORE_OBJ) $(BENCH_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# api/openapi.yaml embedded into the binary (GET /openapi.yaml serves it
# whatever the working directory): a generated C array, compiled here.
OPENAPI := $(wildcard api/openapi.yaml)
$(BUILD)/gen/openapi.o: $(OPENAPI)
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from api/openapi.yaml by the Makefile. */'; \
	  echo '#include <stddef.h>'; \
	  echo 'const char gs_openapi_yaml[] = {'; \
	  if [ -n "$(OPENAPI)" ]; then od -An -v -tx1 $(OPENAPI) | \
	    sed -e 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'; fi; \
	  echo '0x00};'; \
	  echo 'const size_t gs_openapi_yaml_len = sizeof gs_openapi_yaml - 1;'; \
	} > $(BUILD)/gen/openapi.c
	$(CC) $(CFLAGS) -c -o $@ $(BUILD)/gen/openapi.c

# The web playground (GET /): web/index.html with its style and script
# inlined, as a C array plus the Content-Security-Policy that allows them.
WEB_SRC := web/index.html web/style.css web/app.js web/embed.sh
$(BUILD)/gen/web.o: $(WEB_SRC)
	@mkdir -p $(dir $@)
	sh web/embed.sh $(BUILD)/gen/web.c
	$(CC) $(CFLAGS) -c -o $@ $(BUILD)/gen/web.c

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

# The version stamp is rewritten only when the version or commit changed,
# so version.o (the one object that sees them) rebuilds only then.
.PHONY: FORCE
$(VERSION_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(GS_VERSION) $(GS_COMMIT)' | cmp -s - $@ || \
	  echo '$(GS_VERSION) $(GS_COMMIT)' > $@

$(BUILD)/obj/src/core/version.o: src/core/version.c $(VERSION_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(VERSION_FLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

format:
	clang-format -i $$(find src include tests bench -name '*.[ch]')

clean:
	rm -rf build build-san build-tsan build-fuzz

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---- fuzzing (fuzz/, README "Fuzzing"): libFuzzer harnesses built with
# clang into build-fuzz/, each run FUZZ_SECONDS per puzzle and mode.
FUZZ_BUILD := build-fuzz
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10
FUZZ_DEB_PKGS := clang libclang-rt-14-dev
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
            -fno-omit-frame-pointer
FUZZ_CFLAGS := -O1 -g -std=c11 -Wall -Wextra -Wno-unused-parameter -pthread \
               $(FUZZ_SAN)
FUZZ_CORE_OBJ := $(CORE_SRC:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_LIB := $(FUZZ_BUILD)/libgridsolve.a
FUZZ_HARNESSES := fuzz_parse fuzz_service fuzz_http fuzz_config
FUZZ_BINS := $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/%) $(FUZZ_BUILD)/fuzz_seeds

.PHONY: fuzz fuzz-deps fuzz-build stress

# Installs clang and its libFuzzer runtime when a fuzzer cannot be linked.
fuzz-deps:
	@if echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' | \
	    $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then \
	  :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "make fuzz-deps: installing $(FUZZ_DEB_PKGS)"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y --no-install-recommends $(FUZZ_DEB_PKGS); \
	else \
	  echo "make fuzz-deps: no libFuzzer; run 'sudo make fuzz-deps' or install: $(FUZZ_DEB_PKGS)" >&2; \
	  exit 1; \
	fi

# FUZZ_ONLY="fuzz_parse ..." runs only those harnesses.
fuzz: deps fuzz-deps
	@$(MAKE) --no-print-directory fuzz-build
	FUZZ_NICE=$(FUZZ_NICE) fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_ONLY)

fuzz-build: $(FUZZ_BINS)

# Keep the harness objects the pattern rule below builds (not temporaries).
.SECONDARY: $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/obj/fuzz/%.o)

$(FUZZ_LIB): $(FUZZ_CORE_OBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/fuzz/fuzz_%.o $(FUZZ_BUILD)/obj/fuzz/fuzz.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -pthread -o $@ $^ $(PKG_LIBS) -lm

# The HTTP harness runs the whole front end, which serves embedded files
# (openapi.yaml, the playground): plain data, the normal build's objects.
$(FUZZ_BUILD)/fuzz_http: $(FUZZ_BUILD)/obj/fuzz/fuzz_http.o $(FUZZ_BUILD)/obj/fuzz/fuzz.o $(FUZZ_LIB) $(filter $(BUILD)/gen/%,$(CORE_OBJ))
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -pthread -o $@ $^ $(PKG_LIBS) -lm

$(FUZZ_BUILD)/fuzz_seeds: $(FUZZ_BUILD)/obj/fuzz/seeds.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -pthread -o $@ $^ $(PKG_LIBS) -lm

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
	  $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)

# ---- stress (tests/stress/, README "Stress"): not part of `make test`.
# Starts build/gridsolve itself on 127.0.0.1 and prints one figure per
# line; STRESS_ARGS passes options (e.g. --soak-secs 30 --only abc).
STRESS_SRC := $(wildcard tests/stress/*.c)
STRESS := $(BUILD)/stress
STRESS_ARGS ?=

$(STRESS): $(STRESS_SRC:%.c=$(BUILD)/obj/%.o)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

stress: deps
	@$(MAKE) --no-print-directory $(BIN) $(STRESS)
	$(STRESS) --bin $(BIN) $(STRESS_ARGS)
