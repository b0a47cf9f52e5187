#!/bin/sh
# tritonc export: kernels exported for the CPU and compiled into C test
# programs that own their buffers (random inputs, references computed in
# the program); the CUDA and HIP files compiled without a GPU (cc for the
# host part, nvcc -c and hipcc for the device code), the CUDA launcher run
# against a stand-in libcuda that records what it is asked; the dispatch
# over variants; every error code reachable without a GPU; `make install`
# and the examples/export project built against the installed tree.
# Prints "PASS ..." and "FAIL ..." lines; a missing nvcc is a FAIL (SKIP only where named).
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(pwd)
BIN=${BIN:-bin}
TC="$ROOT/$BIN/tritonc"
K=tests/export/kernels.py
CC=${CC:-cc}
NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
tmp=$(mktemp -d)
# hipcc and clang make their temporary folders under TMPDIR and leave
# some behind: here they go with the rest
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir
export TMPDIR
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# export NAME DIR ARGS...: tritonc export, a FAIL with its messages if it fails
ex() {
	if "$TC" export "$@" 2>"$tmp/err"; then return 0; fi
	fail "tritonc export $*"; sed 's/^/    /' "$tmp/err"; return 1
}

# prog NAME DIR FILES...: builds a test program with -Wall -Wextra -Werror and runs it
prog() {
	name=$1; dir=$2; shift 2
	if ! $CC -std=c11 -O2 -Wall -Wextra -Werror -pthread -I"$dir" -Itests/export "$@" -o "$tmp/$name" -lm 2>"$tmp/err"; then
		fail "$name: cc"; sed 's/^/    /' "$tmp/err" | head -30; return
	fi
	"$tmp/$name" >"$tmp/$name.out" 2>&1; rc=$?
	grep -E '^(PASS|FAIL) ' "$tmp/$name.out" | sed "s/^\(PASS\|FAIL\) /\1 $name: /"
	fails=$((fails + $(grep -c '^FAIL ' "$tmp/$name.out")))
	[ $rc -eq 0 ] || { grep -q '^FAIL ' "$tmp/$name.out" || fail "$name exited with $rc"; sed 's/^/    /' "$tmp/$name.out" | grep -v '^    PASS ' | head; }
}

# ---- the c target ----
c=$tmp/c
RMS=triton_per_fused_mul_pow_rsqrt_0
ex examples/rmsnorm.py -k $RMS -s '*fp32:16,*fp32:16,*fp32:16,i32,i32:16' -D XBLOCK=2 --target c -o $c &&
ex examples/rmsnorm.py -k $RMS -s '*fp32,*fp32,*fp32,i32,i32' -D XBLOCK=4 --num-warps 8 --target c -o $c &&
prog test_rmsnorm $c tests/export/test_rmsnorm.c $c/$RMS.c

ex $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=256 --grid n_rows --target c -o $c &&
prog test_reduce $c tests/export/test_reduce.c $c/row_stats.c

d=$tmp/dispatch
ex $K -k scale -s '*fp32,*fp32,*i32,i32,i32' -D TAG=0 -D BLOCK=64 --grid 'cdiv(n, BLOCK)' --target c -o $d &&
ex $K -k scale -s '*fp32:16,*fp32:16,*i32,i32:16' -D stride=1 -D TAG=1 -D BLOCK=64 --grid 'cdiv(n, BLOCK)' --target c -o $d &&
ex $K -k scale -s '*fp32,*fp32,*i32,i32' -D stride=1 -D TAG=2 -D BLOCK=64 --grid 'cdiv(n, BLOCK)' --target c -o $d &&
ex $K -k scale -s '*fp32,*fp32,*i32,i32,i32' -D TAG=3 -D BLOCK=128 --grid 'cdiv(n, BLOCK)' --target c -o $d &&
ex $K -k scale -s '*fp32:16,*fp32:16,*i32,i32:16' -D stride=1 -D TAG=1 -D BLOCK=64 --grid 'cdiv(n, BLOCK)' --target c -o $d &&
if [ "$(wc -l <$d/scale.variants)" -eq 4 ]; then pass "exporting a variant again replaces it (4 variants)"; else fail "scale.variants has $(wc -l <$d/scale.variants) lines, not 4"; fi &&
prog test_dispatch $d tests/export/test_dispatch.c $d/scale.c

