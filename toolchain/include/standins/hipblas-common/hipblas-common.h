// <hipblas-common/hipblas-common.h>: the enums hipBLAS and hipBLASLt share, with the names and
// values of ROCm 6.3's header (hipBLAS-common), written for this project. Plain C declarations,
// so they are real here: only hipBLASLt's functions are a stand-in (<hipblaslt/hipblaslt.h>).
#pragma once

typedef enum {
    HIPBLAS_STATUS_SUCCESS = 0,
    HIPBLAS_STATUS_NOT_INITIALIZED = 1,
    HIPBLAS_STATUS_ALLOC_FAILED = 2,
    HIPBLAS_STATUS_INVALID_VALUE = 3,
    HIPBLAS_STATUS_MAPPING_ERROR = 4,
    HIPBLAS_STATUS_EXECUTION_FAILED = 5,
    HIPBLAS_STATUS_INTERNAL_ERROR = 6,
    HIPBLAS_STATUS_NOT_SUPPORTED = 7,
    HIPBLAS_STATUS_ARCH_MISMATCH = 8,
    HIPBLAS_STATUS_HANDLE_IS_NULLPTR = 9,
    HIPBLAS_STATUS_INVALID_ENUM = 10,
    HIPBLAS_STATUS_UNKNOWN = 11,
} hipblasStatus_t;

#ifndef HIPBLAS_OPERATION_DECLARED
#define HIPBLAS_OPERATION_DECLARED
typedef enum { HIPBLAS_OP_N = 111, HIPBLAS_OP_T = 112, HIPBLAS_OP_C = 113 } hipblasOperation_t;
#endif

typedef enum {
    HIPBLAS_COMPUTE_16F = 0,
    HIPBLAS_COMPUTE_16F_PEDANTIC = 1,
    HIPBLAS_COMPUTE_32F = 2,
    HIPBLAS_COMPUTE_32F_PEDANTIC = 3,
    HIPBLAS_COMPUTE_32F_FAST_16F = 4,
    HIPBLAS_COMPUTE_32F_FAST_16BF = 5,
    HIPBLAS_COMPUTE_32F_FAST_TF32 = 6,
    HIPBLAS_COMPUTE_64F = 7,
    HIPBLAS_COMPUTE_64F_PEDANTIC = 8,
    HIPBLAS_COMPUTE_32I = 9,
    HIPBLAS_COMPUTE_32I_PEDANTIC = 10,
} hipblasComputeType_t;
