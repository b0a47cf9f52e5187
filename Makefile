# tritonc, libtritonc and warpcheck.
#
#   make              bin/tritonc, bin/warpcheck, lib/libtritonc.a
#   make check        every test that needs no GPU; ends with "N passed, N failed"
#   make asan         the same tests built with AddressSanitizer and UBSan
#   make gpu-check    GPU tests (needs an NVIDIA GPU with torch and triton)
#   make fuzz         libFuzzer targets (clang)
#   make update-expected  rewrite tests/expected/ (every stage's text) from bin/tritonc

CC      ?= cc
BUILD   ?= build
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS = -Isrc -Iinclude -D_POSIX_C_SOURCE=200809L
LDLIBS   = -lm -ldl -lpthread

BIN = $(if $(filter build,$(BUILD)),bin,$(BUILD)/bin)
LIB = $(if $(filter build,$(BUILD)),lib,$(BUILD)/lib)

BASE_SRC     = $(wildcard src/base/*.c)
COMPILER_SRC = $(wildcard src/triton/*.c src/ir/*.c src/gpu/*.c src/emit/*.c src/driver/*.c src/runtime/*.c src/api/*.c)
WARPCHECK_SRC = $(wildcard src/warpcheck/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

TOOLS = $(BIN)/tritonc $(if $(wildcard src/cli/warpcheck.c),$(BIN)/warpcheck)

all: $(TOOLS) $(LIB)/libtritonc.a $(LIB)/libwarpcheck.a

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -MMD -MP -c $< -o $@

$(LIB)/libtritonc.a: $(call obj,$(BASE_SRC) $(COMPILER_SRC))
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(LIB)/libwarpcheck.a: $(call obj,$(BASE_SRC) $(WARPCHECK_SRC))
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN)/tritonc: $(call obj,src/cli/tritonc.c) $(LIB)/libtritonc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDFLAGS) $(LDLIBS)

$(BIN)/warpcheck: $(call obj,src/cli/warpcheck.c) $(LIB)/libwarpcheck.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDFLAGS) $(LDLIBS)

# Unit-test programs: tests/unit/NAME.c links against both libraries.
UNIT_SRC = $(wildcard tests/unit/*.c)
UNIT_BIN = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

$(BUILD)/tests/%: tests/unit/%.c $(LIB)/libtritonc.a $(LIB)/libwarpcheck.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $< -o $@ $(LIB)/libtritonc.a $(LIB)/libwarpcheck.a $(LDFLAGS) $(LDLIBS)

units: $(UNIT_BIN)

check: all units
	BUILD=$(BUILD) BIN=$(BIN) tests/run.sh

asan:
	$(MAKE) BUILD=build-asan CC=clang \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" check

gpu-check: all
	tests/gpu/run.sh

fuzz:
	tests/fuzz/build.sh

update-expected: $(BIN)/tritonc
	UPDATE=1 BIN=$(BIN) tests/expected/suite.sh | grep -v '^PASS' || true

clean:
	rm -rf build build-asan bin lib

.PHONY: all units check asan gpu-check fuzz update-expected clean
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
