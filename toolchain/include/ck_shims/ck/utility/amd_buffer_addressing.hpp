// CK's <ck/utility/amd_buffer_addressing.hpp> made to compile on its own, as ROCm 6.3's does.
// The aiter wheel's CK (toolchain/ck.py) moved the vector types it uses (int32x4_t, ...) out of
// data_type.hpp into dtype_vector.hpp, which the header does not include; ROCm 6.3's CK, the
// runner's, has them in data_type.hpp, so a submission may include this header first.
#pragma once

#include "ck/utility/dtype_vector.hpp"
#include_next <ck/utility/amd_buffer_addressing.hpp>
