// A system header (-isystem): not read, so its 32 is not this project's.
#pragma once
#define SYS_WARP_SIZE 32
