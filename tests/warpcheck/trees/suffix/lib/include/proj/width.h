#pragma once
#define PROJ_WARP_SIZE 32
