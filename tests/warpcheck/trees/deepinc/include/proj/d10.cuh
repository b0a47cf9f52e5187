#pragma once
// one link of a chain of 25 headers: the last one defines the width
#include <proj/d11.cuh>
