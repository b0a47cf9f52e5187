#!/bin/sh
# Builds the libFuzzer targets into build/fuzz/ (clang). Run from anywhere;
# see tests/fuzz/README.md for how they are run and what they found.
#   fuzz_parse       lexer, parser, Inductor module discovery
#   fuzz_specialize  + the specializer, axis analysis, tile-IR printer
#   fuzz_lower       + the lowering, SIMT printer, CUDA / HIP / C printers (W=32 and 64)
#   fuzz_run         + `tritonc run` on the C target: cc, small grids, guarded buffers
#   fuzz_warpcheck   warpcheck: tokenizer, rules, reports, diffs
#   fuzz_warpfix     warpcheck --fix: apply, check again, fix again
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/fuzz
FLAGS="-std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Isrc -Iinclude -D_POSIX_C_SOURCE=200809L"
COMPILER="src/base/*.c src/triton/*.c src/ir/*.c src/gpu/*.c src/emit/*.c src/driver/*.c"
build() {
	name=$1
	shift
	# shellcheck disable=SC2086
	clang $FLAGS "tests/fuzz/$name.c" "$@" -o "build/fuzz/$name" -lm -ldl -lpthread
	echo "built build/fuzz/$name"
}
only=${1:-}
for t in fuzz_parse fuzz_specialize fuzz_lower fuzz_run fuzz_warpcheck fuzz_warpfix; do
	[ -z "$only" ] || [ "$only" = "$t" ] || continue
	[ -f "tests/fuzz/$t.c" ] || continue
	case $t in
	fuzz_parse) build $t src/base/*.c src/triton/*.c ;;
	fuzz_specialize) build $t src/base/*.c src/triton/*.c src/ir/*.c ;;
	# shellcheck disable=SC2086
	fuzz_lower) build $t $COMPILER ;;
	# shellcheck disable=SC2086
	fuzz_run) build $t $COMPILER src/runtime/*.c src/api/*.c ;;
	fuzz_warpcheck|fuzz_warpfix) build $t src/base/*.c src/warpcheck/*.c ;;
	esac
done
