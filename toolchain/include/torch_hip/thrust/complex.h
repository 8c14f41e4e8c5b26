// Declarations-only stand-in for rocThrust's <thrust/complex.h>; see ../README.md.
// c10/util/complex.h converts to and from thrust::complex and forwards its math to thrust::
// when compiled as HIP; those templates are never instantiated by a GEMM submission.
#pragma once

namespace thrust {

template <typename T>
struct complex {
    __host__ __device__ complex(const T& re = T(), const T& im = T()) : re_(re), im_(im) {}
    template <typename U>
    __host__ __device__ complex(const complex<U>& other) : re_(other.real()), im_(other.imag()) {}
    __host__ __device__ T real() const { return re_; }
    __host__ __device__ T imag() const { return im_; }

  private:
    T re_, im_;
};

#define ISA_THRUST_UNARY(name) \
    template <typename T>      \
    __host__ __device__ complex<T> name(const complex<T>&);
ISA_THRUST_UNARY(exp) ISA_THRUST_UNARY(log) ISA_THRUST_UNARY(log10) ISA_THRUST_UNARY(sqrt)
ISA_THRUST_UNARY(sin) ISA_THRUST_UNARY(cos) ISA_THRUST_UNARY(tan) ISA_THRUST_UNARY(asin)
ISA_THRUST_UNARY(acos) ISA_THRUST_UNARY(atan) ISA_THRUST_UNARY(sinh) ISA_THRUST_UNARY(cosh)
ISA_THRUST_UNARY(tanh) ISA_THRUST_UNARY(asinh) ISA_THRUST_UNARY(acosh) ISA_THRUST_UNARY(atanh)
ISA_THRUST_UNARY(proj) ISA_THRUST_UNARY(conj)
#undef ISA_THRUST_UNARY

template <typename T>
__host__ __device__ T abs(const complex<T>&);
template <typename T, typename U>
__host__ __device__ complex<T> pow(const complex<T>&, const complex<U>&);
template <typename T, typename U>
__host__ __device__ complex<T> pow(const complex<T>&, const U&);
template <typename T, typename U>
__host__ __device__ complex<U> pow(const T&, const complex<U>&);
template <typename T>
__host__ __device__ complex<T> polar(const T& magnitude, const T& angle = T());

}  // namespace thrust
