// Declarations-only stand-in for <torch/extension.h>; see types.h for why it exists.
#pragma once
#include <torch/types.h>
