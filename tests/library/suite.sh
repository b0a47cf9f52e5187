#!/bin/sh
# lib/libtritonc.so links into other programs: it exports only tritonc_
# names (nm -D), and a program defining the common names the library uses
# inside (eval, arg, lookup, ...) compiles a kernel through it, getting the
# same code as bin/tritonc, while its own functions stay its own.
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
LIB=${LIB:-$([ "$BUILD" = build ] && echo lib || echo "$BUILD/lib")}
BIN=${BIN:-bin}
CC=${CC:-cc}
tmp=$(mktemp -d)
# hipcc and clang make their temporary folders under TMPDIR and leave
# some behind: here they go with the rest
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir
export TMPDIR
trap 'rm -rf "$tmp"' EXIT
so=$LIB/libtritonc.so
if [ ! -f "$so" ]; then echo "FAIL library: $so is missing (make builds it)"; exit 1; fi

nm -D --defined-only "$so" | awk '$2 ~ /^[A-Za-z]$/ && $2 != "U" {print $3}' | sort >"$tmp/names"
others=$(grep -v '^tritonc_' "$tmp/names" | grep -v -x -e _init -e _fini | tr '\n' ' ')
if [ -s "$tmp/names" ] && [ -z "$others" ]; then
	echo "PASS library: libtritonc.so exports only tritonc_ names ($(tr '\n' ' ' <"$tmp/names"))"
else
	echo "FAIL library: libtritonc.so exports names without the tritonc_ prefix: $others"
fi
# the static library: every global a module's prefix (Lua's luaK_ style), so
# an embedder's own names never clash with the compiler's internals
a="$LIB/libtritonc.a"
prefixes='tritonc|base|arena|buf|vec|diag|file|json|ast|lex|parse|discover|spec|tir|dtype|inductor|driver|layout|target|plan|lower|simt|emit|cpu|cuda|run|export'
nm -g --defined-only "$a" | awk 'NF == 3 {print $3}' | sort -u >"$tmp/static"
bad=$(grep -v -E "^($prefixes)_" "$tmp/static" | tr '\n' ' ')
if [ "$(wc -l <"$tmp/static")" -gt 100 ] && [ -z "$bad" ]; then
	echo "PASS library: libtritonc.a's $(wc -l <"$tmp/static" | tr -d ' ') globals all carry a module prefix"
else
	echo "FAIL library: libtritonc.a globals without a module prefix: $bad"
fi
# every function include/tritonc.h declares
api=$(grep '^TRITONC_API' include/tritonc.h | grep -o 'tritonc_[a-z0-9_]*(' | tr -d '(' | sort -u)
[ "$(echo "$api" | wc -w)" -ge 20 ] && echo "PASS library: the header declares $(echo "$api" | wc -w) functions" ||
	echo "FAIL library: the header's TRITONC_API functions were not found"
for f in $api; do
	grep -qx $f "$tmp/names" && echo "PASS library: exports $f" || echo "FAIL library: $f is not exported"
done

# a library built with sanitizers (make asan) needs them in the program too
nm -D -u "$so" | grep -q __asan_ && CC="clang -fsanitize=address,undefined"
if $CC -std=c11 -Wall -Wextra -Werror -Iinclude tests/library/common_names.c -L"$LIB" -ltritonc \
	-Wl,-rpath,"$(pwd)/$LIB" -o "$tmp/common_names" 2>"$tmp/err"; then
	"$tmp/common_names" examples/rmsnorm.py "$tmp/lib.c"
	"$BIN/tritonc" compile examples/rmsnorm.py -s '*fp32,*fp32,*fp32,i32,i32' -D XBLOCK=2 --target c -o "$tmp/cli.c"
	if [ -s "$tmp/lib.c" ] && cmp -s "$tmp/lib.c" "$tmp/cli.c"; then
		echo "PASS library: the same code as bin/tritonc compile"
	else
		echo "FAIL library: the code through libtritonc.so differs from bin/tritonc compile's"
	fi
else
	echo "FAIL library: linking a program with lib/libtritonc.so"
	head -20 "$tmp/err"
fi
