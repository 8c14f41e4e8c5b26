// Static and dynamic LDS: each workgroup's 64 KiB, dynamic LDS at its start, every `__shared__`
// declaration a slot placed after it on first use in the workgroup.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>

#include "emu/workgroup.h"

namespace emu {

inline std::atomic<unsigned> g_next_lds_slot{0};
// NOTE: LDS is not initialised at kernel start; 0xFF bytes read as NaN in f32/bf16/fp8 so
// reads before writes show up in results.
constexpr unsigned char kLdsPoison = 0xFF;

inline void* lds_slot(unsigned slot, size_t size, size_t align, const char* type_name) {
  Group& g = *current_lane().group;
  if (slot >= g.slot_offset.size()) {
    g.slot_offset.resize(slot + 1);
    g.slot_generation.resize(slot + 1, ~0u);
  }
  if (g.slot_generation[slot] != g.generation) {
    size_t base = g.launch->dynamic_lds + g.lds_static_used;
    size_t offset = (base + align - 1) / align * align;
    if (offset + size > kLdsBytes)
      lane_fail("LDS use above 64 KiB: __shared__ " + std::string(type_name) + " needs " +
                std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                " (dynamic LDS " + std::to_string(g.launch->dynamic_lds) + " bytes)");
    std::memset(g.lds.get() + offset, kLdsPoison, size);
#ifdef EMU_ASAN
    ASAN_UNPOISON_MEMORY_REGION(g.lds.get() + offset, size);
#endif
    g.lds_static_used = offset + size - g.launch->dynamic_lds;
    g.slot_offset[slot] = offset;
    g.slot_generation[slot] = g.generation;
  }
  return g.lds.get() + g.slot_offset[slot];
}

// `__shared__ T x[N];` inside a function is rewritten to `auto& x = lds_var<T[N]>([]{});`
// (the lambda makes one tag type per declaration and template instantiation).
template <class T, class Tag>
T& lds_var(Tag) {
  static const unsigned slot = g_next_lds_slot++;
  constexpr size_t align = alignof(T) > 16 ? alignof(T) : 16;
  return *static_cast<T*>(lds_slot(slot, sizeof(T), align, __PRETTY_FUNCTION__));
}

// A `__shared__` array that is only ever stored to (engines/source/preprocess.py decides): gfx942's compile
// deletes it, so it takes no LDS; stores go to per-thread scratch memory that nothing reads.
template <class T, class Tag>
T& unused_lds_var(Tag) {
  struct alignas(alignof(T) > 16 ? alignof(T) : 16) Storage {
    unsigned char bytes[sizeof(T)];
  };
  thread_local std::unique_ptr<Storage> storage(new Storage);
  return *reinterpret_cast<T*>(storage->bytes);
}

template <class T>
T* dynamic_lds() {
  return reinterpret_cast<T*>(current_lane().group->lds.get());
}

}  // namespace emu
