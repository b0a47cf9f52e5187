// Read for its summary by whichever file comes first.
#pragma once
#include "narrow.hpp"
