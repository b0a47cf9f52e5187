"""Times cubins of tutorial 02's softmax_kernel and 05's _layer_norm_fwd_fused
through the CUDA driver API (cuModuleLoadData, cuLaunchKernel), the way
reference.py times Triton's (CUDA events, 256 MiB written before each launch
to flush L2, median of 20 after 5 warm-ups), on the tutorials' sizes (softmax
4096 x 1000 fp32 on 528 programs, layer norm 4096 x 8192 fp16), with 256
threads a block, and checks each output against torch. Variants of tritonc's
CUDA output (edited by hand, compiled with `nvcc -arch=sm_90a -cubin`) are
compared in one run this way, on a machine with an NVIDIA GPU:

  python3 bench/tutorials/cubin_time.py DIR [TRITON_DIR]

Every DIR/*.cubin whose name has "ln" or "layernorm" in it is the layer norm,
any other the softmax; TRITON_DIR/triton_*.cubin are Triton's (two scratch
pointers more, and TRITON_DIR/triton_NAME.shared its dynamic shared bytes).
Prints "harness NAME regs=... ms=... max_err=..." a cubin.
"""
import ctypes, sys, os, glob, json
import numpy as np, torch
torch.cuda.init(); torch.zeros(1, device="cuda"); torch.cuda.synchronize()
cu = ctypes.CDLL("libcuda.so.1")
def ck(r, what):
    if r != 0: raise RuntimeError(f"{what}: CUresult {r}")
def load(path, name):
    data = open(path, "rb").read()
    mod = ctypes.c_void_p(); fn = ctypes.c_void_p()
    ck(cu.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(data)), "load " + path)
    ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "fn")
    nregs = ctypes.c_int(); ck(cu.cuFuncGetAttribute(ctypes.byref(nregs), 4, fn), "attr")  # CU_FUNC_ATTRIBUTE_NUM_REGS
    return fn, nregs.value
def launch(fn, grid, args, shared=0, extra=0):
    vals = []
    for a in args:
        if isinstance(a, torch.Tensor): vals.append(ctypes.c_void_p(a.data_ptr()))
        elif isinstance(a, float): vals.append(ctypes.c_float(a))
        else: vals.append(ctypes.c_int(a))
    vals += [ctypes.c_void_p(0) for _ in range(extra)]
    arr = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
    ck(cu.cuLaunchKernel(fn, grid, 1, 1, 256, 1, 1, shared, None, arr, None), "launch")
flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
def bench(fn, grid, args, shared=0, extra=0):
    times = []
    for i in range(25):
        flush.zero_()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); launch(fn, grid, args, shared, extra); e.record(); torch.cuda.synchronize()
        if i >= 5: times.append(s.elapsed_time(e))
    return float(np.median(times))
torch.manual_seed(0)
M, N = 4096, 8192
x = torch.randn(M, N, device="cuda", dtype=torch.float16)
w = torch.rand(N, device="cuda", dtype=torch.float16); b = torch.rand(N, device="cuda", dtype=torch.float16)
ref = torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5)
R, C = 4096, 1000
xs = torch.randn(R, C, device="cuda"); refs = torch.softmax(xs, 1)
paths = sorted(glob.glob(sys.argv[1] + "/*.cubin")) + (sorted(glob.glob(sys.argv[2] + "/triton_*.cubin")) if len(sys.argv) > 2 else [])
for path in paths:
    base = os.path.basename(path)
    tri = base.startswith("triton_")
    extra = 2 if tri else 0
    shared = int(open(path[:-6] + ".shared").read()) if tri else 0
    if "ln" in base or "layernorm" in base:
        fn, nr = load(path, "_layer_norm_fwd_fused")
        y = torch.empty_like(x); mean = torch.empty(M, device="cuda"); rstd = torch.empty(M, device="cuda")
        args = [x, y, w, b, mean, rstd, N, N, 1e-5]
        launch(fn, M, args, shared, extra); torch.cuda.synchronize()
        err = (y.float() - ref).abs().max().item()
        ms = bench(fn, M, args, shared, extra)
    else:
        fn, nr = load(path, "softmax_kernel")
        y = torch.empty_like(xs)
        args = [y, xs, C, C, R, C]
        launch(fn, 528, args, shared, extra); torch.cuda.synchronize()
        err = (y - refs).abs().max().item()
        ms = bench(fn, 528, args, shared, extra)
    print(f"harness {base} regs={nr} ms={ms:.4f} max_err={err:.2e}", flush=True)
