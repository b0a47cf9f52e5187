#!/usr/bin/env python3
"""Capture TorchInductor's Triton output for operations outside tests/corpus/.

Usage (on a machine with an NVIDIA GPU, torch and triton installed):
    python3 tests/heldout/capture.py OUTDIR

Each operation below is compiled with torch.compile; every generated output
module (forward, and backward where the operation is trained) is written to
OUTDIR/NAME.py (NAME_bwd.py for the backward). These are the held-out set:
the compiler was not written against them, so how many of them it compiles
and matches says how general it is. gen_golden.py --corpus OUTDIR then
records real Triton's outputs for their kernels.
"""
import os
import sys
import traceback

os.environ.setdefault("TORCHINDUCTOR_FX_GRAPH_CACHE", "0")
os.environ.setdefault("TORCHINDUCTOR_AUTOGRAD_CACHE", "0")

import torch
import torch.nn.functional as F
from torch._inductor.utils import run_and_get_code

dev = "cuda"


def r(*shape, dt=torch.float32, grad=False):
    t = torch.randn(*shape, device=dev, dtype=dt)
    return t.requires_grad_(grad)


def idx(hi, *shape):
    return torch.randint(0, hi, shape, device=dev)


def layer(fn):
    return fn


OPS = {
    # norms
    "batchnorm_train_f32": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                            lambda: (r(32, 64, 28, 28), r(64), r(64))),
    "groupnorm_f32": (lambda x, w, b: F.group_norm(x, 8, w, b),
                      lambda: (r(16, 64, 32, 32), r(64), r(64))),
    "layernorm_bwd_f32": (lambda x, w, b: F.layer_norm(x, (768,), w, b),
                          lambda: (r(4096, 768, grad=True), r(768, grad=True), r(768, grad=True))),
    "rmsnorm_fp16_5120": (lambda x, w: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True)
                                                                 + 1e-5)).half() * w,
                          lambda: (r(2048, 5120, dt=torch.float16), r(5120, dt=torch.float16))),
    "l2_normalize_f32": (lambda x: F.normalize(x, dim=-1), lambda: (r(8192, 300),)),
    # softmax family
    "softmax_bwd_f32": (lambda x: torch.softmax(x, -1), lambda: (r(4096, 1000, grad=True),)),
    "causal_softmax_f16": (lambda s: torch.softmax(s.masked_fill(torch.ones(512, 512, device=dev,
                                                                            dtype=torch.bool).triu(1),
                                                                 float("-inf")), -1),
                           lambda: (r(16, 512, 512, dt=torch.float16),)),
    "logsumexp_f32": (lambda x: torch.logsumexp(x, dim=1), lambda: (r(2048, 5000),)),
    "cross_entropy_f32": (lambda x, t: F.cross_entropy(x, t), lambda: (r(1024, 32000), idx(32000, 1024))),
    # pointwise
    "activations_f32": (lambda x: F.silu(x) + F.softplus(x) + F.hardswish(x) + F.elu(x) + F.leaky_relu(x, 0.1)
                        + torch.sigmoid(x) * torch.tanh(x), lambda: (r(1 << 20),)),
    "gelu_erf_f16": (lambda x: F.gelu(x), lambda: (r(4096, 4096, dt=torch.float16),)),
    "clamp_where_f32": (lambda x, y: torch.where(x > y, x.clamp(-0.5, 0.5), y * 2).abs().sqrt(),
                        lambda: (r(1 << 20), r(1 << 20))),
    "int_arith_i32": (lambda a, b: (a // b) + (a % b) * 3 - (a >> 2) + (a & b) - torch.bitwise_xor(a, b),
                      lambda: (torch.randint(-1000, 1000, (1 << 18,), device=dev, dtype=torch.int32),
                               torch.randint(1, 50, (1 << 18,), device=dev, dtype=torch.int32))),
    "float_floordiv_f32": (lambda a, b: torch.floor_divide(a, b) + torch.remainder(a, b) + torch.fmod(a, b),
                           lambda: (r(1 << 18), r(1 << 18) + 3)),
    "to_int8_f32": (lambda x: (x * 40).round().clamp(-128, 127).to(torch.int8), lambda: (r(1 << 20),)),
    "pow_lerp_f32": (lambda x, y: torch.lerp(x, y, 0.3) + x.pow(3) + torch.addcmul(x, x, y, value=0.5)
                     + torch.exp2(y) + torch.log2(x.abs() + 1), lambda: (r(1 << 20), r(1 << 20))),
    "rotary_bf16": (lambda x, c, s: torch.cat([x[..., :64] * c - x[..., 64:] * s,
                                                x[..., 64:] * c + x[..., :64] * s], -1),
                    lambda: (r(8, 32, 1024, 128, dt=torch.bfloat16), r(1024, 64, dt=torch.bfloat16),
                             r(1024, 64, dt=torch.bfloat16))),
    "cat_pad_f32": (lambda a, b: F.pad(torch.cat([a, b], 1), (1, 3)),
                    lambda: (r(1024, 300), r(1024, 500))),
    "flip_roll_f32": (lambda x: torch.flip(x, [1]) + torch.roll(x, 7, 0), lambda: (r(1000, 999),)),
    "dropout_f32": (lambda x: F.dropout(x, 0.2, training=True), lambda: (r(1 << 20),)),
    "masked_fill_bool": (lambda x, m: x.masked_fill(m, 0.0) + m.float(),
                         lambda: (r(4096, 1024), torch.rand(4096, 1024, device=dev) > 0.5)),
    "mixed_dtype_f16_f32": (lambda a, b: a * b + a.float().exp(), lambda: (r(1 << 20, dt=torch.float16),
                                                                         r(1 << 20))),
    # reductions
    "std_f32": (lambda x: torch.std(x, dim=0), lambda: (r(4096, 512),)),
    "amax_3d_f32": (lambda x: x.amax(dim=(0, 2)), lambda: (r(64, 256, 128),)),
    "mean_mid_f32": (lambda x: x.mean(dim=1), lambda: (r(64, 1000, 64),)),
    "argmin_f32": (lambda x: torch.argmin(x, dim=1), lambda: (r(4096, 1500),)),
    "min_dim0_f32": (lambda x: torch.min(x, dim=0), lambda: (r(3000, 700),)),
    "any_all_bool": (lambda x: (x > 2).any(1) & (x > -3).all(1), lambda: (r(4096, 2048),)),
    "prod_f32": (lambda x: torch.prod(x, 1), lambda: (r(4096, 64) * 0.1 + 1,)),
    "sum_i64": (lambda x: x.sum(1), lambda: (torch.randint(-100, 100, (2048, 3000), device=dev),)),
    "norm_fp64": (lambda x: x.norm(dim=1) + x.sum(0)[:1], lambda: (r(1024, 1024, dt=torch.float64),)),
    "mse_loss_f32": (lambda x, y: F.mse_loss(x, y) + F.smooth_l1_loss(x, y), lambda: (r(4096, 1024),
                                                                                        r(4096, 1024))),
    "cumprod_f32": (lambda x: torch.cumprod(x, 1), lambda: (r(1024, 100) * 0.1 + 1,)),
    "cumsum_bf16": (lambda x: torch.cumsum(x, 0), lambda: (r(512, 1024, dt=torch.bfloat16),)),
    # indexing
    "gather_f32": (lambda x, i: torch.gather(x, 1, i), lambda: (r(4096, 512), idx(512, 4096, 64))),
    "scatter_add_f32": (lambda x, i, s: x.scatter_add(0, i, s),
                        lambda: (r(1000, 128), idx(1000, 4096, 128), r(4096, 128))),
    "index_select_f16": (lambda x, i: x[i] * 2, lambda: (r(30000, 1024, dt=torch.float16), idx(30000, 4096))),
    # pooling and resampling
    "avgpool_f32": (lambda x: F.avg_pool2d(x, 3, 2, 1), lambda: (r(16, 64, 56, 56),)),
    "maxpool_f32": (lambda x: F.max_pool2d(x, 2), lambda: (r(16, 64, 56, 56),)),
    "upsample_bilinear_f32": (lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"),
                              lambda: (r(8, 32, 64, 64),)),
    "channels_last_add_f32": (lambda x, b: (x + b.view(1, -1, 1, 1)).relu(),
                              lambda: (r(16, 64, 56, 56).to(memory_format=torch.channels_last), r(64))),
    # training: backward kernels
    "gelu_bwd_bf16": (lambda x: F.gelu(x, approximate="tanh"), lambda: (r(4096, 4096, dt=torch.bfloat16,
                                                                           grad=True),)),
    "rmsnorm_bwd_f32": (lambda x, w: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w,
                        lambda: (r(2048, 4096, grad=True), r(4096, grad=True))),
}

