// Declarations-only stand-in for <torch/types.h>, used by the offline gfx942 ISA report.
//
// load_inline prepends `#include <torch/types.h>` to every HIP source, and launchers take
// torch::Tensor. The installed CPU torch headers cannot be parsed as HIP here (they need
// rocThrust), and a device-only compile never generates host code, so host functions only
// need these declarations to type-check. Add a member here when a real launcher needs it.
// Streams are not here, as in torch: they come from ATen/hip/HIPContext.h, the header hipify
// makes of ATen/cuda/CUDAContext.h.
#pragma once

#include <hip/hip_runtime.h>

#include <cstdint>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace c10 {

enum class ScalarType : int8_t { Byte, Char, Short, Int, Long, Half, Float, Double, BFloat16, Float8_e4m3fnuz, Float8_e5m2fnuz };
enum class DeviceType : int8_t { CPU, CUDA, HIP };

struct Device {
    DeviceType type() const;
    int index() const;
    bool is_cuda() const;
};

using IntArrayRef = std::vector<int64_t>;

struct TensorOptions {
    TensorOptions dtype(ScalarType) const;
    TensorOptions device(Device) const;
    ScalarType dtype() const;
};

}  // namespace c10

namespace at {

using c10::Device;
using c10::IntArrayRef;
using c10::ScalarType;
using c10::TensorOptions;

class Tensor {
  public:
    int64_t size(int64_t dim) const;
    int64_t stride(int64_t dim) const;
    std::vector<int64_t> sizes() const;
    std::vector<int64_t> strides() const;
    int64_t numel() const;
    int64_t dim() const;
    int64_t element_size() const;
    bool is_contiguous() const;
    bool is_cuda() const;
    bool defined() const;
    ScalarType scalar_type() const;
    ScalarType dtype() const;
    Device device() const;
    TensorOptions options() const;
    void* data_ptr() const;
    template <typename T>
    T* data_ptr() const;
    template <typename T>
    T* mutable_data_ptr() const;
    const void* const_data_ptr() const;
    Tensor contiguous() const;
    Tensor view(IntArrayRef sizes) const;
    Tensor t() const;
    Tensor transpose(int64_t dim0, int64_t dim1) const;
    Tensor to(ScalarType dtype) const;
    Tensor& zero_();
    Tensor& copy_(const Tensor& src);
};

Tensor empty(IntArrayRef sizes, TensorOptions options = {});
Tensor zeros(IntArrayRef sizes, TensorOptions options = {});
Tensor empty_like(const Tensor& like);
Tensor zeros_like(const Tensor& like);

namespace detail {
// Swallows TORCH_CHECK's message arguments, whatever they are.
template <typename... Args>
std::string check_message(const Args&...);
}  // namespace detail

}  // namespace at

namespace torch {
using at::empty;
using at::empty_like;
using at::Tensor;
using at::zeros;
using at::zeros_like;
using c10::Device;
using c10::IntArrayRef;
using c10::ScalarType;
using c10::TensorOptions;
using Dtype = c10::ScalarType;

constexpr ScalarType kUInt8 = ScalarType::Byte;
constexpr ScalarType kInt32 = ScalarType::Int;
constexpr ScalarType kInt64 = ScalarType::Long;
constexpr ScalarType kFloat16 = ScalarType::Half;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kFloat8_e4m3fnuz = ScalarType::Float8_e4m3fnuz;
constexpr ScalarType kFloat8_e5m2fnuz = ScalarType::Float8_e5m2fnuz;
}  // namespace torch

#define TORCH_CHECK(cond, ...) ((void)(cond), (void)::at::detail::check_message(__VA_ARGS__))
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
