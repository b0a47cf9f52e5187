#pragma once
constexpr int kGroup = 32;
