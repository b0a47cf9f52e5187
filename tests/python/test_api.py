"""The tritonc Python package's tests: kernels.py's kernels launched with
Triton's API on numpy arrays (the CPU, at the warp width TRITONC_WARP_SIZE
gives) or, with --device cuda, on torch CUDA tensors, where --triton also
runs each kernel under real Triton and requires the same results.

Prints one "PASS name" or "FAIL name: why" line per case; exits 1 when any failed.
"""
import argparse
import importlib.util
import os
import sys
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import tritonc  # noqa: E402
import tritonc.__main__ as tc_main  # noqa: E402

failures = 0
TAG = ""


def report(name, ok, why=""):
    global failures
    if ok:
        print(f"PASS python {name}{TAG}")
    else:
        failures += 1
        print(f"FAIL python {name}{TAG}: {why}")


def case(fn):
    def run(*args):
        try:
            fn(*args)
        except Exception as e:  # a case that raises fails with its message
            report(fn.__name__, False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
    run.__name__ = fn.__name__
    return run


def load_kernels(name, use_tritonc):
    """kernels.py as a module, with `import triton` giving tritonc or real Triton."""
    saved = {k: v for k, v in sys.modules.items() if k == "triton" or k.startswith("triton.")}
    if use_tritonc:
        for k in saved:
            del sys.modules[k]
        tc_main.install()
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "kernels.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if use_tritonc:
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, tc_main.TritonFinder)]
        for k in [k for k in sys.modules if k == "triton" or k.startswith("triton.")]:
            del sys.modules[k]
        sys.modules.update(saved)
    return module


def load_module(name, file):
    """A file of this folder as a module, with `import triton` giving tritonc."""
    saved = {k: v for k, v in sys.modules.items() if k == "triton" or k.startswith("triton.")}
    for k in saved:
        del sys.modules[k]
    tc_main.install()
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, tc_main.TritonFinder)]
        for k in [k for k in sys.modules if k == "triton" or k.startswith("triton.")]:
            del sys.modules[k]
        sys.modules.update(saved)
    return module


class Numpy:
    """Arrays in CPU memory."""
    name = "numpy"

    def __init__(self):
        self.rng = np.random.default_rng(20261201)

    def randn(self, *shape, dtype=np.float32):
        return self.rng.standard_normal(shape).astype(dtype)

    def zeros(self, *shape, dtype=np.float32):
        return np.zeros(shape, dtype=dtype)

    def full(self, shape, value, dtype=np.float32):
        return np.full(shape, value, dtype=dtype)

    def ints(self, values):   # int32
        return np.asarray(values, dtype=np.int32)

    def table(self, arrays):   # their addresses, int64
        return np.asarray([x.ctypes.data for x in arrays], dtype=np.int64)

    def np(self, x):
        return np.asarray(x)

    def f16(self):
        return np.float16

    def sync(self):
        pass


class TorchCuda:
    """torch tensors in CUDA memory."""
    name = "torch-cuda"

    def __init__(self):
        import torch
        self.torch = torch
        self.gen = np.random.default_rng(20261201)

    def _t(self, a, dtype):
        return self.torch.from_numpy(a).to(device="cuda", dtype=dtype)

    def _dt(self, dtype):
        return {np.float32: self.torch.float32, np.float16: self.torch.float16,
                np.int32: self.torch.int32}[dtype]

    def randn(self, *shape, dtype=np.float32):
        return self._t(self.gen.standard_normal(shape).astype(np.float32), self._dt(dtype))

    def zeros(self, *shape, dtype=np.float32):
        return self.torch.zeros(shape, dtype=self._dt(dtype), device="cuda")

    def full(self, shape, value, dtype=np.float32):
        return self.torch.full(shape if isinstance(shape, tuple) else (shape,), value, dtype=self._dt(dtype),
                               device="cuda")

    def ints(self, values):
        return self.torch.tensor(values, dtype=self.torch.int32, device="cuda")

    def table(self, arrays):
        return self.torch.tensor([x.data_ptr() for x in arrays], dtype=self.torch.int64, device="cuda")

    def np(self, x):
        self.torch.cuda.synchronize()
        return x.detach().float().cpu().numpy() if x.dtype == self.torch.float16 else x.detach().cpu().numpy()

    def f16(self):
        return np.float16

    def sync(self):
        self.torch.cuda.synchronize()


def close(got, want, tol):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape or not np.all(np.isfinite(got)):
        return False, "shape or NaN"
    scale = max(np.sqrt(np.mean(want * want)), 1e-30)
    err = np.max(np.abs(got - want) / np.maximum(np.abs(want), scale)) if got.size else 0.0
    return err <= tol, f"max relative error {err:.3g} (tolerance {tol})"


