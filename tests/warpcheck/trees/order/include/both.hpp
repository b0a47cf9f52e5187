// warp_size has two values here; tiles.hpp must not make it one.
#pragma once
#include "wide.hpp"
#include "tiles.hpp"
