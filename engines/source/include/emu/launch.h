// Launching a kernel: `kernel<<<grid, block, shmem, stream>>>(args)` becomes a Launcher call,
// launch_kernel checks the configuration against gfx942's limits and fills a Launch, and
// run_launch spreads its workgroups over worker threads, under the fault handler and the watchdog.
#pragma once
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "emu/faults.h"
#include "emu/guards.h"
#include "emu/scheduler.h"
#include "emu/watchdog.h"
#include "emu/workgroup.h"

namespace emu {

// Spreads the workgroups over worker threads, under the fault handler and the watchdog;
// rethrows the first failure. Compiled once per machine into the runtime library
// (engines/source/runtime.cpp), with the scheduler, the fault handler and the watchdog it runs.
void run_launch(const Launch& L);

template <class... P>
struct KernelCall {
  void (*fn)(P...);
  std::tuple<P...> args;
  static void invoke(const Launch& L) {
    auto* call = static_cast<const KernelCall*>(L.params);
    std::apply(call->fn, call->args);  // each work-item gets its own copy of the arguments
  }
};

template <class T>
uintptr_t pointer_value(const T& value) {
  if constexpr (std::is_pointer_v<T>) return reinterpret_cast<uintptr_t>(value);
  else return 0;
}

template <class... P, class... A>
void launch_kernel(const Loc& site, const char* name, const char* param_names, void (*kernel)(P...), dim3_t grid,
                   dim3_t block, size_t shmem, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel launched with the wrong number of arguments");
  unsigned group_size = block.x * block.y * block.z;
  std::string where = std::string(site.file_name()) + ":" + std::to_string(site.line());
  if (group_size > kMaxGroupSize)
    throw Error("workgroup of " + std::to_string(group_size) + " work-items above the gfx942 limit of 1024 (launch at " +
                where + ")");
  if (shmem > kLdsBytes)
    throw Error("dynamic LDS of " + std::to_string(shmem) + " bytes above 64 KiB (launch at " + where + ")");
  KernelCall<P...> call{kernel, std::tuple<P...>(static_cast<P>(args)...)};
  Launch L;
  L.grid = grid;
  L.block = block;
  L.dynamic_lds = shmem;
  L.params = &call;
  L.invoke = &KernelCall<P...>::invoke;
  L.kernel = reinterpret_cast<const void*>(kernel);
  L.kernel_name = name;
  L.site = site;
  L.group_size = group_size;
  L.waves_per_group = (group_size + 63) / 64;
  L.schedule = env_unsigned("EMU_SCHEDULE", 0);
  L.param_names = param_names;
  std::apply([&](const auto&... a) { (L.pointers.push_back(pointer_value(a)), ...); }, call.args);
  L.allow_exited_barrier = env_unsigned("EMU_ALLOW_EXITED_BARRIER", 0) != 0;
  run_launch(L);
}

// `kernel<<<grid, block, shmem, stream>>>(args)` is rewritten to
// `::emu::Launcher(grid, block, shmem, stream)(kernel, args)`.
struct Launcher {
  dim3_t grid, block;
  size_t shmem;
  Loc site;
  const char* name = "kernel";
  const char* param_names = nullptr;
  template <class G, class B, class S = size_t, class St = void*>
  Launcher(G g, B b, S s = 0, St = nullptr, Loc here = Loc::current())
      : grid(to_dim(g)), block(to_dim(b)), shmem(size_t(s)), site(here) {}
  Launcher& named(const char* kernel_name, const char* parameters = nullptr) {
    name = kernel_name;
    param_names = parameters;
    return *this;
  }
  template <class K, class... A>
  void operator()(K kernel, A&&... args) const {
    launch_kernel(site, name, param_names, kernel, grid, block, shmem, std::forward<A>(args)...);
  }
  static dim3_t to_dim(dim3_t d) { return d; }
  template <class I>
  static dim3_t to_dim(I n) requires std::is_integral_v<I> { return dim3_t(unsigned(n)); }
};

}  // namespace emu
