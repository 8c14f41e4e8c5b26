// Dense MFMA of gfx942 (fp8/bf8 16x16x32 and 32x32x16; bf16/f16 16x16x16 and 32x32x8).
// Semantics: the project's gfx942 semantics notes (shared spec, gfx942_semantics.md) §1.2, §1.5, §1.6.
//
// NOTE: operand layout (calculator tables, spec/mfma/): with M = 16 or 32 and KPL elements
// per lane (8 for fp8/bf8, 4 for bf16/f16), lane l holds
//     A[l % M][KPL*(l/M) + e]   and   B[KPL*(l/M) + e][l % M]     for e = 0..KPL-1
// and the accumulator element g of lane l is D[i][l % M] with
//     i = 4*(l/16) + g                       (16x16, g = 0..3)
//     i = 8*(g/4) + 4*(l/32) + g%4           (32x32, g = 0..15)
//
// Numerics: every product of two fp8/bf16 inputs is exact in double; the sum is accumulated
// in double and rounded once to f32 after adding C (the "exact then round" model; hardware's
// internal order is undocumented). MFMA ignores EXEC, so a call with inactive lanes is
// reported as a bug.
#pragma once
#include <cstdint>
#include <cstring>

#include "emu/cross_lane.h"
#include "emu/numeric.h"

namespace emu {

typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));

enum class MfmaInput { Fp8, Bf8, Bf16, F16, F32 };

constexpr int mfma_elems_per_lane(MfmaInput t) {
  return (t == MfmaInput::Fp8 || t == MfmaInput::Bf8) ? 8 : t == MfmaInput::F32 ? 1 : 4;
}

inline float mfma_decode(MfmaInput t, uint64_t bits, int e) {
  switch (t) {
    case MfmaInput::Fp8: return fp8_to_f32(uint8_t(bits >> (8 * e)));
    case MfmaInput::Bf8: return bf8_to_f32(uint8_t(bits >> (8 * e)));
    case MfmaInput::Bf16: return bf16_bits_to_f32(uint16_t(bits >> (16 * e)));
    case MfmaInput::F16: return float(bit_cast<_Float16>(uint16_t(bits >> (16 * e))));
    case MfmaInput::F32: return bit_cast<float>(uint32_t(bits));
  }
  return 0;
}

constexpr const char* mfma_name(int m, MfmaInput a, MfmaInput b) {
  if (a == MfmaInput::Bf16) return m == 16 ? "mfma_f32_16x16x16bf16_1k" : "mfma_f32_32x32x8bf16_1k";
  if (a == MfmaInput::F16) return m == 16 ? "mfma_f32_16x16x16f16" : "mfma_f32_32x32x8f16";
  if (a == MfmaInput::F32) return m == 16 ? "mfma_f32_16x16x4f32" : "mfma_f32_32x32x2f32";
  if (m == 16) {
    if (a == MfmaInput::Fp8) return b == MfmaInput::Fp8 ? "mfma_f32_16x16x32_fp8_fp8" : "mfma_f32_16x16x32_fp8_bf8";
    return b == MfmaInput::Fp8 ? "mfma_f32_16x16x32_bf8_fp8" : "mfma_f32_16x16x32_bf8_bf8";
  }
  if (a == MfmaInput::Fp8) return b == MfmaInput::Fp8 ? "mfma_f32_32x32x16_fp8_fp8" : "mfma_f32_32x32x16_fp8_bf8";
  return b == MfmaInput::Fp8 ? "mfma_f32_32x32x16_bf8_fp8" : "mfma_f32_32x32x16_bf8_bf8";
}

// Row of D held by accumulator element g of lane l.
template <int M>
constexpr int mfma_out_row(int l, int g) {
  return M == 16 ? 4 * (l / 16) + g : 8 * (g / 4) + 4 * (l / 32) + g % 4;
}

template <int M, MfmaInput TA, MfmaInput TB>
struct MfmaOp {
  static constexpr const char* name = mfma_name(M, TA, TB);
  static constexpr int kPerLane = mfma_elems_per_lane(TA);
  static constexpr int K = kPerLane * (64 / M);
  static constexpr int G = M * M / 64;  // accumulator elements per lane
  typedef float Acc __attribute__((ext_vector_type(G)));
  struct In {
    uint64_t a, b;
    Acc c;
    int cbsz, abid, blgp;
  };
  using Out = Acc;

  static void compute(const In* in, Out* out, uint64_t exec, Wave& w) {
    if (exec != ~uint64_t(0))
      throw Error(std::string(name) + " executed with lanes " + lane_ranges(~exec) +
                  " inactive (divergent control flow, ended lanes or a partial wave); MFMA reads all 64 lanes");
    for (int l = 0; l < 64; ++l)
      if (in[l].cbsz | in[l].abid | in[l].blgp)
        throw Error(std::string(name) + ": cbsz/abid/blgp must be 0 (not supported by this single-block MFMA)");
    (void)w;
    double a[M][K], b[K][M], acc[M][M] = {};
    for (int l = 0; l < 64; ++l)
      for (int e = 0; e < kPerLane; ++e) {
        int k = kPerLane * (l / M) + e;
        a[l % M][k] = mfma_decode(TA, in[l].a, e);
        b[k][l % M] = mfma_decode(TB, in[l].b, e);
      }
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k) {
        double aik = a[i][k];
        for (int j = 0; j < M; ++j) acc[i][j] += aik * b[k][j];
      }
    for (int l = 0; l < 64; ++l)
      for (int g = 0; g < G; ++g) out[l][g] = float(double(in[l].c[g]) + acc[mfma_out_row<M>(l, g)][l % M]);
  }

  template <class CVec>
  static CVec run(uint64_t a, uint64_t b, CVec c, int cbsz, int abid, int blgp, const Loc& site) {
    In in;
    in.a = a;
    in.b = b;
    std::memcpy(&in.c, &c, sizeof(Acc));
    in.cbsz = cbsz;
    in.abid = abid;
    in.blgp = blgp;
    Acc d = cross_lane<MfmaOp>(in, site);
    CVec r;
    std::memcpy(&r, &d, sizeof(Acc));
    return r;
  }
};

}  // namespace emu
