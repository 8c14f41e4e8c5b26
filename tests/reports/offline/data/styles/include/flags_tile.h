// Found only through the submission's extra_include_paths.
#pragma once
constexpr int kFlagsTile = 64;
