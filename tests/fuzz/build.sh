#!/bin/sh
# Builds the libFuzzer targets into build/fuzz/ (clang, ASan + UBSan). Run
# from anywhere; see tests/fuzz/README.md for how they are run and what
# they found. Each source is compiled once into build/fuzz/obj/ (again
# only when it or a header changed), then linked into the targets:
#   fuzz_parse       lexer, parser, Inductor module discovery
#   fuzz_specialize  + the specializer, axis analysis, tile-IR printer
#   fuzz_lower       + the lowering, SIMT printer, CUDA / HIP / C printers (W=32 and 64)
#   fuzz_run         + `tritonc run` on the C target: cc, small grids, guarded buffers
#   fuzz_warpcheck   warpcheck: tokenizer, rules, reports, diffs
#   fuzz_warpfix     warpcheck --fix: apply, check again, fix again
#   tests/fuzz/build.sh [TARGET]      JOBS=N sets the parallel compiles (default 2)
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/fuzz/obj
FLAGS="-std=c11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -Isrc -Iinclude -D_POSIX_C_SOURCE=200809L"
LINK="-fsanitize=fuzzer,address,undefined"
only=${1:-}
sources() {
	case $1 in
	fuzz_parse) echo src/base/*.c src/triton/*.c ;;
	fuzz_specialize) echo src/base/*.c src/triton/*.c src/ir/*.c ;;
	fuzz_lower) echo src/base/*.c src/triton/*.c src/ir/*.c src/gpu/*.c src/emit/*.c src/driver/*.c ;;
	fuzz_run) echo src/base/*.c src/triton/*.c src/ir/*.c src/gpu/*.c src/emit/*.c src/driver/*.c \
		src/runtime/*.c src/api/*.c ;;
	fuzz_warpcheck|fuzz_warpfix) echo src/base/*.c src/warpcheck/*.c ;;
	esac
}
targets=
for t in fuzz_parse fuzz_specialize fuzz_lower fuzz_run fuzz_warpcheck fuzz_warpfix; do
	[ -z "$only" ] || [ "$only" = "$t" ] || continue
	[ -f "tests/fuzz/$t.c" ] && targets="$targets $t"
done
# the objects these targets need, each compiled once (again when it or a header is newer)
obj() { echo "build/fuzz/obj/$(echo "$1" | sed 's|^src/||; s|/|_|g; s|\.c$|.o|')"; }
# shellcheck disable=SC2012
newest_header=$(ls -t src/*/*.h include/*/*.h include/*.h tests/fuzz/*.h 2>/dev/null | head -n 1)
all=$(for t in $targets; do sources "$t"; done | tr ' ' '\n' | sort -u)
# shellcheck disable=SC2016
for s in $all; do
	o=$(obj "$s")
	if [ ! -f "$o" ] || [ -n "$(find "$s" "$newest_header" -newer "$o" 2>/dev/null)" ]; then echo "$s $o"; fi
done | FLAGS=$FLAGS xargs -r -P "${JOBS:-2}" -n 2 sh -c '# shellcheck disable=SC2086
clang $FLAGS -c "$0" -o "$1"'
for t in $targets; do
	objs=$(for s in $(sources "$t"); do obj "$s"; done)
	# shellcheck disable=SC2086
	clang $FLAGS $LINK "tests/fuzz/$t.c" $objs -o "build/fuzz/$t" -lm -ldl -lpthread
	echo "built build/fuzz/$t"
done
