#include <proj/wave.hpp>

__global__ void lane_ids(int *out)
{
    out[threadIdx.x] = threadIdx.x % proj::wave_size_rt();
}

// A constexpr member that is one: fine.
struct tile {
    static constexpr int width = 64;
    constexpr int size() const { return width; }
};