def same(a, b):
    """Equal results (tritonc's and real Triton's): within 1e-5 of the scale (exp and rsqrt are approximate
    on the GPU, in both)."""
    return close(a, b, 1e-5)


# ---- cases ----

@case
def rmsnorm(K, R, B):
    n_rows, n_cols, stride = 37, 300, 320
    x = B.randn(n_rows, stride)
    w = B.randn(n_cols)
    out = B.zeros(n_rows, stride)
    grid = lambda meta: (tritonc.cdiv(n_rows, meta['XBLOCK']),)
    K.rmsnorm_rows[grid](x, w, out, n_rows, n_cols, stride, 1e-6, XBLOCK=2, RBLOCK=512)
    xn, wn = B.np(x).astype(np.float64), B.np(w).astype(np.float64)
    want = xn[:, :n_cols] * (1.0 / np.sqrt((xn[:, :n_cols] ** 2).mean(1, keepdims=True) + 1e-6)) * wn
    got = B.np(out)
    ok, why = close(got[:, :n_cols], want, 1e-5)
    ok = ok and np.all(got[:, n_cols:] == 0)
    report("rmsnorm", ok, why)
    if R:
        ref = B.zeros(n_rows, stride)
        R.rmsnorm_rows[grid](x, w, ref, n_rows, n_cols, stride, 1e-6, XBLOCK=2, RBLOCK=512)
        report("rmsnorm equals Triton's", *same(got, B.np(ref)))


@case
def softmax(K, R, B):
    n_rows, n_cols = 45, 781
    x = B.randn(n_rows, n_cols)
    y = B.zeros(n_rows, n_cols)
    for warps in (4, 8):
        K.row_softmax[(n_rows,)](y, x, n_cols, n_cols, n_cols, BLOCK=1024, num_warps=warps)
        xn = B.np(x).astype(np.float64)
        e = np.exp(xn - xn.max(1, keepdims=True))
        report(f"softmax num_warps={warps}", *close(B.np(y), e / e.sum(1, keepdims=True), 1e-5))
        if R:
            ref = B.zeros(n_rows, n_cols)
            R.row_softmax[(n_rows,)](ref, x, n_cols, n_cols, n_cols, BLOCK=1024, num_warps=warps)
            report(f"softmax num_warps={warps} equals Triton's", *same(B.np(y), B.np(ref)))


@case
def gemm(K, R, B):
    M, N, Kd = 70, 50, 45
    a = B.randn(M, Kd, dtype=np.float16)
    b = B.randn(Kd, N, dtype=np.float16)
    c = B.zeros(M, N, dtype=np.float16)
    grid = lambda meta: (tritonc.cdiv(M, meta['BM']), tritonc.cdiv(N, meta['BN']))
    K.tiled_matmul[grid](a, b, c, M, N, Kd, Kd, 1, N, 1, N, 1, BM=32, BN=32, BK=16)
    want = B.np(a).astype(np.float64) @ B.np(b).astype(np.float64)
    report("gemm fp16 70x50x45", *close(B.np(c), want, 2e-2))
    consts = next(iter(K.tiled_matmul._kernels.values())).metadata.constants
    report("gemm: unit strides specialized to constants", "s_ak=1" in consts and "s_cn=1" in consts, str(consts))
    if R:
        ref = B.zeros(M, N, dtype=np.float16)
        R.tiled_matmul[grid](a, b, ref, M, N, Kd, Kd, 1, N, 1, N, 1, BM=32, BN=32, BK=16)
        report("gemm equals Triton's (fp16 outputs within one rounding)", *close(B.np(c), B.np(ref), 1e-3))


@case
def gemm_table(K, R, B):
    dims = [(37, 45, 29), (64, 20, 70), (16, 80, 33)]
    a = [B.randn(m, k, dtype=np.float16) for m, n, k in dims]
    b = [B.randn(k, n, dtype=np.float16) for m, n, k in dims]

    def launch(mod):
        c = [B.zeros(m, n) for m, n, k in dims]
        mod.gemm_table[(3,)](B.table(a), B.table(b), B.table(c), B.ints([v for d in dims for v in d]), len(dims),
                             PROGRAMS=3, BM=16, BN=32, BK=16)
        return c
    c = launch(K)
    for i, (m, n, k) in enumerate(dims):
        want = B.np(a[i]).astype(np.float64) @ B.np(b[i]).astype(np.float64)
        report(f"GEMMs through tables of addresses: problem {i} ({m}x{n}x{k})", *close(B.np(c[i]), want, 1e-3))
    if R:
        theirs = launch(R)
        for i in range(len(dims)):
            report(f"GEMMs through tables of addresses: problem {i} equals Triton's",
                   *close(B.np(c[i]), B.np(theirs[i]), 1e-5))


