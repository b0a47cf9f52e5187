#!/bin/sh
# GPU tests (make gpu-check), on a machine with an NVIDIA GPU: the CUDA
# runtime's own test, then the CUDA output of the seed kernel and of
# Inductor kernels run with `tritonc run --target cuda --check` (every
# buffer against the tile-IR interpreter), then the held-out Inductor kernels
# against real Triton's outputs (tests/heldout/golden), then the seed kernel against real
# Triton and float64 (needs python3 with torch and triton), then the Python
# package's tests on torch CUDA tensors against real Triton (tests/python),
# then the warpcheck programs before and after --fix (tests/gpu/warpcheck.sh). Ends
# with "N passed, N failed" like make check. tests/gpu/export.sh runs the
# exported CUDA launchers from a C program.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
BUILD=${BUILD:-build}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
make -s units >/dev/null || exit 2

{
	"$BUILD/tests/test_cuda_runtime"

	run() { # name, then tritonc run options
		name=$1
		shift
		if timeout "${CASE_LIMIT:-120}" "$BIN/tritonc" run "$@" --target "${TARGET:-cuda}" --check >"$log/out" 2>&1; then
			echo "PASS gpu $name"
		else
			echo "FAIL gpu $name:"
			tail -5 "$log/out"
		fi
	}
	for dt in fp32 bf16; do
		for cfg in "1 4" "2 8" "4 16"; do
			set -- $cfg
			run "seed $dt XBLOCK=$1 warps=$2" examples/rmsnorm.py -s "*$dt,*$dt,*$dt,i32,i32" -D XBLOCK=$1 \
				--num-warps $2 --arg xnumel=4099 --arg rnumel=3000 --arg in_ptr0=16789504 --arg in_ptr1=4096 \
				--arg out_ptr0=16789504
		done
	done
	run "rmsnorm_f32_4096" tests/corpus/rmsnorm_f32_4096.py -D XBLOCK=1 -D R0_BLOCK=1024 --num-warps 8 \
		--arg xnumel=8192 --arg r0_numel=4096 --grid 8192
	run "softmax_f32_1024" tests/corpus/softmax_f32_1024.py -D XBLOCK=1 --num-warps 8 --arg xnumel=16384 \
		--arg r0_numel=1024 --grid 16384
	run "add_relu_mul_f32" tests/corpus/add_relu_mul_f32.py -D XBLOCK=1024 --arg xnumel=16777216
	run "layernorm_f32_1024" tests/corpus/layernorm_f32_1024.py -D XBLOCK=1 --num-warps 8 --arg xnumel=16384 \
		--arg r0_numel=1024 --arg in_ptr1=1024 --arg in_ptr2=1024 --grid 16384
	run "gelu_tanh_bf16" tests/corpus/gelu_tanh_bf16.py -D XBLOCK=1024 --arg xnumel=16777216
	run "max_argmax_f32" tests/corpus/max_argmax_f32.py -D XBLOCK=1 -D R0_BLOCK=1024 --num-warps 8 --arg xnumel=4096 \
		--arg r0_numel=3333 --arg in_ptr0=13651968 --arg out_ptr0=4096 --arg out_ptr1=4096 --grid 4096
	run "var_mean_f32 (welford in a loop)" tests/corpus/var_mean_f32.py -D XBLOCK=1 -D R0_BLOCK=1024 --num-warps 8 \
		--arg xnumel=4096 --arg r0_numel=2048 --arg in_out_ptr0=4096 --arg in_ptr0=8388608 --arg out_ptr0=4096 --grid 4096
	run "embedding_f32 (device_assert)" tests/corpus/embedding_f32.py -D XBLOCK=1024 --arg xnumel=6291456 \
		--arg in_ptr0=8192 --arg in_ptr1=38400000 --arg out_ptr0=6291456
	run "index_add_f32 (atomic_add)" tests/corpus/index_add_f32.py -k triton_poi_fused_index_add_1 -D YBLOCK=16 \
		-D XBLOCK=32 --arg ynumel=8192 --arg xnumel=256 --arg in_ptr0=8192 --arg in_ptr1=2097152 --arg out_ptr0=256000 \
		--grid 8,64
	run "loops (run-time for and if)" tests/exec/loops.py -k rowsum -s '*fp32,*fp32,i32' -D BLOCK=256 -D ROWS=2 --arg n_cols=1000 \
		--arg x_ptr=100000 --arg out_ptr=200 --grid 50
	run "gemm fp16 (tl.dot)" tests/corpus/gemm.py -s '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32' \
		-D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 --arg M=300 --arg N=200 --arg K=100 --arg stride_am=100 \
		--arg stride_ak=1 --arg stride_bk=200 --arg stride_bn=1 --arg stride_cm=200 --arg stride_cn=1 \
		--arg A_ptr=30000 --arg B_ptr=20000 --arg C_ptr=60000 --grid 5,4
	# tensor cores: wgmma (sm_90a) and mma.sync fed by ldmatrix (sm_90), cp.async pipelines; edges masked
	# (M, N, K not multiples of the blocks); B stored K x N, and N x K (x @ w.T, stride_bk = 1)
	for arch in sm_90a sm_90; do
		for cfg in "128 128 64 4 3 fp16" "64 128 32 8 4 bf16" "128 64 64 4 2 fp16" "64 64 32 4 1 bf16"; do
			for b in "stride_bn stride_bk 208" "stride_bk stride_bn 112"; do
				set -- $cfg $b
				TARGET=cuda:$arch run "gemm $6 $arch ${1}x${2}x${3} warps=$4 stages=$5 $7=1" tests/corpus/gemm.py \
					-s "*$6,*$6,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16" -D stride_ak=1 -D $7=1 \
					-D stride_cn=1 -D BLOCK_M=$1 -D BLOCK_N=$2 -D BLOCK_K=$3 --num-warps $4 --num-stages $5 \
					--arg M=320 --arg N=208 --arg K=112 --arg stride_am=112 --arg $8=$9 --arg stride_cm=208 \
					--arg A_ptr=35840 --arg B_ptr=23296 --arg C_ptr=66560 \
					--grid $(((320 + $1 - 1) / $1)),$(((208 + $2 - 1) / $2))
			done
		done
	done
	# hand-written GEMM forms on the pipeline (tests/exec/gemm_tiles.py): % M / % N, a tile loop with
	# tl.where and hints (3 programs, 4 tiles), descriptor blocks; K = 77 cuts copies inside (cp.async
	# of a copy's leading bytes, zeros after)
	for arch in sm_90a sm_90; do
		W="--arg M=208 --arg N=144 --arg K=77 --arg s_am=80 --arg s_bk=144 --arg s_cm=144 --arg a_ptr=16640
			--arg b_ptr=11088 --arg c_ptr=29952"
		for k in "wrapped --grid 4" "tile_loop -D PROGRAMS=3 --grid 3"; do
			TARGET=cuda:$arch run "gemm_tiles $arch ${k%% *}" tests/exec/gemm_tiles.py -k $k \
				-s '*fp16,*fp16,*fp16,i32:16,i32:16,i32,i32:16,i32:16,i32:16' -D s_ak=1 -D s_bn=1 -D s_cn=1 \
				-D BM=128 -D BN=128 -D BK=64 -D GROUP=2 --num-stages 3 $W
		done
		TARGET=cuda:$arch run "gemm_tiles $arch hinted (tl.multiple_of statements, run-time strides)" \
			tests/exec/gemm_tiles.py -k hinted -s '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32' -D s_ak=1 -D s_bn=1 \
			-D s_cn=1 -D BM=128 -D BN=128 -D BK=64 -D GROUP=1 --num-stages 3 $W --grid 4
		TARGET=cuda:$arch run "gemm_tiles $arch blocks (descriptors)" tests/exec/gemm_tiles.py -k blocks \
			-s 'tensordesc<fp16[128,64]>,tensordesc<fp16[128,64]>,tensordesc<fp16[128,128]>,i32,i32,i32' \
			-D BM=128 -D BN=128 -D BK=64 --num-stages 3 --arg M=200 --arg N=136 --arg K=77 \
			--arg a_desc_shape0=200 --arg a_desc_shape1=77 --arg a_desc_stride0=80 --arg b_desc_shape0=136 \
			--arg b_desc_shape1=77 --arg b_desc_stride0=80 --arg c_desc_shape0=200 --arg c_desc_shape1=136 \
			--arg c_desc_stride0=136 --arg a_desc=16000 --arg b_desc=10880 --arg c_desc=27200 --grid 2,2
		# descriptors made in the kernel: of arguments (tensor maps the runtime encodes on sm_90a; the
		# extents' and strides' arguments of 4 and of 8 bytes), and with computed bases (async copies)
		for sig in i32,i32,i32,i32,i32,i32 i64,i32,i64,i32,i64,i32; do
			TARGET=cuda:$arch run "gemm_tiles $arch made_blocks ($sig)" tests/exec/gemm_tiles.py -k made_blocks \
				-s "*fp16,*fp16,*fp16,$sig" -D BM=128 -D BN=128 -D BK=64 --num-stages 3 --arg M=200 --arg N=136 \
				--arg K=77 --arg s_a=80 --arg s_b=80 --arg s_c=136 --arg a_ptr=16000 --arg b_ptr=10880 \
				--arg c_ptr=27200 --grid 2,2
		done
		TARGET=cuda:$arch run "gemm_tiles $arch made_batched" tests/exec/gemm_tiles.py -k made_batched \
			-s '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32' -D BM=128 -D BN=128 -D BK=64 --num-stages 3 \
			--arg M=200 --arg N=136 --arg K=77 --arg s_a=80 --arg s_b=80 --arg s_c=136 --arg a_ptr=32000 \
			--arg b_ptr=10880 --arg c_ptr=54400 --grid 2,2,2
	done
	# argmax / argmin with NaNs, tl.reduce with jitted combines, run-time while, break / continue
	run "reduce: argmax/argmin, axis=None, NaNs" tests/exec/reduce.py -k indices -s '*fp32,*i32,*fp32,*i32' \
		-D ROWS=64 -D COLS=64 -D NANS=1 --num-warps 8 --int-range 5 --arg x_ptr=12288 --arg k_ptr=12288 \
		--arg out_ptr=393 --arg idx_ptr=963 --grid 3
	run "reduce: jitted combines of 1-3 tensors" tests/exec/reduce.py -k combines -s '*fp32,*i32,*fp32,*i32' \
		-D ROWS=32 -D COLS=64 -D AXIS=1 -D OTHER=32 --num-warps 4 --int-range 4 --arg x_ptr=6144 --arg k_ptr=6144 \
		--arg out_ptr=294 --arg idx_ptr=387 --grid 3
	run "while: strided sum on a carried scalar" tests/exec/whiles.py -k strided -s '*fp32,*fp32,i32' -D BLOCK=256 \
		--arg n=3000 --arg x_ptr=3000 --arg out_ptr=1028 --grid 4
	run "while: on a reduction across warps" tests/exec/whiles.py -k shrink -s '*fp32,*fp32' -D BLOCK=1024 \
		--num-warps 8 --arg x_ptr=3072 --arg out_ptr=3075 --grid 3
	run "break: first negative chunk" tests/exec/jumps.py -k first_negative -s '*fp32,*fp32,*i32,i32' -D BLOCK=1024 \
		--num-warps 8 --arg chunks=5 --arg x_ptr=20480 --arg out_ptr=4096 --arg idx_ptr=8 --grid 4
	# layout conversions through shared memory; Inductor's x.T + y coalesced through a second frame
	run "convert: x + x.T of loaded tiles" tests/exec/convert.py -k sym -s '*fp32,*fp32,i32' -D B=32 --arg n=29 \
		--arg x_ptr=84100 --arg out_ptr=84100 --grid 100
	run "convert: a tile transposed in a run-time loop" tests/exec/convert.py -k loop_trans -s '*fp32,*fp32,i32,i32' \
		-D B=32 --num-warps 8 --arg n=30 --arg steps=5 --arg x_ptr=288000 --arg out_ptr=57600 --grid 64
	run "convert: 3-D permutes" tests/exec/convert.py -k cube -s '*fp32,*fp32' -D A=8 --arg x_ptr=65536 \
		--arg out_ptr=65536 --grid 128
	run "convert: blocks across the diagonal, coalesced" tests/exec/convert.py -k pair -s '*fp32,*fp32,i32:16' -D BM=64 \
		-D BN=32 --arg n=1024 --arg x_ptr=1048576 --arg out_ptr=1048576 --grid 16,32
	run "transpose_add_f32 (both loads coalesced)" tests/corpus/transpose_add_f32.py -D YBLOCK=32 -D XBLOCK=32 \
		--arg ynumel=4096 --arg xnumel=4096 --arg in_ptr0=1048576 --arg in_ptr1=1048576 --arg out_ptr0=1048576 --grid 8,8
	run "matmul fp32 tf32" tests/exec/matmul.py -s '*fp32,*fp32,*fp32,i32,i32,i32' -D BM=32 -D BN=32 -D BK=16 -D IEEE=0 \
		--arg M=100 --arg N=90 --arg K=70 --arg a_ptr=7000 --arg b_ptr=6300 --arg c_ptr=9000 --grid 4,3
	run "philox (randint4x, randint, rand, randn, 64-bit offsets)" tests/exec/philox.py -k philox \
		-s 'i64,*fp32,*fp32,*u32' -D BLOCK=256 --arg seed=1099511627779 --arg uniform_ptr=20480 \
		--arg normal_ptr=20480 --arg bits_ptr=32768 --grid 16
	run "dropout (tl.rand)" tests/exec/philox.py -k dropout -s '*fp32,*fp32,i32,i32' -D P=0.25 -D BLOCK=1024 \
		--arg n=1000000 --arg seed=12345 --arg x_ptr=1000000 --arg out_ptr=1000000 --grid 977
	# scans: shuffles up and down the lanes of the axis, pieces of the row through shared memory
	run "cumsum_f32 (associative_scan) XBLOCK=1" tests/corpus/cumsum_f32.py -D XBLOCK=1 --num-warps 8 \
		--arg xnumel=4096 --arg r0_numel=1024 --grid 4096
	run "cumsum_f32 (associative_scan) XBLOCK=4" tests/corpus/cumsum_f32.py -D XBLOCK=4 --num-warps 4 \
		--arg xnumel=4096 --arg r0_numel=1024 --grid 1024
	for cfg in "4 64 1 0 2 64" "32 8 1 1 4 64" "1 2048 1 1 4 8" "64 16 0 1 8 16" "8 32 0 0 8 64" "2 16 1 0 4 512"; do
		set -- $cfg
		n=$(($1 * $2 * $6))
		run "scans ${1}x${2} axis=$3 reverse=$4 warps=$5" tests/exec/scan.py -k tiles -s '*fp32,*i32,*fp32,*i32' \
			-D ROWS=$1 -D COLS=$2 -D AXIS=$3 -D REVERSE=$4 --num-warps $5 --arg x_ptr=$n --arg k_ptr=$n \
			--arg out_ptr=$((4 * n)) --arg kout_ptr=$((3 * n)) --grid $6
	done
	for cfg in "4096 1 4 100000" "16 0 2 1000" "256 0 8 70000"; do
		set -- $cfg
		run "scans of a line BLOCK=$1 reverse=$2 warps=$3" tests/exec/scan.py -k line -s '*fp32,*i32,*fp32,*i32,i32' \
			-D BLOCK=$1 -D REVERSE=$2 --num-warps $3 --arg n=$4 --arg x_ptr=$4 --arg k_ptr=$4 --arg out_ptr=$((4 * $4)) \
			--arg kout_ptr=$((3 * $4)) --grid $((($4 + $1 - 1) / $1))
	done
	run "scan in a loop (chunks)" tests/exec/scan.py -k chunks -s '*fp32,*fp32,i32' -D BLOCK=256 --arg n=5000 \
		--arg x_ptr=40000 --arg out_ptr=40000 --grid 8
	run "scans of a tl.dot's result (mma.sync layout)" tests/exec/scan.py -k dot_scan -s '*fp16,*fp16,*fp32' -D M=64 \
		-D N=32 -D K=32 --arg a_ptr=2048 --arg b_ptr=1024 --arg out_ptr=4096 --grid 1

	# atomics of every kind; Inductor's split scans: the programs of a row chained through the workspace
	# by the decoupled lookback (spin-waits on atomics across blocks), two to 3126 programs a row
	run "atomics: xchg, cas, max, min, and, or, xor, add" tests/exec/atomics.py -k rmw -s '*i32,*i32,*i32,*i32,i32' \
		-D BLOCK=64 --arg n=3000 --arg x_ptr=3000 --arg own_ptr=21103 --arg shared_ptr=6 --arg old_ptr=24064 --grid 47
	run "atomics: fp32 xchg and cas" tests/exec/atomics.py -k floats -s '*fp32,*fp32,*fp32' -D BLOCK=128 \
		--arg x_ptr=4096 --arg own_ptr=8192 --arg old_ptr=8192 --grid 32
	run "cumsum_bf16 (split scan, its defaults)" tests/heldout/cumsum_bf16.py --arg xnumel=1024 --arg r0_numel=512
	run "cumsum_bf16 (split scan) R0_BLOCK=32" tests/heldout/cumsum_bf16.py -D R0_BLOCK=32 --num-warps 1 \
		--arg xnumel=1024 --arg r0_numel=512
	run "split scan: 3126 programs a row" tests/exec/splitscan_module.py -D R0_BLOCK=32 --num-warps 1 --arg xnumel=64 \
		--arg r0_numel=100003
	run "split scan: 40 programs a row, 8192 rows" tests/exec/splitscan_module.py --arg xnumel=8192 --arg r0_numel=10001

	# Inductor kernels of operations outside the corpus, against real Triton's outputs
	"$BUILD/tests/test_heldout" --cuda | grep -v '^#'

	if python3 -c 'import torch, triton' 2>/dev/null; then
		for dt in fp32 bf16; do
			mkdir -p "$log/$dt"
			"$BIN/tritonc" run examples/rmsnorm.py --target cuda -s "*$dt,*$dt,*$dt,i32,i32" -D XBLOCK=2 \
				--arg xnumel=4096 --arg rnumel=4096 --arg in_ptr1=4096 --save "$log/$dt" >/dev/null 2>&1
			python3 bench/rmsnorm/reference.py examples/rmsnorm.py "$log/$dt" 4096 4096 $dt 2 4 >"$log/ref" 2>&1
			err=$(sed -n 's/^tritonc_vs_f64 .* rel_err=\([^ ]*\) .*/\1/p' "$log/ref")
			limit=$([ $dt = fp32 ] && echo 1e-5 || echo 1e-2)
			if [ -n "$err" ] && python3 -c "import sys; sys.exit(0 if $err < $limit else 1)"; then
				echo "PASS gpu seed $dt against float64 (rel err $err) and Triton: $(grep '^triton ' "$log/ref")"
			else
				echo "FAIL gpu seed $dt against float64:"
				cat "$log/ref"
			fi
		done
	else
		echo "FAIL gpu: python3 with torch and triton is needed for the comparison with Triton"
	fi

	# the Python package on torch CUDA tensors, each result against real Triton's on the same inputs
	if make -s python PYTHON=python3 >"$log/python-build" 2>&1; then
		python3 tests/python/test_api.py --device cuda --triton 2>&1 | sed 's/^\(PASS\|FAIL\) python/\1 gpu python/'
		# the language tests' kernels (fp8 ...) against real Triton on the same inputs
		python3 tests/gpu/lang.py 2>&1
	else
		echo "FAIL gpu python: make python failed:"
		tail -20 "$log/python-build"
	fi

	# tritonc export: the exported launchers in a C program, against Triton
	tests/gpu/export.sh

	# --timeout on a kernel that never finishes
	tests/gpu/timeout.sh

	# Its own total is left out: the one below counts its lines.
	tests/gpu/warpcheck.sh | sed '/^[0-9]* passed, [0-9]* failed$/d'
} | tee "$log/all"
passed=$(grep -c '^PASS ' "$log/all")
failed=$(grep -c '^FAIL ' "$log/all")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