e=$tmp/errors
ex $K -k scale -s '*fp32:16,*fp32:16,*i32,i32:16' -D stride=1 -D TAG=1 -D BLOCK=64 --grid 'cdiv(n, BLOCK)' --target c -o $e &&
ex $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --grid 'n_rows * n_cols / n_cols' --target c -o $e &&
ex $K -k checked_gather -s '*i32,*fp32,*fp32,i32' -D LIMIT=16 -D BLOCK=64 --grid 'cdiv(n, BLOCK)' --target c -o $e &&
prog test_errors $e tests/export/test_errors.c $e/row_stats.c $e/checked_gather.c $e/scale.c

# parameters named like the launchers' own variables, for every target
x=$tmp/clash
clash_ex() { ex $K -k clash -s '*fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32' -D BLOCK=128 --grid 'cdiv(n, BLOCK)' "$@"; }
if clash_ex --target c -o $x/c && clash_ex --target cuda:sm_80 -o $x/cuda &&
   TRITONC_HIPCC=none clash_ex --target hip:gfx1030 -o $x/hip; then
	prog test_clash $x/c tests/export/test_clash.c $x/c/clash.c
	for f in $x/cuda/clash.c $x/hip/clash.c; do
		if $CC -std=c11 -O2 -Wall -Wextra -Werror -c $f -o $tmp/clash.o 2>"$tmp/err"; then pass "clashing names: $CC -c ${f#$x/}"
		else fail "clashing names: $CC -c ${f#$x/}"; head -20 "$tmp/err"; fi
	done
	if [ -n "$NVCC" ] && "$NVCC" -c -arch=sm_80 $x/cuda/clash.cu -o $tmp/clash.cu.o 2>"$tmp/err"; then pass "clashing names: nvcc -c clash.cu"
	else fail "clashing names: nvcc -c clash.cu"; head -20 "$tmp/err"; fi
	if hipcc -c --offload-arch=gfx1030 $x/hip/clash.hip -o $tmp/clash.hip.o 2>"$tmp/err"; then pass "clashing names: hipcc -c clash.hip"
	else fail "clashing names: hipcc -c clash.hip"; head -20 "$tmp/err"; fi
fi

# serial build: no threads
ex $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=256 --grid n_rows --target c -o $tmp/serial &&
prog test_reduce_serial $tmp/serial -DTRITONC_NO_THREADS tests/export/test_reduce.c $tmp/serial/row_stats.c

# ---- the cuda target: cc for NAME.c, nvcc -c for NAME.cu, the launcher against a stand-in driver ----
g=$tmp/cuda
GEMM_SIG='*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16'
GEMM_D='-D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64'
if ex examples/rmsnorm.py -k $RMS -s '*fp32:16,*fp32:16,*fp32:16,i32,i32:16' -D XBLOCK=2 --target cuda:sm_80,cuda:sm_90 -o $g &&
   ex examples/rmsnorm.py -k $RMS -s '*fp32,*fp32,*fp32,i32,i32' -D XBLOCK=2 --target cuda:sm_80,cuda:sm_90 -o $g &&
   ex tests/corpus/gemm.py -k gemm_triton -s "$GEMM_SIG" $GEMM_D --num-stages 3 --grid 'cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)' --target cuda:sm_80,cuda:sm_90 -o $g; then
	for f in $RMS gemm_triton; do
		for mode in "" -DTRITONC_CUDA_LINKED; do
			if $CC -std=c11 -O2 -Wall -Wextra -Werror $mode -c $g/$f.c -o $tmp/$f.o 2>"$tmp/err"; then pass "cuda: $CC -c $f.c $mode"
			else fail "cuda: $CC -c $f.c $mode"; head -20 "$tmp/err"; fi
		done
		if [ -z "$NVCC" ]; then fail "cuda: nvcc not found (needed to compile $f.cu)"
		elif "$NVCC" -c -arch=sm_80 $g/$f.cu -o $tmp/$f.cu.o 2>"$tmp/err"; then pass "cuda: nvcc -c $f.cu"
		else fail "cuda: nvcc -c $f.cu"; head -20 "$tmp/err"; fi
	done
	if $CC -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC tests/export/fake_cuda.c -o $tmp/libfakecuda.so -lpthread 2>"$tmp/err"; then
		prog test_cuda_fake $g -DFAKE_CUDA="\"$tmp/libfakecuda.so\"" -DTRITONC_CUDA_LIBRARY="\"$tmp/libfakecuda.so\"" \
			tests/export/test_cuda_fake.c $g/$RMS.c $g/gemm_triton.c -ldl
	else fail "cuda: building the stand-in driver"; head "$tmp/err"; fi
	prog test_cuda_nodriver $g -DTRITONC_CUDA_LIBRARY='"libcuda-that-is-not-there.so.1"' tests/export/test_cuda_nodriver.c $g/$RMS.c -ldl
