# expect: 12:14: error: scratch_base must be a pointer to u64 (its slots)
# args: -k k -s *fp32,*u8 -D BLOCK=16
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
@triton.jit
def add(a, b):
    return a + b
@triton.jit
def k(x_ptr, ws_ptr, BLOCK: tl.constexpr):
    v = tl.sum(tl.load(x_ptr + tl.arange(0, BLOCK)), 0)
    prefix = triton_helpers.exclusive_scan_decoupled_lookback(
        ws_ptr, v, tl.program_id(0), add, DTYPE_VALUE_AS_UINT=tl.uint32, DTYPE_PACK=tl.uint64
    )
    tl.store(x_ptr, prefix)
