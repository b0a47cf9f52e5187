#include <proj/arch_config.hpp>
#include <proj/tuning.hpp>

// The configs are read here; their findings stay at their lines in the headers.
unsigned sort_block_for_gfx90a() { return proj::sort_config_90a<int>::type::block; }
unsigned lanes_for_host() { return proj::host_aware_config::lanes; }
