// Matrix instructions (VOP3P-MAI): every MFMA and SMFMAC gfx942 has, with AMD's register layouts
// (the matrix instruction calculator, tables in tests/data/spec/mfma) and the CBSZ/ABID/BLGP
// modifiers. Each instruction is D = C + A*B over `blocks` independent m x m blocks.
//
//   A, B (dense): kpl elements of one row of A (column of B) per lane and register group
//       lane = m * block + m * blocks * (k / kpl) + i,   element k % kpl of the lane's operand
//   C, D: 32-bit results in groups of 4 rows (64-bit: 1 row) n lanes wide, blocks side by side
//   SMFMAC: A holds the 2 kept values of each group of 4 k positions, the index VGPR their places
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <sstream>
#include <vector>

#include "mfma.h"
#include "numeric.h"

namespace isa::detail {
namespace {

enum Elem : uint8_t { E_NONE, E_FP8, E_BF8, E_F16, E_BF16, E_F32, E_XF32, E_I8, E_F64 };
enum Acc : uint8_t { ACC_F32, ACC_I32, ACC_F64 };

int bits_of(Elem e) {
  switch (e) {
    case E_FP8: case E_BF8: case E_I8: return 8;
    case E_F16: case E_BF16: return 16;
    case E_F64: return 64;
    default: return 32;
  }
}

Elem elem_named(const std::string& s) {
  static const char* names[] = {"", "fp8", "bf8", "f16", "bf16", "f32", "xf32", "i8", "f64"};
  for (int e = 1; e < int(std::size(names)); ++e)
    if (s == names[e]) return Elem(e);
  return E_NONE;
}

struct MatrixShape {
  std::string name;
  int m = 0, k = 0, blocks = 1;  // per block: D (m x m) = C + A (m x k) * B (k x m)
  Elem a = E_NONE, b = E_NONE;
  Acc acc = ACC_F32;
  bool sparse = false;
  int kpl = 0;                   // k positions of one block per lane (SMFMAC: dense positions)
  int d_values = 0;              // results per lane (a 64-bit result takes 2 dwords)
  std::vector<uint16_t> d_element;  // register (64-bit: pair) * 64 + lane -> (block * m + i) * m + j
};

// The C/D layout (calculator): 32-bit results go in multi-rows 4 registers tall and n lanes
// wide, 64-bit ones in single rows; a register holds as many multi-rows or blocks as fit.
int d_slot_of(const MatrixShape& s, int block, int i, int j) {
  const int n = s.m, height = s.acc == ACC_F64 ? 1 : 4;
  const int rows_per_register = 64 / n;
  const int blocks_per_register = (64 + n * s.m / height - 1) / (n * s.m / height);
  const int reg = block * (s.m * n / 64) + i / (height * rows_per_register) * height + i % height;
  const int lane = block % blocks_per_register * n + i / height % rows_per_register * blocks_per_register * n + j;
  return reg * 64 + lane;
}

// gfx942's forms: a dense operand is one or two dwords per lane, a sparse A two dwords of kept values.
bool is_gfx942_form(const MatrixShape& s) {
  const int bits = bits_of(s.a);
  if (s.sparse) return s.blocks == 1 && s.kpl * bits == 128 && s.acc != ACC_F64;
  return s.kpl >= 1 && (s.kpl * bits == 32 || s.kpl * bits == 64) && s.m * s.blocks <= 64;
}

// "v_mfma_f32_32x32x1_2b_f32" -> m 32, k 1, 2 blocks, A and B f32, f32 results.
bool parse_shape(const std::string& mnemonic, MatrixShape& s) {
  std::vector<std::string> parts;
  std::stringstream in(mnemonic);
  for (std::string part; std::getline(in, part, '_');) parts.push_back(part);
  if (parts.size() < 5 || parts[0] != "v" || (parts[1] != "mfma" && parts[1] != "smfmac")) return false;
  s.name = mnemonic;
  s.sparse = parts[1] == "smfmac";
  s.acc = parts[2] == "f32" ? ACC_F32 : parts[2] == "i32" ? ACC_I32 : parts[2] == "f64" ? ACC_F64 : Acc(255);
  int n = 0;
  if (s.acc == Acc(255) || sscanf(parts[3].c_str(), "%dx%dx%d", &s.m, &n, &s.k) != 3 || n != s.m) return false;
  size_t next = 4;
  if (parts[next].back() == 'b' && isdigit(parts[next][0])) s.blocks = atoi(parts[next++].c_str());
  if (next >= parts.size() || parts.size() - next > 2) return false;
  s.a = elem_named(parts[next]);
  s.b = next + 1 < parts.size() ? elem_named(parts[next + 1]) : s.a;
  if (s.a == E_NONE || s.b == E_NONE || s.m <= 0 || 64 % s.m != 0 || 64 % (s.m * s.blocks) != 0) return false;
  s.kpl = s.k * s.m * s.blocks / 64;
  if (!is_gfx942_form(s)) return false;
  s.d_values = s.m * s.m * s.blocks / 64;
  s.d_element.resize(size_t(s.blocks) * s.m * s.m);
  for (int b = 0; b < s.blocks; ++b)
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.m; ++j) s.d_element[d_slot_of(s, b, i, j)] = uint16_t((b * s.m + i) * s.m + j);
  return true;
}

// Shapes are registered at decode and never move; Inst::sub indexes them.
struct ShapeRegistry {
  std::mutex mutex;
  std::array<MatrixShape, 128> shapes;
  int count = 0;
};
ShapeRegistry& registry() {
  static ShapeRegistry r;
  return r;
}
const MatrixShape& shape_of(const Inst& in) { return registry().shapes[in.sub]; }

int dwords_of(Elem e, int elements) { return std::max(1, elements * bits_of(e) / 32); }

// ---- operands ---------------------------------------------------------------------------------
// The dwords of one lane of an operand (a VGPR/AGPR range, or a scalar value for every lane).
struct LaneWords {
  uint32_t w[4];
};
LaneWords lane_words(const Wave& wave, uint16_t code, int dwords, int lane, uint64_t scalar) {
  LaneWords out{{uint32_t(scalar), uint32_t(scalar >> 32), 0, 0}};
  if (code >= 256)
    for (int d = 0; d < dwords; ++d) out.w[d] = wave.v[code - 256 + d][lane];
  return out;
}

// XF32: the f32 input with its mantissa rounded to 10 bits (nearest even), as the matrix core reads it.
double xf32_value(uint32_t bits) {
  if ((bits & 0x7f800000u) == 0x7f800000u) return as_f(bits);
  const uint32_t rounded = (bits + 0xfffu + ((bits >> 13) & 1)) & ~0x1fffu;
  return as_f(rounded);
}

// Element e of a lane's words as a double (exact for every input type).
double element(Elem t, const LaneWords& words, int e) {
  const int bits = bits_of(t);
  const uint32_t word = words.w[e * bits / 32], raw = word >> (e * bits % 32);
  switch (t) {
    case E_FP8: return fp8_tables().fp8d[raw & 0xff];
    case E_BF8: return fp8_tables().bf8d[raw & 0xff];
    case E_F16: return f16_to_f32(uint16_t(raw));
    case E_BF16: return bf16_to_f32(uint16_t(raw));
    case E_I8: return double(int8_t(raw));
    case E_XF32: return xf32_value(word);
    default: return as_f(word);
  }
}

// Decodes one operand's elements; 8-bit floats by table lookup (the hot path).
struct Decoder {
  Elem type;
  const double* table;  // fp8/bf8 values by code, else null
  explicit Decoder(Elem t)
      : type(t), table(t == E_FP8 ? fp8_tables().fp8d : t == E_BF8 ? fp8_tables().bf8d : nullptr) {}
  // The first n elements of a lane to out[e * stride].
  void lane(const LaneWords& words, int n, double* out, int stride) const {
    if (table) {
      for (int e = 0; e < n; ++e) out[e * stride] = table[(words.w[e / 4] >> (8 * (e % 4))) & 0xff];
      return;
    }
    for (int e = 0; e < n; ++e) out[e * stride] = element(type, words, e);
  }
};

// CBSZ/ABID: block b takes A from block ABID of its group of 2^CBSZ blocks.
int a_source_block(const Inst& in, int block) { return (block >> in.cbsz << in.cbsz) + in.abid; }

// BLGP: the lane whose B data lane l uses (0 identity, 1/2 a half of the wave to both halves,
// 3 rotate by 16 lanes, 4..7 one quarter of the wave to every quarter).
int b_source_lane(const Inst& in, int lane) {
  switch (in.blgp) {
    case 1: return lane % 32;
    case 2: return lane % 32 + 32;
    case 3: return (lane + 16) % 64;
    case 4: case 5: case 6: case 7: return lane % 16 + 16 * (in.blgp - 4);
    default: return lane;
  }
}

// ---- modifiers --------------------------------------------------------------------------------
void check_modifiers(const Inst& in, const MatrixShape& s, const Launch& L) {
  const bool multi_block = s.blocks > 1;
  const bool blgp_allowed = multi_block || s.acc == ACC_F64 || (s.a == E_F32 && !s.sparse);
  if (in.blgp && !blgp_allowed) fault(L, in, "BLGP is not defined for " + s.name);
  if (s.sparse) {
    const int sets = 32 / s.kpl;  // an index set holds 4 bits per group of 4 positions: kpl bits
    if (in.cbsz == 0 && in.abid >= sets) fault(L, in, "ABID selects an index set " + s.name + " lacks");
    return;
  }
  if (!multi_block && (in.cbsz || in.abid)) fault(L, in, "CBSZ/ABID are not defined for " + s.name);
  if ((1 << in.cbsz) > s.blocks || in.abid >= (1 << in.cbsz))
    fault(L, in, "CBSZ/ABID name a broadcast " + s.name + " cannot do (undefined on gfx942)");
}

// ---- dense and sparse products ----------------------------------------------------------------
// D[r][j] = sum_k A[r][k] * B[k][j] in double, k ascending (M fixed: the j loop vectorises).
template <int M>
void products(const double (*a)[64], const double (*b)[32], int K, double (*acc)[32]) {
  for (int r = 0; r < M; ++r) {
    double row[M] = {};
    for (int k = 0; k < K; ++k) {
      const double aik = a[r][k];
      for (int j = 0; j < M; ++j) row[j] += aik * b[k][j];
    }
    memcpy(acc[r], row, sizeof row);
  }
}

// The same when every partial sum is exact: four independent chains per output over B^T.
template <int M>
void products_exact(const double (*a)[64], const double (*b)[32], int K, double (*acc)[32]) {
  double bt[M][64];
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < M; ++j) bt[j][k] = b[k][j];
  for (int r = 0; r < M; ++r)
    for (int j = 0; j < M; ++j) {
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int k = 0; k < K; k += 4) {
        s0 += a[r][k] * bt[j][k];
        s1 += a[r][k + 1] * bt[j][k + 1];
        s2 += a[r][k + 2] * bt[j][k + 2];
        s3 += a[r][k + 3] * bt[j][k + 3];
      }
      acc[r][j] = (s0 + s1) + (s2 + s3);
    }
}

