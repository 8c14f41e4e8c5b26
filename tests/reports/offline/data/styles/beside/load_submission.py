# Test submission (imported by the report, never run on a GPU): the HIP source is a .cu file
# beside this one, built with torch.utils.cpp_extension.load instead of load_inline. Its
# kernel is `loaded_kernel`.
import torch.utils.cpp_extension

module = torch.utils.cpp_extension.load(name="load_style", sources=["loaded_kernel.cu"],
                                        extra_cuda_cflags=["--offload-arch=gfx942"])
