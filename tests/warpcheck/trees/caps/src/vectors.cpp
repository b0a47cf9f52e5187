#include <proj/team.hpp>

// Bits of a flag word, not lanes: five steps are the data's own.
int highest_flag(unsigned flags)
{
    unsigned bit = 1;
    for (int i = 0; i < 5; i++) {
        bit <<= 1;
        if (bit > flags)
            break;
    }
    return (int)bit;
}

// A width fixed at 32 by the project: the cap is the code's own.
int round_logical(int requested)
{
    int length = requested < LOGICAL_WARP_SIZE ? requested : LOGICAL_WARP_SIZE;
    int pow2 = 1;
    for (int i = 0; i < 5; i++) {
        pow2 = 2 * pow2;
        if (pow2 > length)
            break;
    }
    return pow2 >> 1;
}

// A width the caller passes: it may be 64.
int round_to_width(int requested, int warp_size)
{
    int pow2 = 1;
    for (int step = 1; step <= 5; ++step) {  // expect: H1 expect-col: 32
        if (pow2 >= warp_size || pow2 * 2 > requested)
            break;
        pow2 += pow2;
    }
    return pow2;
}

int team_vector(int requested)
{
    return proj::team_policy::round_vector(requested);
}
