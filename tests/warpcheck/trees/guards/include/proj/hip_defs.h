// The guard's name says HIP; it is no condition on the platform.
#ifndef PROJ_HIP_DEFS_H_
#define PROJ_HIP_DEFS_H_

#if defined(__gfx1030__)  // expect: H8 expect-col: 13
#define WARP_SIZE 32
#else
#define WARP_SIZE 64
#endif

#endif  // PROJ_HIP_DEFS_H_