@case
def device_descriptors(K, R, B):
    calls = []
    tritonc.set_allocator(lambda size, alignment, stream: calls.append(size))
    M, N = 37, 52
    x, y = B.randn(M, N), B.zeros(M, N)
    K.desc_double[(tritonc.cdiv(M, 16), tritonc.cdiv(N, 32))](x, y, M, N, BM=16, BN=32)
    ok, why = close(B.np(y), B.np(x).astype(np.float64) * 2, 0)
    report("descriptors made in the kernel after set_allocator (blocks past the edges)", ok and not calls,
           f"{why}; allocator called {len(calls)} times")
    tritonc.set_allocator(None)


@case
def autotune(K, R, B):
    for n in (1000, 5000):
        x = B.randn(n)
        total = B.zeros(1)
        K.scaled_total[lambda m: (tritonc.cdiv(n, m['BLOCK']),)](x, total, n, 0.5)
        want = B.np(x).astype(np.float64).sum() * 0.5
        got = float(B.np(total)[0])
        ok = abs(got - want) <= 1e-4 * max(1.0, abs(want))
        report(f"autotune n={n} (reset_to_zero; best {K.scaled_total.best_config.kwargs})", ok,
               f"got {got}, want {want}")
    report("autotune caches one winner per key", len(K.scaled_total.cache) == 2, str(K.scaled_total.cache))
    if R:
        x = B.randn(3000)
        mine, theirs = B.zeros(1), B.zeros(1)
        K.scaled_total[lambda m: (tritonc.cdiv(3000, m['BLOCK']),)](x, mine, 3000, 0.25)
        R.scaled_total[lambda m: (tritonc.cdiv(3000, m['BLOCK']),)](x, theirs, 3000, 0.25)
        report("autotuned sum equals Triton's (atomic order aside)", *close(B.np(mine), B.np(theirs), 1e-5))
    src, dst = B.randn(100), B.zeros(100)
    K.pruned_copy[lambda m: (tritonc.cdiv(100, m['BLOCK']),)](src, dst, 100)
    best = K.pruned_copy.best_config.kwargs['BLOCK']
    report("autotune prune_configs_by (early_config_prune)", best in (32, 64) and np.array_equal(B.np(dst), B.np(src)),
           f"best BLOCK {best}")
    x = B.randn(300)
    x0 = B.np(x).copy()
    K.double_in_place[lambda m: (tritonc.cdiv(300, m['BLOCK']),)](x, 300)
    ok, why = close(B.np(x), x0 * 2, 0)
    report("autotune restore_value (doubled once, not per config)", ok, why)


@case
def do_not_specialize(K, R, B):
    out = B.zeros(64)
    for n in (1, 16, 37):
        K.affine_fill[(1,)](out, n, 2.0, -1.0, BLOCK=64)
        got = B.np(out)
        ok = np.all(got[:n] == np.arange(n) * 2.0 - 1.0)
        report(f"do_not_specialize n={n}", ok, str(got[:n]))
    keys = list(K.affine_fill._kernels)
    report("do_not_specialize: one kernel for n = 1, 16, 37", len(keys) == 1 and keys[0][4] == "i32", str(keys))
    for n in (1, 16, 37):
        K.affine_fill_specialized[(1,)](out, n, 2.0, -1.0, BLOCK=64)
    parts = sorted(k[4] for k in K.affine_fill_specialized._kernels)
    report("specialization: n == 1 constant, n % 16 hinted", parts == ["1", "i32", "i32:16"], str(parts))
    for n in (1, 16, 37):
        K.affine_fill_unaligned[(1,)](out, n, 2.0, -1.0, BLOCK=64)
        ok = np.all(B.np(out)[:n] == np.arange(n) * 2.0 - 1.0)
        report(f"do_not_specialize_on_alignment n={n}", ok, "")
    parts = sorted(k[4] for k in K.affine_fill_unaligned._kernels)
    report("do_not_specialize_on_alignment: 1 still constant, no :16", parts == ["1", "i32"], str(parts))
    if R:
        mine, theirs = B.zeros(64), B.zeros(64)
        K.affine_fill[(1,)](mine, 37, 0.5, 3.0, BLOCK=64)
        R.affine_fill[(1,)](theirs, 37, 0.5, 3.0, BLOCK=64)
        report("do_not_specialize kernel equals Triton's", np.array_equal(B.np(mine), B.np(theirs)), "")


