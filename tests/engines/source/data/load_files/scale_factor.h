// Quoted include found beside the source passed to load().
#pragma once
constexpr float kScaleFactor = 3.0f;