struct Block {
  double a[32][64];  // A[i][k]
  double b[64][32];  // B[k][j]
};

// Dense A and B of one block from the lanes the layout (and CBSZ/ABID, BLGP) names.
void load_dense_block(const Inst& in, const MatrixShape& s, const Wave& w, const uint64_t scalar[3], int block,
                      Block& out) {
  const int groups = s.k / s.kpl, a_dwords = dwords_of(s.a, s.kpl), b_dwords = dwords_of(s.b, s.kpl);
  const int a_block = a_source_block(in, block);
  const Decoder decode_a(s.a), decode_b(s.b);
  for (int g = 0; g < groups; ++g)
    for (int i = 0; i < s.m; ++i) {
      const int lane = s.m * s.blocks * g + i;
      const LaneWords a = lane_words(w, in.src[0], a_dwords, lane + s.m * a_block, scalar[0]);
      const LaneWords b = lane_words(w, in.src[1], b_dwords, b_source_lane(in, lane + s.m * block), scalar[1]);
      decode_a.lane(a, s.kpl, &out.a[i][s.kpl * g], 1);
      decode_b.lane(b, s.kpl, &out.b[s.kpl * g][i], 32);
    }
}

// SMFMAC: index set ABID (CBSZ = 0) of each lane places the two kept A values of every group of
// four k positions: nibble q holds the place of the first (bits 1:0) and second (bits 3:2) value.
void load_sparse_block(const Inst& in, const MatrixShape& s, const Wave& w, const uint64_t scalar[3], Block& out) {
  const int groups = s.kpl / 4, set_bits = 4 * groups, set = in.cbsz == 0 ? in.abid : 0;
  const Decoder decode_b(s.b);
  for (int i = 0; i < s.m; ++i) memset(out.a[i], 0, sizeof(double) * s.k);
  for (int lane = 0; lane < 64; ++lane) {
    const int i = lane % s.m, k0 = s.kpl * (lane / s.m);
    const LaneWords a = lane_words(w, in.src[0], 2, lane, scalar[0]);
    const LaneWords b = lane_words(w, in.src[1], 4, lane, scalar[1]);
    const uint32_t index = lane_words(w, in.src[2], 1, lane, scalar[2]).w[0] >> (set_bits * set);
    for (int q = 0; q < groups; ++q) {
      const uint32_t places = index >> (4 * q);
      out.a[i][k0 + 4 * q + (places & 3)] += element(s.a, a, 2 * q);
      out.a[i][k0 + 4 * q + ((places >> 2) & 3)] += element(s.a, a, 2 * q + 1);
    }
    decode_b.lane(b, s.kpl, &out.b[k0][i], 32);
  }
}

