// torch_device stand-in for <torch/torch.h> in a device compile; see ../README.md.
#pragma once

#include <torch/types.h>
