#include "proj/block.hpp"
#include "proj/policy.hpp"

struct Traits {
    static constexpr int WarpSize = 64;  // expect: H8
};

int blocks_by_registers(int regs_per_sm, int regs_per_wave, int block_size) {
    int bad = regs_per_sm / (regs_per_wave * (block_size / Traits::WarpSize));  // expect: H12 expect-col: 47
    int waves = (block_size + Traits::WarpSize - 1) / Traits::WarpSize;
    int good = regs_per_sm / (regs_per_wave * waves);
    int rows = block_size / Traits::WarpSize;
    return bad + good + rows;
}