void block_products(const MatrixShape& s, const Block& blk, double (*acc)[32]) {
  // NOTE: fp8 x fp8 products are multiples of 2^-20 below 2^16, so every partial sum of up to 64
  // of them is exact in double: any summation order gives the same bits.
  const bool exact = s.a == E_FP8 && s.b == E_FP8;
  switch (s.m) {
    case 4: return products<4>(blk.a, blk.b, s.k, acc);
    case 16: return exact ? products_exact<16>(blk.a, blk.b, s.k, acc) : products<16>(blk.a, blk.b, s.k, acc);
    default: return exact ? products_exact<32>(blk.a, blk.b, s.k, acc) : products<32>(blk.a, blk.b, s.k, acc);
  }
}

// f32 and i32 results: the exact (double) sum of products plus C, rounded once.
void execute_f32_or_i32(const Inst& in, const MatrixShape& s, Wave& w, const uint64_t scalar[3]) {
  Block blk;
  double sums[2048];  // by element (block * m + i) * m + j
  for (int block = 0; block < s.blocks; ++block) {
    if (s.sparse) load_sparse_block(in, s, w, scalar, blk);
    else load_dense_block(in, s, w, scalar, block, blk);
    double acc[32][32];
    block_products(s, blk, acc);
    for (int i = 0; i < s.m; ++i) memcpy(&sums[(block * s.m + i) * s.m], acc[i], sizeof(double) * s.m);
  }
  const uint16_t c_code = s.sparse ? in.dst : in.src[2];
  const uint64_t c_scalar = s.sparse ? 0 : scalar[2];
  uint32_t out[32][64];
  for (int r = 0; r < s.d_values; ++r)
    for (int lane = 0; lane < 64; ++lane) {
      const uint32_t c = c_code >= 256 ? w.v[c_code - 256 + r][lane] : uint32_t(c_scalar);
      const double sum = sums[s.d_element[r * 64 + lane]];
      out[r][lane] = s.acc == ACC_I32 ? uint32_t(c) + uint32_t(int64_t(sum)) : as_u(float(double(as_f(c)) + sum));
    }
  for (int r = 0; r < s.d_values; ++r) memcpy(w.v[in.dst - 256 + r], out[r], 256);
}

