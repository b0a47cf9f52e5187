#!/bin/sh
# Builds the libFuzzer targets into build/fuzz/. Run from anywhere:
#   tests/fuzz/build.sh && build/fuzz/fuzz_parse -max_total_time=300 tests/corpus
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/fuzz
clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-Isrc -Iinclude -D_POSIX_C_SOURCE=200809L \
	tests/fuzz/fuzz_parse.c src/base/*.c src/triton/*.c -o build/fuzz/fuzz_parse -lm
echo "built build/fuzz/fuzz_parse"
