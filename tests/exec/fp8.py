# fp8 tensors: every format loaded, stored and cast to and from fp16, bf16
# and fp32 (Triton 3.6's rounding: nearest even, saturating; see
# src/ir/fp.c), on blocks that overhang the tensors (masks live). The
# "# run:" lines check the C target at W=32 and 64 against the
# interpreter; tests/unit/test_interp.c checks the conversions against
# known values; tests/gpu/fp8.py compares with real Triton on a GPU.
import triton
import triton.language as tl


@triton.jit
def widen(x_ptr, f32_ptr, f16_ptr, bf16_ptr, n, B: tl.constexpr):
    # an fp8 tensor (every byte) read and converted up three ways
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    tl.store(f32_ptr + i, x.to(tl.float32), mask=m)
    tl.store(f16_ptr + i, x.to(tl.float16), mask=m)
    tl.store(bf16_ptr + i, x.to(tl.bfloat16), mask=m)


@triton.jit
def narrow(x_ptr, y_ptr, z_ptr, n, DT: tl.constexpr, SCALE: tl.constexpr, B: tl.constexpr):
    # fp32 (scaled across the format's range, past it too) to fp8 DT, stored
    # as fp8 (y) and as the fp32 of the fp8 value (z)
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=1.0) * SCALE
    y = x.to(DT)
    tl.static_assert(y.dtype == DT)
    tl.store(y_ptr + i, y, mask=m)
    tl.store(z_ptr + i, y.to(tl.float32), mask=m)


@triton.jit
def narrow16(x_ptr, y_ptr, n, DT: tl.constexpr, B: tl.constexpr):
    # fp16 or bf16 (x's pointee) to fp8 DT and its bits back as uint8
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=0.0) * 64.0
    tl.store(y_ptr + i, x.to(DT).to(tl.uint8, bitcast=True), mask=m)


@triton.jit
def fp8_mix(a_ptr, b_ptr, out_ptr, n, B: tl.constexpr):
    # two formats in one kernel: a where b, a bit pattern made an fp8, a dot
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    a = tl.load(a_ptr + i, mask=m, other=0.0)
    b = tl.load(b_ptr + i, mask=m, other=0.0)
    c = tl.where(a.to(tl.float32) > b.to(tl.float32), a.to(tl.float16), b.to(tl.float16))
    bits = (i & 0x7f).to(tl.uint8).to(tl.float8e5, bitcast=True)
    tl.store(out_ptr + i, c.to(tl.float32) + bits.to(tl.float32), mask=m & (bits.to(tl.float32) < 1e9))


