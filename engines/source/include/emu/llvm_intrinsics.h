// LLVM intrinsics that HIP code declares by name (`__asm("llvm.amdgcn....")` labels, CK style).
// engines/source/asm_rewrite.py turns each such declaration into a definition calling one of these.
// The data width comes from the intrinsic's type suffix (v4i32: 16 bytes); where the name has
// none, from the declared return or data type.
#pragma once
#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>

#include "emu/amdgcn.h"
#include "emu/engine.h"

namespace emu {

// Inline assembly reached at run time (general asm is the ISA engine's job).
[[noreturn]] inline void inline_asm_reached(const char* file, int line, const char* text, const char* mnemonic) {
  lane_fail(std::string("inline assembly \"") + text + "\" at " + file + ":" + std::to_string(line) +
            " was executed; the source engine runs only scheduling-only asm (s_waitcnt, s_nop, s_setprio, "
            "s_barrier, ...), not '" + mnemonic + "' (run it with --engine isa, or use a __builtin_amdgcn_* builtin)");
}

namespace llvm {

[[noreturn]] inline void not_emulated(const char* label, const char* file, int line) {
  lane_fail(std::string(label) + " (declared at " + file + ":" + std::to_string(line) +
            ") was called, but the emulator does not implement this LLVM intrinsic");
}

// The 128-bit resource, whatever type the declaration gives it (int32x4_t, __amdgpu_buffer_rsrc_t).
template <class R>
__amdgpu_buffer_rsrc_t as_rsrc(const R& r) {
  static_assert(sizeof(R) == sizeof(__amdgpu_buffer_rsrc_t), "a buffer resource must be 128 bits");
  __amdgpu_buffer_rsrc_t out;
  std::memcpy(&out, &r, sizeof(out));
  return out;
}

template <unsigned kBytes, class T>
T load_bytes(const __amdgpu_buffer_rsrc_t& r, int voffset, int soffset) {
  constexpr unsigned n = kBytes ? kBytes : unsigned(sizeof(T));
  static_assert(n <= 16 && n <= sizeof(T), "buffer load wider than its result type");
  return buffer_load<T, n>(r, voffset, soffset);
}

// A load whose width is known only once its result type is: converts to whatever the
// declared function returns.
template <unsigned kBytes>
struct PendingLoad {
  __amdgpu_buffer_rsrc_t rsrc;
  int voffset, soffset;
  template <class T>
  operator T() const { return load_bytes<kBytes, T>(rsrc, voffset, soffset); }
};

// Structured access: record vindex of `stride` bytes. [unsure] range rule with stride != 0:
// vindex < num_records and offset within the record; stride 0 is the raw rule.
inline bool struct_record(__amdgpu_buffer_rsrc_t& r, int vindex) {
  unsigned stride = (r.dword[1] >> 16) & 0x3FFF;
  if (stride == 0) return true;
  if (unsigned(vindex) >= r.dword[2]) return false;
  uintptr_t base = reinterpret_cast<uintptr_t>(buffer_base(r)) + uintptr_t(unsigned(vindex)) * stride;
  r.dword[0] = uint32_t(base);
  r.dword[1] = (r.dword[1] & 0xFFFF0000u) | uint32_t((base >> 32) & 0xFFFF);
  r.dword[2] = stride;
  return true;
}

template <unsigned kBytes, class R>
PendingLoad<kBytes> raw_buffer_load(const R& rsrc, int voffset, int soffset, int = 0) {
  return {as_rsrc(rsrc), voffset, soffset};
}
template <unsigned kBytes, class T, class R>
void raw_buffer_store(const T& data, const R& rsrc, int voffset, int soffset, int = 0) {
  constexpr unsigned n = kBytes ? kBytes : unsigned(sizeof(T));
  static_assert(n <= 16 && n <= sizeof(T), "buffer store wider than its data type");
  buffer_store<T, n>(data, as_rsrc(rsrc), voffset, soffset);
}
template <unsigned kBytes, class R>
PendingLoad<kBytes> struct_buffer_load(const R& rsrc, int vindex, int voffset, int soffset, int = 0) {
  auto r = as_rsrc(rsrc);
  if (!struct_record(r, vindex)) r.dword[2] = 0;  // every element out of range: reads 0
  return {r, voffset, soffset};
}
template <unsigned kBytes, class T, class R>
void struct_buffer_store(const T& data, const R& rsrc, int vindex, int voffset, int soffset, int = 0) {
  auto r = as_rsrc(rsrc);
  if (struct_record(r, vindex)) raw_buffer_store<kBytes>(data, r, voffset, soffset);
}

// Buffer -> LDS (buffer_load_dword ... lds): each lane's `size` bytes from the buffer land at
// lds + offset + 4*lane (the rule of global_load_lds, §4.3); out of range reads 0.
template <class R, class L>
void raw_buffer_load_lds(const R& rsrc, L lds, int size, int voffset, int soffset, int offset, int = 0,
                         Loc site = Loc::current()) {
  static const unsigned char zeros[4] = {};
  auto r = as_rsrc(rsrc);
  uint64_t byte_offset = uint64_t(uint32_t(voffset)) + uint64_t(uint32_t(soffset)) + uint64_t(uint32_t(offset));
  const unsigned char* src = byte_offset + unsigned(size) <= r.dword[2] ? buffer_base(r) + byte_offset : zeros;
  auto* base = reinterpret_cast<unsigned char*>((uintptr_t)lds) + offset;
  cross_lane<GlobalLoadLdsOp>({src, base, unsigned(size), 0}, site);
}
template <class R, class L>
void struct_buffer_load_lds(const R& rsrc, L lds, int size, int vindex, int voffset, int soffset, int offset,
                            int aux = 0, Loc site = Loc::current()) {
  auto r = as_rsrc(rsrc);
  if (!struct_record(r, vindex)) r.dword[2] = 0;
  raw_buffer_load_lds(r, lds, size, voffset, soffset, offset, aux, site);
}

// Buffer atomics return the old value; out of range: 0 and nothing written (all-or-nothing).
template <class T, class R>
T raw_buffer_atomic(const char* op, T data, const R& rsrc, int voffset, int soffset, int = 0) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "buffer atomics on 32- or 64-bit data");
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  auto r = as_rsrc(rsrc);
  uint64_t byte_offset = uint64_t(uint32_t(voffset)) + uint64_t(uint32_t(soffset));
  if (byte_offset + sizeof(T) > r.dword[2]) return T{};
  std::atomic_ref<Bits> cell(*reinterpret_cast<Bits*>(buffer_base(r) + byte_offset));
  std::string name(op);
  Bits old_bits = cell.load();
  for (;;) {
    T old, next;
    std::memcpy(&old, &old_bits, sizeof(T));
    if (name == "add" || name == "fadd") next = old + data;
    else if (name == "sub") next = old - data;
    else if (name == "swap") next = data;
    else if constexpr (std::is_arithmetic_v<T>) {
      if (name == "max" || name == "smax" || name == "umax" || name == "fmax") next = old < data ? data : old;
      else if (name == "min" || name == "smin" || name == "umin" || name == "fmin") next = data < old ? data : old;
      else not_emulated(op, "buffer atomic", 0);
    } else {
      not_emulated(op, "buffer atomic", 0);
    }
    Bits next_bits;
    std::memcpy(&next_bits, &next, sizeof(T));
    if (cell.compare_exchange_weak(old_bits, next_bits)) return old;
  }
}

}  // namespace llvm
}  // namespace emu