@case
def none_and_alignment(K, R, B):
    n = 200
    x, bias = B.randn(n + 1), B.randn(n)
    out = B.zeros(n)
    K.add_bias[(4,)](x, None, out, n, BLOCK=64)
    ok1 = np.array_equal(B.np(out), B.np(x)[:n])
    K.add_bias[(4,)](x, bias, out, n, BLOCK=64)
    ok2, why = close(B.np(out), B.np(x)[:n].astype(np.float64) + B.np(bias), 1e-6)
    report("None argument is a constant (if bias_ptr is not None)", ok1 and ok2, why)
    keys = [k[4] for k in K.add_bias._kernels]
    report("None in the key", "None" in keys, str(keys))
    if R:
        theirs = B.zeros(n)
        R.add_bias[(4,)](x, bias, theirs, n, BLOCK=64)
        report("None / bias kernel equals Triton's", np.array_equal(B.np(out), B.np(theirs)), "")
    shifted = x[1:]
    K.add_bias[(4,)](shifted, None, out, n, BLOCK=64)
    ok = np.array_equal(B.np(out), B.np(x)[1:n + 1])
    parts = sorted(k[3] for k in K.add_bias._kernels)
    report("misaligned pointer: no :16 hint, right result", ok and "*fp32" in parts and "*fp32:16" in parts,
           str(parts))


@case
def heuristics(K, R, B):
    for n in (256, 250):
        src, dst = B.randn(256), B.zeros(256)
        K.copy_even[(tritonc.cdiv(n, 64),)](src, dst, n, BLOCK=64)
        got, want = B.np(dst), B.np(src)
        ok = np.allclose(got[:n], want[:n] + 1.0, rtol=0, atol=1e-6) and np.all(got[n:] == 0)
        report(f"heuristics EVEN={n % 64 == 0}", ok, "")
    evens = sorted(k[-1] for k in K.copy_even.fn._kernels)
    report("heuristics: one kernel per EVEN", evens == [False, True], str(evens))


@case
def string_constexpr(K, R, B):
    x = B.randn(100)
    for act, want in (("relu", np.maximum(B.np(x), 0)), ("neg", -B.np(x)), ("", B.np(x))):
        out = B.zeros(100)
        K.activation[(2,)](x, out, 100, ACT=act, BLOCK=64)
        report(f"string constexpr ACT={act!r}", np.array_equal(B.np(out), want), "")
        if R:
            theirs = B.zeros(100)
            R.activation[(2,)](x, theirs, 100, ACT=act, BLOCK=64)
            report(f"string constexpr ACT={act!r} equals Triton's", np.array_equal(B.np(out), B.np(theirs)), "")


@case
def strided_view(K, R, B):
    base = B.randn(100)
    view = base[::3]   # Triton takes a view's pointer; the kernel applies the stride
    out = B.zeros(34)
    K.strided_scale[(34,)](view, out, 34, 3, 2.0)
    report("non-contiguous view passes its pointer", np.allclose(B.np(out), B.np(base)[::3] * 2.0, atol=0), "")


@case
def warmup_and_asm(K, R, B):
    x = B.randn(64)
    out = B.zeros(64)
    k = K.add_bias.warmup(x, None, out, 64, BLOCK=64, grid=(1,))
    lang = "c" if B.name == "numpy" else "cuda"
    ok = lang in k.asm and "tir" in k.asm and "simt" in k.asm and "add_bias" in k.asm[lang]
    report("warmup compiles; asm has the code, tir and simt", ok, str(list(k.asm)))
    if lang == "c":   # the C output is built by the system compiler: NVRTC made nothing
        report("asm of a C kernel has no ptx or cubin", "ptx" not in k.asm and "cubin" not in k.asm and
               k._kernel.image("ptx") is None and k._kernel.image("cubin") is None, str(list(k.asm)))
    else:             # NVRTC compiled the loaded kernel: its PTX (text) and cubin (an ELF image)
        ptx, cubin = k.asm.get("ptx"), k.asm.get("cubin")
        report("asm of a CUDA kernel has NVRTC's ptx (str) and cubin (bytes)", isinstance(ptx, str) and
               ".entry add_bias" in ptx and isinstance(cubin, bytes) and cubin[:4] == b"\x7fELF",
               str(list(k.asm)))
    try:
        k._kernel.image("sass")
        report("image() of an unknown name raises ValueError", False, "no exception")
    except ValueError as e:
        report("image() of an unknown name raises ValueError", "'ptx' or 'cubin'" in str(e), str(e))
    k[(1,)](x, None, out, 64, 64)
    report("warmup's kernel launches with all arguments", np.array_equal(B.np(out), B.np(x)), "")


