#!/bin/sh
# Builds the libFuzzer targets into build/fuzz/. Run from anywhere:
#   tests/fuzz/build.sh && build/fuzz/fuzz_parse -max_total_time=300 tests/corpus
#   build/fuzz/fuzz_specialize -max_total_time=600 tests/corpus
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/fuzz
clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-Isrc -Iinclude -D_POSIX_C_SOURCE=200809L \
	tests/fuzz/fuzz_parse.c src/base/*.c src/triton/*.c -o build/fuzz/fuzz_parse -lm
clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-Isrc -Iinclude -D_POSIX_C_SOURCE=200809L \
	tests/fuzz/fuzz_specialize.c src/base/*.c src/triton/*.c src/ir/*.c -o build/fuzz/fuzz_specialize -lm
echo "built build/fuzz/fuzz_parse and build/fuzz/fuzz_specialize"
clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-Isrc -Iinclude -D_POSIX_C_SOURCE=200809L \
	tests/fuzz/fuzz_warpcheck.c src/base/*.c src/warpcheck/*.c -o build/fuzz/fuzz_warpcheck -lm
echo "built build/fuzz/fuzz_warpcheck"
