// One value only.
#pragma once
constexpr int warp_size = 32;
