// Declarations-only stand-in; see torch/types.h for why it exists.
#pragma once
#include <torch/types.h>
