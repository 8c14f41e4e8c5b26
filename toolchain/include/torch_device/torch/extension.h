// torch_device stand-in for <torch/extension.h> in a device compile; see ../README.md.
#pragma once

#include <torch/types.h>
