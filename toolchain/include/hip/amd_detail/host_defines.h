// Offline overlay of <hip/amd_detail/host_defines.h>: Debian's HIP 5.2 header, then names of
// HIP 6.3 that libraries built on HIP use (CK's amd_ck_fp8.hpp) and 5.2 lacks: the __hip_internal
// copies of <type_traits>'s (this build has the standard library, so they are std's) and
// __hip_assert (HIP 6.3's amd_device_functions.h: a trap when the condition is false).
#pragma once

#include_next <hip/amd_detail/host_defines.h>

#ifndef __hip_assert
#define __hip_assert(COND) \
  do {                     \
    if (!(COND)) __builtin_trap(); \
  } while (0)
#endif

#if defined(__cplusplus)
#include <type_traits>

namespace __hip_internal {
using std::enable_if;
using std::false_type;
using std::integral_constant;
using std::is_floating_point;
using std::is_integral;
using std::is_same;
using std::is_signed;
using std::true_type;
}  // namespace __hip_internal
#endif
