# gridsolve - build, test and run.
#
#   make run     install missing Debian packages (as root), build, serve
#   make test    the same dependency step, then unit and integration tests
#   make test SANITIZE=1   the same under AddressSanitizer + UBSan
#   make bench   benchmarks (speed and memory figures)
#   make bench-sokoban   the sokoban targets of issue 8, each figure beside
#                its target (long: full collections; SOK_XSOKOBAN_MS sets
#                the XSokoban limit per level, default 60000)

BUILD ?= build
ifeq ($(SANITIZE),1)
override BUILD := $(BUILD)-san
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined
endif

CC ?= cc
PKGS := libmicrohttpd libcjson
TEST_PKGS := check libcurl
DEB_PKGS := build-essential pkg-config libmicrohttpd-dev libcjson-dev \
            check libsubunit-dev libcurl4-openssl-dev curl
# Recursive (=) so pkg-config runs after `make deps` installed it.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(PKGS))
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS))
TEST_LIBS = $(shell pkg-config --libs $(TEST_PKGS))

CPPFLAGS += -Iinclude -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread \
          $(SAN_FLAGS)
LDFLAGS += -pthread $(SAN_FLAGS)
LDLIBS += -lm

SRC := $(shell find src -name '*.c' | sort)
CLI_SRC := $(filter src/cli/%,$(SRC))
CORE_SRC := $(filter-out $(CLI_SRC),$(SRC))
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/gen/openapi.o
UNIT_SRC := $(shell find tests/unit -name '*.c' | sort)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/obj/%.o)
INTEG_SRC := $(shell find tests/integration -name '*.c' | sort)
INTEG_OBJ := $(INTEG_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_SRC := $(shell find bench -name '*.c' 2>/dev/null | sort)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)

BIN := $(BUILD)/gridsolve
UNIT := $(BUILD)/unit_tests
INTEG := $(BUILD)/integration_tests
BENCH := $(BUILD)/bench

.PHONY: all deps build run test check-unit check-integration bench \
        bench-sokoban \
        container-test format clean

all: build

# Installs the Debian packages when pkg-config does not find every library.
deps:
	@if command -v pkg-config >/dev/null 2>&1 && \
	    pkg-config --exists $(PKGS) $(TEST_PKGS) && command -v cc >/dev/null; then \
	  :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "make deps: installing $(DEB_PKGS)"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y --no-install-recommends $(DEB_PKGS); \
	else \
	  echo "make deps: missing libraries; run 'sudo make deps' or install: $(DEB_PKGS)" >&2; \
	  exit 1; \
	fi

build: $(BIN)

run: deps
	@$(MAKE) --no-print-directory build
	$(BIN) serve

test: deps
	@$(MAKE) --no-print-directory $(BIN) $(UNIT) $(INTEG)
	@$(MAKE) --no-print-directory check-unit check-integration

check-unit: $(UNIT)
	$(UNIT)

check-integration: $(INTEG) $(BIN)
	GRIDSOLVE_BIN=$(BIN) $(INTEG)

bench: deps
	@$(MAKE) --no-print-directory $(BIN) $(BENCH)
	$(BENCH)
	@if [ -x bench/sokoban.sh ]; then GRIDSOLVE_BIN=$(BIN) bench/sokoban.sh; fi

SOK_XSOKOBAN_MS ?= 60000
SOK_BENCH = GRIDSOLVE_BIN=$(BIN) bench/sokoban.sh -q -l all
bench-sokoban: deps
	@$(MAKE) --no-print-directory $(BIN) $(BENCH)
	@$(BENCH) sokoban | grep -E 'bytes/state|budget'
	@echo "1. moves, Microban I   (target: 155 of 155, each <= 10 s, total <= 35 s)"
	@$(SOK_BENCH) -o moves -t 10000 bench/levels/microban1.xsb
	@echo "2. pushes, Microban I  (target: 155 of 155, each <= 10 s)"
	@$(SOK_BENCH) -o pushes -t 10000 bench/levels/microban1.xsb
	@echo "3. any, Microban I     (target: 155 of 155, each <= 10 s)"
	@$(SOK_BENCH) -o any -t 10000 bench/levels/microban1.xsb
	@echo "   any, Microban II    (target: 135 of 135, each <= 10 s)"
	@$(SOK_BENCH) -o any -t 10000 bench/levels/microban2.xsb
	@echo "   any, XSokoban       (target: >= 45 of 90 within 60 s each; moonshot 60)"
	@$(SOK_BENCH) -o any -t $(SOK_XSOKOBAN_MS) bench/levels/xsokoban.xsb

container-test:
	bash docker/container-test.sh

$(BIN): $(CORE_OBJ) $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

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

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

format:
	clang-format -i $$(find src include tests bench -name '*.[ch]')

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
