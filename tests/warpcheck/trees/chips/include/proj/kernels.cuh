#pragma once
// Kernels defined in another file of the project; only their declarations here.
template <typename T> __global__ void pack_pairs(const T *in, T *out, int n);
template <typename T> __global__ void scale_rows(const T *in, T *out, int n);
template <typename T> __global__ void fill(T *out, int n);
int proj_host_warp_size();