DYNAMIC = {"softmax_dynamic_f32": (lambda x: torch.softmax(x, -1), lambda: (r(1000, 777),)),
           "add_dynamic_f32": (lambda x, y: x + y * 2, lambda: (r(12345), r(12345)))}


def capture(name, fn, make, dynamic, outdir):
    torch._dynamo.reset()
    args = make()
    cf = torch.compile(fn, dynamic=dynamic)
    train = any(isinstance(a, torch.Tensor) and a.requires_grad for a in args)

    def step():
        out = cf(*args)
        if train:
            outs = out if isinstance(out, tuple) else (out,)
            sum(o.float().sum() for o in outs).backward()
        return out

    _, codes = run_and_get_code(step)
    names = []
    for i, code in enumerate(codes):
        n = name if i == 0 else (name + "_bwd" if i == 1 and train else "%s_m%d" % (name, i))
        with open(os.path.join(outdir, n + ".py"), "w") as f:
            f.write(code)
        names.append((n, code.count("@triton.jit")))
    return names


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    print("torch", torch.__version__, torch.cuda.get_device_name())
    ok, bad = [], []
    for table, dyn in ((OPS, False), (DYNAMIC, True)):
        for name, (fn, make) in table.items():
            try:
                got = capture(name, fn, make, dyn, outdir)
                print("captured %-24s %s" % (name, got), flush=True)
                ok.append(name)
            except Exception as e:
                traceback.print_exc()
                bad.append((name, repr(e)[:200]))
    print("captured %d, failed %d: %s" % (len(ok), len(bad), bad))


if __name__ == "__main__":
    main()