// F64: a chain of fused multiply-adds from C in k order; BLGP bits negate A, B and C.
void execute_f64(const Inst& in, const MatrixShape& s, Wave& w, const uint64_t scalar[3]) {
  const double sign_a = in.blgp & 1 ? -1.0 : 1.0, sign_b = in.blgp & 2 ? -1.0 : 1.0;
  const double sign_c = in.blgp & 4 ? -1.0 : 1.0;
  double a[4][16][4], b[4][4][16];  // [block][i][k], [block][k][j]
  for (int block = 0; block < s.blocks; ++block)
    for (int k = 0; k < s.k; ++k)
      for (int i = 0; i < s.m; ++i) {
        const int lane = s.m * block + s.m * s.blocks * k + i;
        const LaneWords aw = lane_words(w, in.src[0], 2, lane, scalar[0]);
        const LaneWords bw = lane_words(w, in.src[1], 2, lane, scalar[1]);
        a[block][i][k] = sign_a * as_d(aw.w[0] | uint64_t(aw.w[1]) << 32);
        b[block][k][i] = sign_b * as_d(bw.w[0] | uint64_t(bw.w[1]) << 32);
      }
  uint64_t out[4][64];
  for (int pair = 0; pair < s.d_values; ++pair)
    for (int lane = 0; lane < 64; ++lane) {
      const int e = s.d_element[pair * 64 + lane], block = e / (s.m * s.m), i = e / s.m % s.m, j = e % s.m;
      const uint16_t c_code = in.src[2] >= 256 ? uint16_t(in.src[2] + 2 * pair) : in.src[2];
      const LaneWords cw = lane_words(w, c_code, 2, lane, scalar[2]);
      double d = sign_c * as_d(cw.w[0] | uint64_t(cw.w[1]) << 32);
      for (int k = 0; k < s.k; ++k) d = std::fma(a[block][i][k], b[block][k][j], d);
      out[pair][lane] = as_u64(d);
    }
  for (int pair = 0; pair < s.d_values; ++pair)
    for (int lane = 0; lane < 64; ++lane) {
      w.v[in.dst - 256 + 2 * pair][lane] = uint32_t(out[pair][lane]);
      w.v[in.dst - 255 + 2 * pair][lane] = uint32_t(out[pair][lane] >> 32);
    }
}

}  // namespace

