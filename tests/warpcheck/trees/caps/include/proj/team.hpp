#pragma once
#include <algorithm>

#include <proj/width.hpp>

namespace proj {

// Vector lengths of a team: powers of two up to the device's width.
struct team_policy {
    static int vector_max() { return device_warp_size(0); }

    static int round_vector(int requested)
    {
        int length = std::min(requested, vector_max());
        if ((length & (length - 1)) != 0) {
            int pow2 = 1;
            for (int i = 0; i < 5; i++) {  // expect: H1 expect-col: 33
                pow2 = pow2 << 1;
                if (pow2 > length)
                    break;
            }
            length = pow2 >> 1;
        }
        return length;
    }

    // The fix: double while below the width.
    static int round_vector_fixed(int requested)
    {
        int length = std::min(requested, vector_max());
        int pow2 = 1;
        while (pow2 < vector_max() && pow2 * 2 <= length)
            pow2 <<= 1;
        return pow2;
    }

    // Six steps reach 64: fine.
    static int round_vector_six(int requested)
    {
        int length = std::min(requested, vector_max());
        int pow2 = 1;
        for (int i = 0; i < 6; i++) {
            pow2 = pow2 << 1;
            if (pow2 > length)
                break;
        }
        return pow2 >> 1;
    }

    // At most half the width: 32 on a 64-lane wavefront, so five steps do.
    static int round_half(int requested)
    {
        int length = std::min(requested, vector_max() / 2);
        int pow2 = 1;
        for (int i = 0; i < 5; i++) {
            pow2 *= 2;
            if (pow2 > length)
                break;
        }
        return pow2 >> 1;
    }
};

}  // namespace proj
