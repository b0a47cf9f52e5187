# tritonc, libtritonc and warpcheck.
#
#   make              bin/tritonc, bin/warpcheck, lib/libtritonc.a and lib/libtritonc.so
#   make install      into PREFIX (default /usr/local): bin/, lib/ (with pkg-config and CMake
#                     files), include/
#   make check        every test that needs no GPU; ends with "N passed, N failed"
#   make asan         the same tests built with AddressSanitizer, LeakSanitizer and UBSan;
#                     any report fails (tests/sanitize.sh)
#   make asan-quick   only the suites of the tools' error paths, so built (a few minutes)
#   make python       the Python package's extension, in place (PYTHON=python3 chooses the Python)
#   make gpu-check    GPU tests (needs an NVIDIA GPU with torch and triton)
#   make fuzz         libFuzzer targets (clang)
#   make update-expected  rewrite tests/expected/ (every stage's text) from bin/tritonc

CC      ?= cc
BUILD   ?= build
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS = -Isrc -Iinclude -D_POSIX_C_SOURCE=200809L
LDLIBS   = -lm -ldl -lpthread

PREFIX  ?= /usr/local
VERSION  = 0.1
# Objects are position-independent for lib/libtritonc.so, which exports only
# the functions include/tritonc.h marks TRITONC_API: the rest stay hidden, so
# a program with its own `eval` or `lookup` links with it safely.
LIBFLAGS = -fPIC -fvisibility=hidden

BIN = $(if $(filter build,$(BUILD)),bin,$(BUILD)/bin)
LIB = $(if $(filter build,$(BUILD)),lib,$(BUILD)/lib)

BASE_SRC     = $(wildcard src/base/*.c)
COMPILER_SRC = $(wildcard src/triton/*.c src/ir/*.c src/gpu/*.c src/emit/*.c src/driver/*.c src/runtime/*.c src/api/*.c src/export/*.c)
WARPCHECK_SRC = $(wildcard src/warpcheck/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

TOOLS = $(BIN)/tritonc $(if $(wildcard src/cli/warpcheck.c),$(BIN)/warpcheck)

all: $(TOOLS) $(LIB)/libtritonc.a $(LIB)/libtritonc.so $(LIB)/libwarpcheck.a

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(LIBFLAGS) $(CPPFLAGS) -MMD -MP -c $< -o $@

$(LIB)/libtritonc.a: $(call obj,$(BASE_SRC) $(COMPILER_SRC))
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(LIB)/libtritonc.so: $(call obj,$(BASE_SRC) $(COMPILER_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libtritonc.so $^ -o $@ $(LDFLAGS) $(LDLIBS)

$(LIB)/libwarpcheck.a: $(call obj,$(BASE_SRC) $(WARPCHECK_SRC))
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# The run-time support tritonc export copies into the files it writes, as C string literals.
$(BUILD)/gen/export/rt_%.inc: src/export/rt/%.c
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/src/export/target_c.o: $(BUILD)/gen/export/rt_cpu.inc
$(BUILD)/src/export/target_cuda.o: $(BUILD)/gen/export/rt_cuda.inc
$(BUILD)/src/export/target_hip.o: $(BUILD)/gen/export/rt_hip.inc
$(BUILD)/src/export/%.o: CPPFLAGS += -I$(BUILD)/gen

$(BIN)/tritonc: $(call obj,src/cli/tritonc.c src/cli/export.c) $(LIB)/libtritonc.a
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

ASAN_MAKE = $(MAKE) BUILD=build-asan CC=clang \
	CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	LDFLAGS="-fsanitize=address,undefined"
# Suites of the command-line tools' error paths, where leaks hide; a few
# minutes on two cores.
ASAN_QUICK = tests/robust/suite.sh tests/cli/suite.sh tests/warpcheck/suite.sh build-asan/tests/test_base \
	build-asan/tests/test_frontend

asan:
	$(ASAN_MAKE) all units
	tests/sanitize.sh

asan-quick:
	$(ASAN_MAKE) all units
	tests/sanitize.sh $(ASAN_QUICK)

gpu-check: all
	tests/gpu/run.sh

fuzz:
	tests/fuzz/build.sh

# The CPython extension tritonc._tritonc, built in place into python/tritonc/
# from the library's objects (position-independent already).
PYTHON ?= python3

python: $(call obj,$(BASE_SRC) $(COMPILER_SRC))
	$(MAKE) python-ext PY_INCLUDE="$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
		PY_EXT="$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"

python-ext: python/tritonc/_tritonc$(PY_EXT)

python/tritonc/_tritonc$(PY_EXT): $(BUILD)/pic/python/_tritonc.o $(call obj,$(BASE_SRC) $(COMPILER_SRC))
	$(CC) -shared $(CFLAGS) $^ -o $@ $(LDFLAGS) $(LDLIBS)

$(BUILD)/pic/python/_tritonc.o: python/_tritonc.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-missing-field-initializers -Wno-cast-function-type $(CFLAGS) -fPIC $(CPPFLAGS) -I$(PY_INCLUDE) -MMD -MP -c $< -o $@

# DESTDIR stages the tree elsewhere (packaging); the files name PREFIX.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/lib/cmake/tritonc \
		$(DESTDIR)$(PREFIX)/include
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(LIB)/libtritonc.a $(DESTDIR)$(PREFIX)/lib
	install -m 755 $(LIB)/libtritonc.so $(DESTDIR)$(PREFIX)/lib
	install -m 644 include/tritonc.h $(DESTDIR)$(PREFIX)/include
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' packaging/tritonc.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/tritonc.pc
	sed -e 's|@VERSION@|$(VERSION)|g' packaging/tritoncConfig.cmake.in \
		> $(DESTDIR)$(PREFIX)/lib/cmake/tritonc/tritoncConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' packaging/tritoncConfigVersion.cmake.in \
		> $(DESTDIR)$(PREFIX)/lib/cmake/tritonc/tritoncConfigVersion.cmake

update-expected: $(BIN)/tritonc
	UPDATE=1 BIN=$(BIN) tests/expected/suite.sh | grep -v '^PASS' || true

clean:
	rm -rf build build-asan bin lib python/tritonc/_tritonc*.so python/build

.PHONY: all units check asan asan-quick gpu-check fuzz update-expected clean install python python-ext
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
