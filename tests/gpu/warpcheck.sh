#!/bin/sh
# GPU regression test of `warpcheck --fix`: on an NVIDIA GPU the fixed
# kernels must still give the original results.
#
# Each program in tests/gpu/warpcheck/ is a kernel written for 32-lane warps
# with a main() that fills its inputs from a fixed seed (never zeros),
# poisons its outputs, checks them against the host and prints every output
# word. The program is built as it is and as `warpcheck --fix` leaves it,
# with nvcc for sm_90; both must pass their host check and print the same
# bytes (float results bit for bit: on a 32-lane warp the fixes keep the
# order of every reduction). The fixed program must also build with hipcc
# for gfx90a (wave64) and gfx1030 (wave32).
#
#   tests/gpu/warpcheck.sh                  build, run and compare (needs the GPU)
#   tests/gpu/warpcheck.sh --compile-only   only the nvcc and hipcc builds
#
# One PASS/FAIL line per case (SKIP for a compiler that is not installed),
# then "N passed, N failed"; exit status 1 when a case failed.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
WC=$BIN/warpcheck
case $WC in /*) ;; *) WC=$(pwd)/$WC ;; esac
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
HIPCC=${HIPCC:-$(command -v hipcc || echo /usr/bin/hipcc)}
SRC=$(pwd)/tests/gpu/warpcheck
SYNC_H=$(pwd)/tests/warpcheck/hip_sync.h
compile_only=false
case ${1-} in
--compile-only) compile_only=true ;;
"") ;;
*) echo "usage: $0 [--compile-only]" >&2; exit 2 ;;
esac
[ -x "$WC" ] || make -s all >/dev/null || exit 2
tmp=$(mktemp -d)
# hipcc and clang make their temporary folders under TMPDIR and leave
# some behind: here they go with the rest
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir
export TMPDIR
trap 'rm -rf "$tmp"' EXIT

nvcc_build() { # source, executable
	"$NVCC" -arch=sm_90 -O2 -o "$2" "$1" >"$2.log" 2>&1
}

hip_build() { # source, object
	"$HIPCC" -x hip --offload-arch=gfx90a --offload-arch=gfx1030 -include "$SYNC_H" -c "$1" -o "$2" \
		>"$2.log" 2>&1
}

first_errors() { # a compiler log
	grep -i error "$1" | head -3 | tr '\n' ' '
}

# Builds (and unless --compile-only runs) one program; prints its lines.
one() {
	src=$1
	name=$(basename "$src" .cu)
	d=$tmp/$name
	mkdir -p "$d/orig" "$d/fixed"
	cp "$SRC/common.h" "$src" "$d/orig/"
	cp "$SRC/common.h" "$src" "$d/fixed/"
	"$WC" --fix "$d/fixed/$name.cu" >/dev/null 2>"$d/fix.log"
	if [ $? -gt 1 ]; then
		echo "FAIL gpu warpcheck $name: warpcheck --fix failed: $(head -1 "$d/fix.log")"
		return
	fi
	if cmp -s "$src" "$d/fixed/$name.cu"; then
		echo "FAIL gpu warpcheck $name: --fix changed nothing"
		return
	fi
	fixes=$(sed -n 's/.*: fixed \([0-9]*\) of .*/\1/p' "$d/fix.log")
	if [ -x "$HIPCC" ]; then
		if hip_build "$d/fixed/$name.cu" "$d/fixed/$name.o"; then
			echo "PASS gpu warpcheck $name: the fixed program builds with hipcc (gfx90a, gfx1030)"
		else
			echo "FAIL gpu warpcheck $name: the fixed program does not build with hipcc: $(first_errors "$d/fixed/$name.o.log")"
		fi
	else
		echo "SKIP gpu warpcheck $name: no hipcc at $HIPCC"
	fi
	if [ ! -x "$NVCC" ]; then
		echo "SKIP gpu warpcheck $name: no nvcc at $NVCC"
		return
	fi
	for v in orig fixed; do
		if ! nvcc_build "$d/$v/$name.cu" "$d/$v/prog"; then
			echo "FAIL gpu warpcheck $name: the $v program does not build with nvcc: $(first_errors "$d/$v/prog.log")"
			return
		fi
	done
	if $compile_only; then
		echo "PASS gpu warpcheck $name: builds with nvcc before and after $fixes fixes"
		return
	fi
	for v in orig fixed; do
		if ! "$d/$v/prog" >"$d/$v/out" 2>"$d/$v/err"; then
			echo "FAIL gpu warpcheck $name: the $v program failed: $(tail -1 "$d/$v/out") $(head -2 "$d/$v/err" | tr '\n' ' ')"
			return
		fi
	done
	if cmp -s "$d/orig/out" "$d/fixed/out"; then
		echo "PASS gpu warpcheck $name: $fixes fixes, $(grep -c '\[' "$d/orig/out") output words identical"
	else
		echo "FAIL gpu warpcheck $name: the fixed program's outputs differ:"
		diff "$d/orig/out" "$d/fixed/out" | head -6
	fi
}

for src in "$SRC"/*.cu; do
	one "$src"
done | tee "$tmp/all"
passed=$(grep -c '^PASS ' "$tmp/all")
failed=$(grep -c '^FAIL ' "$tmp/all")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