fi

# descriptors on sm_90a: the exported launchers pass no tensor maps, so their blocks are pointer copies
t=$tmp/tma
if ex tests/exec/gemm_tiles.py -k made_blocks -s '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32' -D BM=128 -D BN=128 -D BK=64 \
	--num-stages 3 --grid 'cdiv(M, BM), cdiv(N, BN)' --target cuda:sm_90a -o $t; then
	if grep -q 'tc_tmap\|tritonc:tmap' $t/made_blocks.cu; then fail "export sm_90a: made_blocks.cu takes tensor maps"
	else pass "export sm_90a: descriptors made of arguments are pointer copies (no tensor maps to pass)"; fi
	if [ -z "$NVCC" ]; then fail "cuda: nvcc not found (needed to compile made_blocks.cu)"
	elif "$NVCC" -c -gencode arch=compute_90a,code=sm_90a $t/made_blocks.cu -o $tmp/made_blocks.o 2>"$tmp/err"; then pass "cuda: nvcc -c made_blocks.cu (sm_90a)"
	else fail "cuda: nvcc -c made_blocks.cu (sm_90a)"; head -20 "$tmp/err"; fi
fi

# ---- the hip target: code objects by hipcc --genco, or HIP source for hiprtc; cc for NAME.c, hipcc for NAME.hip ----
h=$tmp/hip
if ex examples/rmsnorm.py -k $RMS -s '*fp32:16,*fp32:16,*fp32:16,i32,i32:16' -D XBLOCK=2 --target hip:gfx90a,hip:gfx1030 -o $h; then
	if grep -q "{\"gfx90a\", 0, ${RMS}__v0_gfx90a, 256, 0}" $h/$RMS.c && grep -q "{\"gfx1030\", 0, ${RMS}__v0_gfx1030, 128, 0}" $h/$RMS.c; then
		pass "hip: a code object for each architecture, blocks of 4 warps of 64 lanes (gfx90a) and of 32 (gfx1030)"
	else fail "hip: the image table of $RMS.c"; grep -A3 'tcx_image ' $h/$RMS.c | head; fi
	for mode in "" -DTRITONC_HIP_LINKED; do
		if $CC -std=c11 -O2 -Wall -Wextra -Werror $mode -c $h/$RMS.c -o $tmp/hip.o 2>"$tmp/err"; then pass "hip: $CC -c $RMS.c $mode"
		else fail "hip: $CC -c $RMS.c $mode"; head -20 "$tmp/err"; fi
	done
	if hipcc -c --offload-arch=gfx90a $h/$RMS.hip -o $tmp/hip2.o 2>"$tmp/err"; then pass "hip: hipcc -c $RMS.hip"
	else fail "hip: hipcc -c $RMS.hip"; head -20 "$tmp/err"; fi
fi
if TRITONC_HIPCC=none ex examples/rmsnorm.py -k $RMS -s '*fp32,*fp32,*fp32,i32,i32' -D XBLOCK=2 --target hip:gfx90a,hip:gfx1030 -o $tmp/hiprtc; then
	if grep -q "{\"gfx90a\", 1, ${RMS}__v0_gfx90a, 256, 0}" $tmp/hiprtc/$RMS.c; then pass "hip without hipcc: the HIP source, for hiprtc"
	else fail "hip without hipcc: the image table"; fi
	if $CC -std=c11 -O2 -Wall -Wextra -Werror -c $tmp/hiprtc/$RMS.c -o $tmp/hiprtc.o 2>"$tmp/err"; then pass "hip without hipcc: $CC -c $RMS.c"
	else fail "hip without hipcc: $CC -c $RMS.c"; head -20 "$tmp/err"; fi
fi
# the HIP launchers against a stand-in runtime and hiprtc
if $CC -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC tests/export/fake_hip.c -o $tmp/libfakehip.so -lpthread 2>"$tmp/err"; then
	fh="-DFAKE_HIP=\"$tmp/libfakehip.so\""
	fl="-DTRITONC_HIP_LIBRARY=\"$tmp/libfakehip.so\""
	[ -f $h/$RMS.c ] && prog test_hip_fake $h "$fh" "$fl" tests/export/test_hip_fake.c $h/$RMS.c -ldl
	[ -f $tmp/hiprtc/$RMS.c ] && prog test_hip_fake_hiprtc $tmp/hiprtc "$fh" "$fl" -DHIPRTC \
		-DTRITONC_HIPRTC_LIBRARY="\"$tmp/libfakehip.so\"" tests/export/test_hip_fake.c $tmp/hiprtc/$RMS.c -ldl
