// VOPC (and VOPC in VOP3): v_cmp / v_cmpx / v_cmp_class on every type gfx942 compares.
#include <cmath>
#include <cstdint>

#include "exec.h"

namespace isa::detail {

// VOPC: a lane mask into VCC / an SGPR pair (and EXEC for v_cmpx).
void Exec::compare() {
  const Inst& i = *in;
  const int cond = i.sub, type = i.ctype;  // types: f16 f32 f64 i16 i32 i64 u16 u32 u64
  const uint64_t exec = w.exec();
  uint64_t mask = 0;
  const bool wide = type == 2 || type == 5 || type == 8;
  auto fcmp = [&](double x, double y) -> bool {
    const bool un = std::isnan(x) || std::isnan(y);
    switch (cond) {
      case 0: return false;
      case 1: return x < y;
      case 2: return x == y;
      case 3: return x <= y;
      case 4: return x > y;
      case 5: return x < y || x > y;
      case 6: return x >= y;
      case 7: return !un;
      case 8: return un;
      case 9: return !(x >= y);
      case 10: return !(x < y || x > y);
      case 11: return !(x > y);
      case 12: return !(x <= y);
      case 13: return !(x == y);
      case 14: return !(x < y);
      default: return true;
    }
  };
  auto icmp = [&](auto x, auto y) -> bool {
    switch (cond) {
      case 0: return false;
      case 1: return x < y;
      case 2: return x == y;
      case 3: return x <= y;
      case 4: return x > y;
      case 16: case 13: case 5: return x != y;
      case 6: return x >= y;
      default: return true;
    }
  };
  auto cls = [&](double x, uint32_t m, bool denorm) -> bool {
    if (std::isnan(x)) return (m & 3) != 0;  // signalling/quiet NaN not told apart
    const bool neg = std::signbit(x);
    if (std::isinf(x)) return (m >> (neg ? 2 : 9)) & 1;
    if (x == 0) return (m >> (neg ? 5 : 6)) & 1;
    if (denorm) return (m >> (neg ? 4 : 7)) & 1;
    return (m >> (neg ? 3 : 8)) & 1;
  };
  if (cond == 18) {  // class
    Src b = src(1);
    if (type == 2) {
      Src64 a = src64(0);
      LANES if (cls(as_d(a[l]), b[l], std::fpclassify(as_d(a[l])) == FP_SUBNORMAL)) mask |= 1ull << l;
    } else {
      Src a = src(0);
      LANES {
        float f = type == 0 ? f16_to_f32(uint16_t(a[l])) : as_f(a[l]);
        bool sub = type == 0 ? ((a[l] & 0x7c00) == 0 && (a[l] & 0x3ff)) : std::fpclassify(f) == FP_SUBNORMAL;
        if (cls(f, b[l], sub)) mask |= 1ull << l;
      }
    }
  } else if (wide) {
    Src64 a = src64(0), b = src64(1);
    LANES {
      bool t;
      if (type == 2) t = fcmp(as_d(a[l]), as_d(b[l]));
      else if (type == 5) t = icmp(int64_t(a[l]), int64_t(b[l]));
      else t = icmp(a[l], b[l]);
      if (t) mask |= 1ull << l;
    }
  } else {
    Src a = src(0), b = src(1);
    LANES {
      const uint32_t x = a[l], y = b[l];
      bool t;
      switch (type) {
        case 0: t = fcmp(f16_to_f32(uint16_t(x)), f16_to_f32(uint16_t(y))); break;
        case 1: t = fcmp(as_f(x), as_f(y)); break;
        case 3: t = icmp(int16_t(x), int16_t(y)); break;
        case 4: t = icmp(int32_t(x), int32_t(y)); break;
        case 6: t = icmp(uint16_t(x), uint16_t(y)); break;
        default: t = icmp(x, y); break;
      }
      if (t) mask |= 1ull << l;
    }
  }
  mask &= exec;
  if (i.op == OP_v_cmpx) {
    swrite64(kExec, mask);
    if (i.fmt == F_VOP3 && i.sdst < 128) wmask(i.sdst, mask);
    else if (i.fmt != F_VOP3) wmask(i.sdst, mask);
  } else {
    wmask(i.sdst, mask);
  }
}

}  // namespace isa::detail