bool parse_matrix_op(const std::string& mnemonic, Inst& in) {
  MatrixShape s;
  if (!parse_shape(mnemonic, s)) return false;
  ShapeRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (int i = 0; i < r.count; ++i)
    if (r.shapes[i].name == mnemonic) {
      in.sub = uint8_t(i);
      return true;
    }
  if (r.count == int(r.shapes.size())) return false;
  in.sub = uint8_t(r.count);
  r.shapes[r.count++] = std::move(s);
  return true;
}

MatrixOperands matrix_operands(const Inst& in) {
  const MatrixShape& s = shape_of(in);
  const int d = s.d_values * (s.acc == ACC_F64 ? 2 : 1);
  if (s.sparse) return {2, 4, 1, d, false, true};
  return {dwords_of(s.a, s.kpl), dwords_of(s.b, s.kpl), d, d, s.acc == ACC_F64, false};
}

void execute_matrix_op(const Inst& in, Wave& w, const Launch& L, const uint64_t scalar[3]) {
  const MatrixShape& s = shape_of(in);
  check_modifiers(in, s, L);
  if (s.acc == ACC_F64) execute_f64(in, s, w, scalar);
  else execute_f32_or_i32(in, s, w, scalar);
  const int d = s.d_values * (s.acc == ACC_F64 ? 2 : 1);
  for (int r = 0; r < d; ++r) w.vpend[in.dst - 256 + r] = 0;
}

}  // namespace isa::detail
