// Empty stand-in for <hipblaslt/hipblaslt.h>: hipBLASLt cannot be installed here (no Debian or
// PyPI package). Including it compiles, and so do declarations of its handle types; calling
// any of its functions stops the compile with the message below.
#pragma once

#include <hipblas-common/hipblas-common.h>

#define HIPBLASLT_STANDIN 1

typedef struct isa_standin_hipblaslt_handle* hipblasLtHandle_t;
typedef struct isa_standin_hipblaslt_matmul_desc* hipblasLtMatmulDesc_t;
typedef struct isa_standin_hipblaslt_matrix_layout* hipblasLtMatrixLayout_t;
typedef struct isa_standin_hipblaslt_preference* hipblasLtMatmulPreference_t;
typedef struct isa_standin_hipblaslt_heuristic hipblasLtMatmulHeuristicResult_t;

template <typename... Args>
constexpr bool isa_standin_hipblaslt_unavailable = false;

#define ISA_HIPBLASLT_FUNCTION(name)                                                                \
    template <typename... Args>                                                                     \
    int name(Args&&...) {                                                                           \
        static_assert(isa_standin_hipblaslt_unavailable<Args...>,                                   \
                      "hipBLASLt is NOT available offline: toolchain/include/standins/hipblaslt is " \
                      "an empty stand-in, so " #name " cannot be compiled here");                   \
        return 0;                                                                                   \
    }
ISA_HIPBLASLT_FUNCTION(hipblasLtCreate)
ISA_HIPBLASLT_FUNCTION(hipblasLtDestroy)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatmul)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatmulDescCreate)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatmulDescDestroy)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatmulDescSetAttribute)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatrixLayoutCreate)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatrixLayoutDestroy)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatrixLayoutSetAttribute)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatmulPreferenceCreate)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatmulPreferenceDestroy)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatmulPreferenceSetAttribute)
ISA_HIPBLASLT_FUNCTION(hipblasLtMatmulAlgoGetHeuristic)
#undef ISA_HIPBLASLT_FUNCTION
