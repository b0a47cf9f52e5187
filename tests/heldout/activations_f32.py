# AOT ID: ['9_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_root/bm/cbmp5ttto27oy3sqsfn2gsyx4vh54yt6isaqplcr7zmtqqedm6ic.py
# Topologically Sorted Source Nodes: [silu, softplus, add, hardswish, add_1, elu, add_2, leaky_relu, add_3, sigmoid, tanh, mul, add_4], Original ATen: [aten.silu, aten.softplus, aten.add, aten.hardswish, aten.elu, aten.leaky_relu, aten.sigmoid, aten.tanh, aten.mul]
# Source node to ATen node mapping:
#   add => add_1
#   add_1 => add_3
#   add_2 => add_4
#   add_3 => add_5
#   add_4 => add_6
#   elu => expm1, gt_1, mul_1, mul_2, mul_3, where_1
#   hardswish => add_2, clamp_max, clamp_min, div_1, mul
#   leaky_relu => gt_2, mul_4, where_2
#   mul => mul_5
#   sigmoid => sigmoid
#   silu => add, div, exp, neg
#   softplus => exp_1, gt, log1p, where
#   tanh => tanh
# Graph fragment:
#   %arg0_1 : Tensor "f32[1048576][1]cuda:0" = PlaceHolder[target=arg0_1]
#   %neg : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%arg0_1,), kwargs = {})
#   %exp : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%arg0_1, %add), kwargs = {})
#   %gt : Tensor "b8[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%arg0_1, 20), kwargs = {})
#   %exp_1 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%arg0_1,), kwargs = {})
#   %log1p : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.log1p.default](args = (%exp_1,), kwargs = {})
#   %where : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%gt, %arg0_1, %log1p), kwargs = {})
#   %add_1 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%div, %where), kwargs = {})
#   %add_2 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, 3), kwargs = {})
#   %clamp_min : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%add_2, 0), kwargs = {})
#   %clamp_max : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clamp_max.default](args = (%clamp_min, 6), kwargs = {})
#   %mul : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, %clamp_max), kwargs = {})
#   %div_1 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul, 6), kwargs = {})
#   %add_3 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_1, %div_1), kwargs = {})
#   %gt_1 : Tensor "b8[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%arg0_1, 0), kwargs = {})
#   %mul_1 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, 1.0), kwargs = {})
#   %mul_2 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, 1.0), kwargs = {})
#   %expm1 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expm1.default](args = (%mul_2,), kwargs = {})
#   %mul_3 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%expm1, 1.0), kwargs = {})
#   %where_1 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%gt_1, %mul_1, %mul_3), kwargs = {})
#   %add_4 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_3, %where_1), kwargs = {})
#   %gt_2 : Tensor "b8[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%arg0_1, 0), kwargs = {})
#   %mul_4 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, 0.1), kwargs = {})
#   %where_2 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%gt_2, %arg0_1, %mul_4), kwargs = {})
#   %add_5 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_4, %where_2), kwargs = {})
#   %sigmoid : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%arg0_1,), kwargs = {})
#   %tanh : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%arg0_1,), kwargs = {})
#   %mul_5 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sigmoid, %tanh), kwargs = {})
#   %add_6 : Tensor "f32[1048576][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_5, %mul_5), kwargs = {})
#   return %add_6
triton_poi_fused_add_elu_hardswish_leaky_relu_mul_sigmoid_silu_softplus_tanh_0 = async_compile.triton('triton_poi_fused_add_elu_hardswish_leaky_relu_mul_sigmoid_silu_softplus_tanh_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1048576}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_elu_hardswish_leaky_relu_mul_sigmoid_silu_softplus_tanh_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 12582912}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_elu_hardswish_leaky_relu_mul_sigmoid_silu_softplus_tanh_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1048576
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp1 = -tmp0
    tmp2 = libdevice.exp(tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = tmp2 + tmp3
    tmp5 = (tmp0 / tmp4)
    tmp6 = tl.full([1], 20.0, tl.float32)
    tmp7 = tmp0 > tmp6
    tmp8 = libdevice.exp(tmp0)
    tmp9 = libdevice.log1p(tmp8)
    tmp10 = tl.where(tmp7, tmp0, tmp9)
    tmp11 = tmp5 + tmp10
    tmp12 = tl.full([1], 3.0, tl.float32)
    tmp13 = tmp0 + tmp12
    tmp14 = tl.full([1], 0.0, tl.float32)
    tmp15 = triton_helpers.maximum(tmp13, tmp14)
    tmp16 = tl.full([1], 6.0, tl.float32)
    tmp17 = triton_helpers.minimum(tmp15, tmp16)
    tmp18 = tmp0 * tmp17
    tmp19 = tl.full([1], 0.16666666666666666, tl.float32)
    tmp20 = tmp18 * tmp19
    tmp21 = tmp11 + tmp20
    tmp22 = tmp0 > tmp14
    tmp23 = tmp0 * tmp3
    tmp24 = libdevice.expm1(tmp23)
    tmp25 = tmp24 * tmp3
    tmp26 = tl.where(tmp22, tmp23, tmp25)
    tmp27 = tmp21 + tmp26
    tmp28 = tl.full([1], 0.1, tl.float32)
    tmp29 = tmp0 * tmp28
    tmp30 = tl.where(tmp22, tmp0, tmp29)
    tmp31 = tmp27 + tmp30
    tmp32 = tl.sigmoid(tmp0)
    tmp33 = libdevice.tanh(tmp0)
    tmp34 = tmp32 * tmp33
    tmp35 = tmp31 + tmp34
    tl.store(out_ptr0 + (x0), tmp35, None)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        arg0_1, = args
        args.clear()
        assert_size_stride(arg0_1, (1048576, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1048576, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [silu, softplus, add, hardswish, add_1, elu, add_2, leaky_relu, add_3, sigmoid, tanh, mul, add_4], Original ATen: [aten.silu, aten.softplus, aten.add, aten.hardswish, aten.elu, aten.leaky_relu, aten.sigmoid, aten.tanh, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_elu_hardswish_leaky_relu_mul_sigmoid_silu_softplus_tanh_0.run(arg0_1, buf0, 1048576, stream=stream0)
            del arg0_1
        return (buf0, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((1048576, ), (1, ), device='cuda:0', dtype=torch.float32)
    return [arg0_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
