// Declarations-only stand-in: the device guards hipify v1 (torch <= 2.10) renames
// at::cuda::CUDAGuard / OptionalCUDAGuard / CUDAStreamGuard to.
#pragma once

#include <ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h>
#include <c10/hip/HIPGuard.h>

namespace c10::hip {
using HIPGuardMasqueradingAsCUDA = HIPGuard;
using OptionalHIPGuardMasqueradingAsCUDA = OptionalHIPGuard;
using HIPStreamGuardMasqueradingAsCUDA = HIPStreamGuard;
using OptionalHIPStreamGuardMasqueradingAsCUDA = OptionalHIPStreamGuard;
}  // namespace c10::hip

namespace at::hip {
using c10::hip::HIPGuardMasqueradingAsCUDA;
using c10::hip::HIPStreamGuardMasqueradingAsCUDA;
using c10::hip::OptionalHIPGuardMasqueradingAsCUDA;
using c10::hip::OptionalHIPStreamGuardMasqueradingAsCUDA;
}  // namespace at::hip