@triton.jit
def fp8_dot(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C = A @ B with fp8 A (e4nv) and B (e5), fp32 C, every dim overhanging
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

# run: -k widen -s *fp8e4nv,*fp32,*fp16,*bf16,i32 -D B=64 --arg x_ptr=300 --arg f32_ptr=300 --arg f16_ptr=300 --arg bf16_ptr=300 --arg n=300 --grid 5
# run: -k widen -s *fp8e5,*fp32,*fp16,*bf16,i32 -D B=64 --arg x_ptr=300 --arg f32_ptr=300 --arg f16_ptr=300 --arg bf16_ptr=300 --arg n=300 --grid 5
# run: -k widen -s *fp8e4b15,*fp32,*fp16,*bf16,i32 -D B=128 --arg x_ptr=300 --arg f32_ptr=300 --arg f16_ptr=300 --arg bf16_ptr=300 --arg n=300 --grid 3
# run: -k widen -s *fp8e4b8,*fp32,*fp16,*bf16,i32 -D B=32 --arg x_ptr=300 --arg f32_ptr=300 --arg f16_ptr=300 --arg bf16_ptr=300 --arg n=300 --grid 10
# run: -k widen -s *fp8e5b16,*fp32,*fp16,*bf16,i32 -D B=64 --arg x_ptr=300 --arg f32_ptr=300 --arg f16_ptr=300 --arg bf16_ptr=300 --arg n=300 --grid 5
# run: -k narrow -s *fp32,*fp8e4nv,*fp32,i32 -D DT=tl.float8e4nv -D SCALE=600.0 -D B=64 --arg x_ptr=1000 --arg y_ptr=1000 --arg z_ptr=1000 --arg n=999 --grid 16
# run: -k narrow -s *fp32,*fp8e5,*fp32,i32 -D DT=tl.float8e5 -D SCALE=70000.0 -D B=64 --arg x_ptr=1000 --arg y_ptr=1000 --arg z_ptr=1000 --arg n=999 --grid 16
# run: -k narrow -s *fp32,*fp8e5,*fp32,i32 -D DT=tl.float8e5 -D SCALE=0.0001 -D B=64 --arg x_ptr=1000 --arg y_ptr=1000 --arg z_ptr=1000 --arg n=999 --grid 16
# run: -k narrow -s *fp32,*fp8e4b15,*fp32,i32 -D DT=tl.float8e4b15 -D SCALE=2.5 -D B=64 --arg x_ptr=1000 --arg y_ptr=1000 --arg z_ptr=1000 --arg n=999 --grid 16
# run: -k narrow -s *fp32,*fp8e4b8,*fp32,i32 -D DT=tl.float8e4b8 -D SCALE=300.0 -D B=64 --arg x_ptr=1000 --arg y_ptr=1000 --arg z_ptr=1000 --arg n=999 --grid 16
# run: -k narrow -s *fp32,*fp8e5b16,*fp32,i32 -D DT=tl.float8e5b16 -D SCALE=0.001 -D B=64 --arg x_ptr=1000 --arg y_ptr=1000 --arg z_ptr=1000 --arg n=999 --grid 16
# run: -k narrow16 -s *fp16,*u8,i32 -D DT=tl.float8e4nv -D B=128 --arg x_ptr=777 --arg y_ptr=777 --arg n=777 --grid 7
# run: -k narrow16 -s *bf16,*u8,i32 -D DT=tl.float8e5 -D B=128 --arg x_ptr=777 --arg y_ptr=777 --arg n=777 --grid 7
# run: -k narrow16 -s *fp16,*u8,i32 -D DT=tl.float8e4b15 -D B=128 --arg x_ptr=777 --arg y_ptr=777 --arg n=777 --grid 7
# run: -k fp8_mix -s *fp8e4nv,*fp8e5,*fp32,i32 -D B=64 --arg a_ptr=200 --arg b_ptr=200 --arg out_ptr=200 --arg n=199 --grid 4
# run: -k fp8_dot -s *fp8e4nv,*fp8e5,*fp32,i32,i32,i32 -D BM=32 -D BN=32 -D BK=32 --arg a_ptr=3500 --arg b_ptr=3500 --arg c_ptr=2500 --arg M=50 --arg N=50 --arg K=70 --grid 2,2


@triton.jit
def ties(y_ptr, z_ptr, n, DT: tl.constexpr, STEP: tl.constexpr, B: tl.constexpr):
    # exact multiples of STEP across the format's range: half of them ties
    i = tl.program_id(0) * B + tl.arange(0, B)
    x = (i - n // 2).to(tl.float32) * STEP
    y = x.to(DT)
    tl.store(y_ptr + i, y, mask=i < n)
    tl.store(z_ptr + i, y.to(tl.float16), mask=i < n)

# run: -k ties -s *fp8e4nv,*fp16,i32 -D DT=tl.float8e4nv -D STEP=0.015625 -D B=256 --arg y_ptr=2000 --arg z_ptr=2000 --arg n=2000 --grid 8
# run: -k ties -s *fp8e5,*fp16,i32 -D DT=tl.float8e5 -D STEP=0.03125 -D B=256 --arg y_ptr=2000 --arg z_ptr=2000 --arg n=2000 --grid 8
# run: -k ties -s *fp8e4b15,*fp16,i32 -D DT=tl.float8e4b15 -D STEP=0.001953125 -D B=256 --arg y_ptr=2000 --arg z_ptr=2000 --arg n=2000 --grid 8
# run: -k ties -s *fp8e4b8,*fp16,i32 -D DT=tl.float8e4b8 -D STEP=0.0078125 -D B=256 --arg y_ptr=2000 --arg z_ptr=2000 --arg n=2000 --grid 8
# run: -k ties -s *fp8e5b16,*fp16,i32 -D DT=tl.float8e5b16 -D STEP=0.0001220703125 -D B=256 --arg y_ptr=2000 --arg z_ptr=2000 --arg n=2000 --grid 8


@triton.jit
def widen_bits(x_ptr, f32_ptr, bf16_ptr, n, DT: tl.constexpr, B: tl.constexpr):
    # bytes taken as fp8 DT (a bitcast: fp8e4b15 has no tensor type of its own in torch)
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m).to(DT, bitcast=True)
    tl.store(f32_ptr + i, x.to(tl.float32), mask=m)
    tl.store(bf16_ptr + i, x.to(tl.bfloat16), mask=m)

# run: -k widen_bits -s *u8,*fp32,*bf16,i32 -D DT=tl.float8e4b15 -D B=128 --arg x_ptr=600 --arg f32_ptr=600 --arg bf16_ptr=600 --arg n=600 --grid 5 --int-range 256
# run: -k widen_bits -s *u8,*fp32,*bf16,i32 -D DT=tl.float8e5 -D B=128 --arg x_ptr=600 --arg f32_ptr=600 --arg bf16_ptr=600 --arg n=600 --grid 5 --int-range 256


@triton.jit
def widen_all(f32_ptr, f16_ptr, back_ptr, DT: tl.constexpr):
    # every byte as fp8 DT, widened: the fp32 and fp16 bit patterns (NaN
    # payloads and signs compared exactly) and the byte the fp32 gives back
    i = tl.arange(0, 256)
    x = i.to(tl.uint8).to(DT, bitcast=True)
    tl.store(f32_ptr + i, x.to(tl.float32).to(tl.int32, bitcast=True))
    tl.store(f16_ptr + i, x.to(tl.float16).to(tl.int16, bitcast=True))
    tl.store(back_ptr + i, x.to(tl.float32).to(DT).to(tl.uint8, bitcast=True))

# run: -k widen_all -s *i32,*i16,*u8 -D DT=tl.float8e4nv --arg f32_ptr=256 --arg f16_ptr=256 --arg back_ptr=256 --grid 1
# run: -k widen_all -s *i32,*i16,*u8 -D DT=tl.float8e5 --arg f32_ptr=256 --arg f16_ptr=256 --arg back_ptr=256 --grid 1
# run: -k widen_all -s *i32,*i16,*u8 -D DT=tl.float8e4b15 --arg f32_ptr=256 --arg f16_ptr=256 --arg back_ptr=256 --grid 1
# run: -k widen_all -s *i32,*i16,*u8 -D DT=tl.float8e4b8 --arg f32_ptr=256 --arg f16_ptr=256 --arg back_ptr=256 --grid 1
# run: -k widen_all -s *i32,*i16,*u8 -D DT=tl.float8e5b16 --arg f32_ptr=256 --arg f16_ptr=256 --arg back_ptr=256 --grid 1
