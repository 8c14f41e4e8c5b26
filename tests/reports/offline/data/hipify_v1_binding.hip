// What hipify v1 (torch <= 2.10, the runner's 2.10 nightly) makes of a binding that includes
// ATen/cuda/CUDAContext.h and takes at::cuda::getCurrentCUDAStream(): the installed torch may
// run v2, which keeps the CUDA names, so the stubs must accept this spelling as well.
#include <torch/types.h>
#include <hip/hip_runtime.h>
#include <ATen/hip/HIPContext.h>

__global__ void touch_kernel(int* flag) { *flag = 1; }

void touch(torch::Tensor flag) {
    const hipStream_t stream = at::hip::getCurrentHIPStreamMasqueradingAsCUDA();
    hipLaunchKernelGGL((touch_kernel), dim3(1), dim3(1), 0, stream, flag.data_ptr<int>());
    hipStream_t raw = c10::hip::getCurrentHIPStreamMasqueradingAsCUDA().stream();
    (void)raw;
}