@case
def bad_arguments(K, R, B):
    x = B.randn(64)
    out = B.zeros(64)
    k = K.add_bias

    def expect(name, exc, words, fn):
        try:
            fn()
        except exc as e:
            text = str(e)
            report(f"bad argument: {name}", all(w in text for w in words), f"message: {text}")
            return
        except Exception as e:
            report(f"bad argument: {name}", False, f"raised {type(e).__name__}: {e}")
            return
        report(f"bad argument: {name}", False, "no exception")

    class Foreign:   # CUDA memory by its duck type, mixed with this device's arrays
        is_cuda = B.name == "numpy"
        dtype = "float32"

        def data_ptr(self):
            return 4096

    class NoDtype:
        def data_ptr(self):
            return 4096

    class DLPackOnly:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__()

    expect("too many arguments", TypeError, ["add_bias", "5 arguments", "6"],
           lambda: k[(1,)](x, None, out, 64, 64, 1))
    expect("missing argument", TypeError, ["add_bias", "'n'"], lambda: k[(1,)](x, None, out, BLOCK=64))
    expect("missing constexpr", TypeError, ["'BLOCK'"], lambda: k[(1,)](x, None, out, 64))
    expect("unknown keyword", TypeError, ["unexpected keyword", "'BLOK'"],
           lambda: k[(1,)](x, None, out, 64, BLOCK=64, BLOK=3))
    expect("argument given twice", TypeError, ["multiple values", "'n'"],
           lambda: k[(1,)](x, None, out, 64, n=3, BLOCK=64))
    expect("a string for a pointer", TypeError, ["argument 'x_ptr'", "str"],
           lambda: k[(1,)]("hello", None, out, 64, BLOCK=64))
    expect("a list for a pointer", TypeError, ["argument 'bias_ptr'", "list"],
           lambda: k[(1,)](x, [1, 2], out, 64, BLOCK=64))
    expect("mixed devices", ValueError, ["argument 'out_ptr'", "argument 'x_ptr'", "memory"],
           lambda: k[(1,)](x, None, Foreign(), 64, BLOCK=64))
    expect("data_ptr without dtype", TypeError, ["argument 'x_ptr'", "dtype"],
           lambda: k[(1,)](NoDtype(), None, out, 64, BLOCK=64))
    expect("integer too big", OverflowError, ["argument 'n'", "64 bits"],
           lambda: k[(1,)](x, None, out, 2 ** 70, BLOCK=64))
    expect("unhashable constexpr", TypeError, ["constexpr 'BLOCK'", "list"],
           lambda: k[(1,)](x, None, out, 64, BLOCK=[64]))
    expect("constexpr of a type tritonc cannot take", TypeError, ["constexpr 'BLOCK'", "tuple"],
           lambda: k[(1,)](x, None, out, 64, BLOCK=(64,)))
    expect("grid of 4 dimensions", ValueError, ["grid", "4 dimensions"],
           lambda: k[(1, 1, 1, 1)](x, None, out, 64, BLOCK=64))
    expect("grid of a string", TypeError, ["grid"], lambda: k["abc"](x, None, out, 64, BLOCK=64))
    expect("negative grid", ValueError, ["grid dimension 0"], lambda: k[(-1,)](x, None, out, 64, BLOCK=64))
    expect("grid function failing", ZeroDivisionError, [], lambda: k[lambda m: (1 // 0,)](x, None, out, 64, BLOCK=64))
    expect("num_warps not a power of 2", ValueError, ["num_warps"],
           lambda: k[(1,)](x, None, out, 64, BLOCK=64, num_warps=3))
    expect("calling the kernel directly", RuntimeError, ["outside of the scope of a kernel"],
           lambda: k(x, None, out, 64, BLOCK=64))
    expect("compile error with its location", tritonc.CompilationError, ["kernels.py:", "error:", "^"],
           lambda: K.uses_unknown_name[(1,)](out))
    if B.name == "numpy":
        expect("unsupported array dtype", TypeError, ["argument 'x_ptr'", "format"],
               lambda: k[(1,)](np.zeros(64, np.complex64), None, out, 64, BLOCK=64))
        idx = np.arange(8, dtype=np.int32)
        expect("failed device_assert", RuntimeError, ["index out of range"],
               lambda: K.checked_index[(8,)](idx, 5))
        d = np.zeros(64, np.float32)
        K.add_bias[(1,)](DLPackOnly(x), None, DLPackOnly(d), 64, BLOCK=64)
        report("DLPack arguments", np.array_equal(d, x), "")
    class Forgetful(int):   # a constexpr whose comparison empties the kernel's cache
        def __eq__(self, other):
            k._forget()
            return int(self) == int(other)
        __hash__ = int.__hash__
    k._forget()
    k[(1,)](x, None, out, 64, BLOCK=Forgetful(64))
    out2 = B.zeros(64)
    k[(1,)](x, None, out2, 64, BLOCK=Forgetful(64))
    keys = list(k._kernels)   # comparing the keys runs its __eq__ too
    report("a constexpr whose __eq__ empties the cache mid-lookup", np.array_equal(B.np(out2), B.np(x)) and
           len(keys) <= 1, str(keys))
    k._forget()
    # after all of that, the kernel still runs
    k[(1,)](x, None, out, 64, BLOCK=64)
    report("kernel still runs after the bad calls", np.array_equal(B.np(out), B.np(x)), "")


@case
def constexpr_globals(K, R, B):
    x = B.randn(100)
    out = B.zeros(100)
    K.uses_globals[(2,)](x, out, 100)
    want = B.np(x).astype(np.float64) * 2.0 - 1.5 + 64
    ok, why = close(B.np(out), want, 1e-6)
    report("module-level tl.constexpr globals (value, dtype, bool, in a helper and a default)", ok, why)
    if R is not None:
        theirs = B.zeros(100)
        R.uses_globals[(2,)](x, theirs, 100)
        report("module-level constexpr globals equal Triton's", same(B.np(out), B.np(theirs))[0], "")
    o = B.zeros(64, dtype=np.int32)
    try:
        K.uses_plain_global[(1,)](o, 64, BLOCK=64)
        report("a plain int global is Triton's error", False, "no exception")
    except tritonc.CompilationError as e:
        text = str(e)
        report("a plain int global is Triton's error", "global variable 'PLAIN_SCALE'" in text and
               "kernels.py:" in text and "^" in text, text)
    os.environ["TRITON_ALLOW_NON_CONSTEXPR_GLOBALS"] = "1"
    try:
        K.uses_plain_global_allowed[(1,)](o, 50, BLOCK=64)
    finally:
        del os.environ["TRITON_ALLOW_NON_CONSTEXPR_GLOBALS"]
    want = np.where(np.arange(64) < 50, np.arange(64) * K.PLAIN_SCALE, 0)
    report("a plain int global with TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1", np.array_equal(B.np(o), want),
           str(B.np(o)[:8]))


@case
def element_types(K, R, B):
    """fp16 arrays, bf16 through the duck type (numpy has no bf16), fp8: computed, or an error naming it."""
    n = 77
    h = B.randn(n, dtype=np.float16)
    out = B.zeros(n)
    K.widen[(2,)](h, out, n, BLOCK=64)
    report("fp16 arrays", np.array_equal(B.np(out), B.np(h).astype(np.float32) * 2), "")
    if B.name != "numpy":
        return
    rng = np.random.default_rng(5)
    vals = rng.standard_normal(n).astype(np.float32)
    bits = (vals.view(np.uint32) >> 16).astype(np.uint16)   # bf16: the top half of fp32
    want = (bits.astype(np.uint32) << 16).view(np.float32) * 2

    class BF16Dtype:
        name = "bfloat16"

        def __str__(self):
            return "torch.bfloat16"

    class Tensor:   # Triton's duck type: data_ptr() and dtype, in CPU memory
        def __init__(self, a, dtype):
            self.a, self.dtype, self.is_cuda = a, dtype, False

        def data_ptr(self):
            return self.a.ctypes.data
    out[:] = 0
    K.widen[(2,)](Tensor(bits, BF16Dtype()), out, n, BLOCK=64)
    report("bf16 through the duck type (a dtype named bfloat16)", np.array_equal(out, want), str(out[:4]))
    e5m2 = np.array([0x3c, 0x40, 0xc4, 0x38, 0x3e, 0x00, 0xbc, 0x42], np.uint8)   # 1, 2, -4, .5, 1.5, 0, -1, 3
    o8 = np.zeros(8, np.float32)
    try:
        K.widen[(1,)](Tensor(e5m2, "float8_e5m2"), o8, 8, BLOCK=8)
        report("fp8 e5m2 tensors: computed", np.array_equal(o8, np.array([1, 2, -4, .5, 1.5, 0, -1, 3], np.float32) * 2),
               str(o8))
    except TypeError as e:
        report("fp8 e5m2 tensors: an error naming the argument", "argument 'x_ptr'" in str(e) and "fp8" in str(e),
               str(e))


@case
def cuda_path_dry_run(K, R, B):
    """The CUDA launch path without a GPU: _dry_run(2) takes every pointer as CUDA memory, compiles to CUDA
    source and makes the launch a no-op whose packed arguments _last_launch() shows; TRITONC_DUMP writes .cu."""
    from tritonc import _tritonc
    import tempfile
    x = B.randn(300)
    out = B.zeros(300)
    before = _tritonc._dry_run(2)
    dump = tempfile.mkdtemp()
    os.environ["TRITONC_DUMP"] = dump
    try:
        k = K.add_bias.warmup(x, None, out, 300, BLOCK=128, grid=(3,))
        K.add_bias[(3,)](x, None, out, 300, BLOCK=128)
        grid, stream, device, values = _tritonc._last_launch()
        launches = _tritonc._dry_run() - before
    finally:
        _tritonc._dry_run(0)
        del os.environ["TRITONC_DUMP"]
    asm = k.asm
    report("asm of a CUDA kernel: cuda source, tir, simt", "__global__" in asm.get("cuda", "") and "tir" in asm and
           "simt" in asm and "c" not in asm, str(list(asm)))
    report("a dry run loads nothing, so NVRTC made no ptx or cubin", "ptx" not in asm and "cubin" not in asm,
           str(list(asm)))
    report("a no-op CUDA launch packs the arguments", launches == 1 and grid == (3, 1, 1) and device == "cuda" and
           values[0] == x.ctypes.data and values[1] == out.ctypes.data and 300 in values, str((grid, device, values)))
    report("the CUDA output is left unrun", not np.any(out), "")
    dumped = [f for f in os.listdir(dump) if f.startswith("add_bias-") and f.endswith(".cu")]
    report("TRITONC_DUMP writes CUDA source (.cu)", len(dumped) >= 1 and
           "__global__" in open(os.path.join(dump, dumped[0])).read(), str(os.listdir(dump)))


@case
def foreign_objects(K, R, B):
    """__cuda_array_interface__ and DLPack objects in CUDA memory (fakes: the launch is a no-op, its packed
    arguments are checked), and a kernel decorated by another package's jit given to tritonc.jit."""
    import ctypes
    from tritonc import _tritonc

    class CAI:
        def __init__(self, ptr, typestr):
            self.__cuda_array_interface__ = {"data": (ptr, False), "typestr": typestr, "shape": (256,),
                                             "version": 3}

    class DLTensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                    ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                    ("lanes", ctypes.c_uint16), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                    ("byte_offset", ctypes.c_uint64)]

    class DLPack:   # a CUDA tensor of DLPack (device type 2)
        def __init__(self, ptr, code, bits, offset=0):
            self.shape = (ctypes.c_int64 * 1)(256)
            self.t = DLTensor(ptr, 2, 0, 1, code, bits, 1, ctypes.addressof(self.shape), None, offset)

        def __dlpack__(self, stream=None):
            new = ctypes.pythonapi.PyCapsule_New
            new.restype = ctypes.py_object
            new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
            return new(ctypes.addressof(self.t), b"dltensor", None)

        def __dlpack_device__(self):
            return (2, 0)
    if B.name == "numpy":
        before = _tritonc._dry_run(1)
        try:
            K.add_bias[(2,)](CAI(0x7f0000100000, "<f4"), None, DLPack(0x7f0000200000, 2, 32, 4), 256, BLOCK=128)
            grid, stream, device, values = _tritonc._last_launch()
            keys = [k for k in K.add_bias._kernels if k[0] == "cuda"]
            ok = _tritonc._dry_run() - before == 1 and device == "cuda" and values[0] == 0x7f0000100000 and \
                values[1] == 0x7f0000200004 and values[2] == 256
            report("__cuda_array_interface__ and DLPack CUDA objects: CUDA, their pointers packed", ok,
                   str((device, [hex(v) for v in values])))
            report("their pointer keys: aligned, and unaligned by the DLPack byte offset",
                   any(k[3] == "*fp32:16" and k[5] == "*fp32" for k in keys), str(keys))
            K.widen[(2,)](DLPack(0x7f0000300000, 4, 16), CAI(0x7f0000400000, "<f4"), 256, BLOCK=128)
            keys = [k for k in K.widen._kernels if k[0] == "cuda"]
            report("a bf16 DLPack tensor (type code 4)", any(k[3] == "*bf16:16" for k in keys), str(keys))
            try:
                K.add_bias[(2,)](CAI(0x7f0000100000, "<f4"), None, B.zeros(256), 256, BLOCK=128)
                report("a CUDA array interface object with a numpy array: an error", False, "no exception")
            except ValueError as e:
                report("a CUDA array interface object with a numpy array: an error",
                       "argument 'out_ptr'" in str(e) and "CUDA" in str(e), str(e))
        finally:
            _tritonc._dry_run(0)
    if B.name == "numpy":   # what a type offers is kept a type, and found again when the type changes
        class Duck:
            is_cuda = False

            def __init__(self, a):
                self.a = a

            @property
            def dtype(self):
                return "float32"

            def data_ptr(self):
                return self.a.ctypes.data
        src = B.randn(64)
        dst = B.zeros(64)
        K.widen[(1,)](Duck(src), dst, 64, BLOCK=64)
        first = np.array_equal(dst, src * 2)
        Duck.dtype = property(lambda self: "float16")   # a class-level change: the type's version tag moves
        half = B.randn(64, dtype=np.float16)
        K.widen[(1,)](Duck(half), dst, 64, BLOCK=64)
        keys = sorted(k[3] for k in K.widen._kernels if k[0] == "cpu")
        report("a duck type's dtype property replaced on the class is seen", first and
               np.array_equal(dst, half.astype(np.float32) * 2) and "*fp16:16" in keys, str(keys))
    F = load_module("foreign_jit", "foreign_jit.py")
    kernel = tritonc.jit(F.foreign_square_add)
    x = B.randn(90)
    out = B.zeros(90)
    kernel[(2,)](x, out, 90, 0.25, BLOCK=64)
    want = B.np(x).astype(np.float64) ** 2 + 0.25
    ok, why = close(B.np(out), want, 1e-6)
    report("a kernel of another package's jit (its .fn) given to tritonc.jit", ok, why)


@case
def cuda_extras(K, R, B):
    """What only a machine with a GPU shows: torch CPU tensors, streams, cupy, DLPack, TRITONC_TARGET=c."""
    import subprocess
    torch = B.torch
    n = 256
    xc, outc = torch.randn(n), torch.zeros(n)
    K.add_bias[(4,)](xc, None, outc, n, BLOCK=64)
    report("torch CPU tensors run the C output", torch.equal(outc, xc), "")
    x, out = B.randn(n), B.zeros(n)
    try:
        K.add_bias[(4,)](x, None, outc, n, BLOCK=64)
        report("CUDA and CPU tensors mixed: an error", False, "no exception")
    except ValueError as e:
        report("CUDA and CPU tensors mixed: an error", "argument 'out_ptr'" in str(e) and "memory" in str(e), str(e))
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(50_000_000)   # the stream is busy for a while: a launch elsewhere would run first
        x.fill_(3.0)
        K.add_bias[(4,)](x, None, out, n, BLOCK=64)
    s.synchronize()
    report("launch on torch's current stream", bool(torch.all(out == 3.0)), str(out[:4]))

    class DL:
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__()
    out.zero_()
    K.add_bias[(4,)](DL(x), None, DL(out), n, BLOCK=64)
    torch.cuda.synchronize()
    report("DLPack CUDA arguments", bool(torch.all(out == 3.0)), "")
    try:
        import cupy
    except ImportError:
        cupy = None
    if cupy is not None:
        cx = cupy.arange(n, dtype=cupy.float32)
        cb = cupy.ones(n, dtype=cupy.float32)
        co = cupy.zeros(n, dtype=cupy.float32)
        K.add_bias[(4,)](cx, cb, co, n, BLOCK=64)
        cupy.cuda.Device().synchronize()
        report("cupy arrays (__cuda_array_interface__)", bool((co == cx + 1).all()), "")
    env = dict(os.environ, TRITONC_TARGET="c", PYTHONPATH=os.path.join(HERE, "..", "..", "python"))
    r = subprocess.run([sys.executable, "-m", "tritonc", os.path.join(HERE, "cuda_forced_c.py")], env=env,
                       capture_output=True, text=True)
    report("TRITONC_TARGET=c runs CUDA tensors on the CPU (copying)", r.stdout.strip() == "ok",
           r.stdout[-500:] + r.stderr[-1500:])


def main():
    global TAG
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--triton", action="store_true", help="compare with real Triton (CUDA)")
    args = ap.parse_args()
    if args.device == "cpu":
        B = Numpy()
        TAG = f" (numpy, W={os.environ.get('TRITONC_WARP_SIZE', '32')})"
    else:
        B = TorchCuda()
        TAG = " (torch cuda)"
    K = load_kernels("kernels_tritonc", True)
    R = load_kernels("kernels_triton", False) if args.triton else None
    for test in (rmsnorm, softmax, gemm, gemm_table, device_descriptors, autotune, do_not_specialize, none_and_alignment, heuristics, string_constexpr, strided_view,
                 warmup_and_asm, bad_arguments, constexpr_globals, element_types, foreign_objects):
        test(K, R, B)
    if args.device == "cuda":
        cuda_extras(K, R, B)
    else:
        cuda_path_dry_run(K, R, B)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