else fail "hip: building the stand-in runtime"; head "$tmp/err"; fi

# ---- make install, then examples/export built against the installed tree (Makefile with pkg-config, and CMake) ----
pfx=$tmp/prefix
if make -s install PREFIX="$pfx" BUILD="${BUILD:-build}" >"$tmp/err" 2>&1; then
	# a library built with sanitizers (make asan) needs them in the program too
	XCC=$CC
	nm -D -u "$pfx/lib/libtritonc.so" | grep -q __asan_ && XCC="clang -fsanitize=address,undefined"
	missing=
	for f in bin/tritonc lib/libtritonc.a lib/libtritonc.so include/tritonc.h lib/pkgconfig/tritonc.pc \
		lib/cmake/tritonc/tritoncConfig.cmake lib/cmake/tritonc/tritoncConfigVersion.cmake; do
		[ -f "$pfx/$f" ] || missing="$missing $f"
	done
	if [ -z "$missing" ]; then pass "make install: bin, lib (.a, .so, pkg-config, CMake), include"; else fail "make install: missing$missing"; fi
	if PKG_CONFIG_PATH="$pfx/lib/pkgconfig" make -s -C examples/export OUT="$tmp/example-make" CC="$XCC" run >"$tmp/out" 2>&1 &&
	   grep -q 'all results match' "$tmp/out"; then
		pass "examples/export with make and pkg-config: $(grep -c 'max error' "$tmp/out") kernel runs match"
	else fail "examples/export with make and pkg-config"; tail -15 "$tmp/out"; fi
	if command -v cmake >/dev/null; then
		if cmake -S examples/export -B "$tmp/example-cmake" -DCMAKE_PREFIX_PATH="$pfx" -DCMAKE_C_COMPILER="${XCC%% *}" \
			-DCMAKE_C_FLAGS="$(echo "$XCC" | cut -s -d' ' -f2-)" >"$tmp/out" 2>&1 &&
		   cmake --build "$tmp/example-cmake" >>"$tmp/out" 2>&1 && "$tmp/example-cmake/demo" >"$tmp/run" 2>&1 &&
		   grep -q 'all results match' "$tmp/run"; then
			pass "examples/export with cmake (find_package(tritonc), tritonc_export)"
		else fail "examples/export with cmake"; tail -15 "$tmp/out"; cat "$tmp/run" 2>/dev/null; fi
	else fail "cmake is not installed (scripts/setup.sh installs it)"; fi
else fail "make install PREFIX=$pfx"; tail "$tmp/err"; fi

# ---- what export refuses, with a message ----
refuse() { # expected-message args...
	want=$1; shift
	if "$TC" export -o "$tmp/refused" "$@" >"$tmp/out" 2>&1; then fail "export $* succeeded"; return; fi
	if grep -q -- "$want" "$tmp/out"; then pass "refused: $want"; else fail "export $*: no '$want' in: $(cat "$tmp/out")"; fi
}
refuse "no grid rule" $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --target c
refuse "not an integer argument or constexpr" $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --grid 'rows' --target c
refuse "a pointer or float argument" $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --grid 'x_ptr' --target c
refuse "expected ')'" $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --grid 'cdiv(n_rows, 2' --target c
refuse "more than 3 dimensions" $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --grid '1,1,1,1' --target c
refuse "needs the kernel's name" $K -s '*fp32,*fp32,*fp32,i32,i32' --target c
refuse "no kernel 'nope'" $K -k nope --grid 1 --target c
refuse "export takes cuda" $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --grid n_rows --target interp
refuse "given twice" $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --grid n_rows --target c,c
ex $K -k row_stats -s '*fp32,*fp32,*fp32,i32,i32' -D BLOCK=64 --grid n_rows --target c -o $tmp/mixed &&
refuse "another type" $K -k row_stats -s '*fp16,*fp32,*fp32,i32,i32' -D BLOCK=128 --grid n_rows --target c -o $tmp/mixed

echo "export: $fails failed"
[ $fails -eq 0 ]
