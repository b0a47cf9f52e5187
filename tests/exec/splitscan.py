# Inductor's split scan (tests/heldout/cumsum_bf16.py) with its sizes as
# arguments: a scan along dim 0 of an r0_numel x xnumel tensor, R0_BLOCK
# rows a program, the programs of a column chained by
# triton_helpers.exclusive_scan_decoupled_lookback through the workspace.
# split_scan sums (or with MAX takes running maxima of) fp32 values,
# split_scan64 sums int64 values with the _64 variant (three words a slot).
# tests/unit/test_exec.c runs them at W=32 and W=64 against the interpreter
# and against float64.
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def split_scan(in_ptr0, out_ptr0, ws_ptr, xnumel, r0_numel, MAX: tl.constexpr, R0_BLOCK: tl.constexpr):
    xoffset = tl.program_id(1)
    r0_offset = tl.program_id(0) * R0_BLOCK
    r0_index = r0_offset + tl.arange(0, R0_BLOCK)
    r0_mask = r0_index < r0_numel
    x = tl.load(in_ptr0 + (xoffset + xnumel * r0_index), r0_mask, other=0.0)
    ws = ws_ptr.to(tl.pointer_type(tl.uint64)) + xoffset * tl.num_programs(0)
    if MAX:
        x = tl.where(r0_mask, x, float("-inf"))
        block = tl.reduce(x, 0, _max)
        prefix = triton_helpers.exclusive_scan_decoupled_lookback(
            ws, block, tl.program_id(0), _max, DTYPE_VALUE_AS_UINT=tl.uint32, DTYPE_PACK=tl.uint64
        )
        scan = tl.associative_scan(x, 0, _max)
        out = tl.where(r0_offset == 0, scan, _max(prefix, scan))
    else:
        block = tl.reduce(x, 0, _add)
        prefix = triton_helpers.exclusive_scan_decoupled_lookback(
            ws, block, tl.program_id(0), _add, DTYPE_VALUE_AS_UINT=tl.uint32, DTYPE_PACK=tl.uint64
        )
        scan = tl.associative_scan(x, 0, _add)
        out = tl.where(r0_offset == 0, scan, _add(prefix, scan))
    tl.store(out_ptr0 + (xoffset + xnumel * r0_index), out, r0_mask)


@triton.jit
def split_scan64(in_ptr0, out_ptr0, ws_ptr, xnumel, r0_numel, R0_BLOCK: tl.constexpr):
    xoffset = tl.program_id(1)
    r0_offset = tl.program_id(0) * R0_BLOCK
    r0_index = r0_offset + tl.arange(0, R0_BLOCK)
    r0_mask = r0_index < r0_numel
    x = tl.load(in_ptr0 + (xoffset + xnumel * r0_index), r0_mask, other=0)
    ws = ws_ptr.to(tl.pointer_type(tl.uint64)) + xoffset * 3 * tl.num_programs(0)
    block = tl.reduce(x, 0, _add)
    prefix = triton_helpers.exclusive_scan_decoupled_lookback_64(ws, block, tl.program_id(0), _add)
    scan = tl.associative_scan(x, 0, _add)
    out = tl.where(r0_offset == 0, scan, _add(prefix, scan))
    tl.store(out_ptr0 + (xoffset + xnumel * r0_index), out, r0_mask)
