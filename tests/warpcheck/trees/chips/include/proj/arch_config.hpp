#pragma once
// Widths per target, and what the host pass makes of them.
namespace proj {

struct wave_config {
#if PROJ_HIP
#if defined(__GFX8__) || defined(__GFX9__)
    static constexpr unsigned lanes = 64;
#else
    static_assert(false, "wave32 chips are not supported yet");  // expect: H8 expect-col: 5
    static constexpr unsigned lanes = 32;
#endif
#else
    static constexpr unsigned lanes = 32;
#endif
};

// The host pass has a branch of its own: fine.
struct host_aware_config {
#if defined(__GFX9__)
    static constexpr unsigned lanes = 64;
#elif !defined(__HIP_DEVICE_COMPILE__)
    static constexpr unsigned lanes = 0;
#else
    static_assert(false, "this chip is not supported");
#endif
};

// Only device passes of wave32 chips stop here: the project's choice.
#if defined(__HIP_DEVICE_COMPILE__) && !defined(__GFX9__)
static_assert(false, "build for CDNA only");
#endif

// A condition that is not about a chip, and an assertion that can hold.
#ifndef PROJ_HAVE_SORT
static_assert(false, "the sort needs PROJ_HAVE_SORT");
#endif
#if defined(__gfx90a__)
static_assert(sizeof(long) == 8, "LP64");
#else
static_assert(0 == 0, "always");
#endif

}  // namespace proj
