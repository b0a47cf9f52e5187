// Helpers the kernels call: a mask counted in a wrapper, a slot per lane.
#pragma once
__device__ inline int count_lanes(unsigned long long b) { return __popc(b); }  // expect: H4 expect-col: 66

__device__ inline void stash(float v) {
    __shared__ float slots[32];  // expect: H3 expect-col: 28
    slots[__lane_id()] = v;
}
