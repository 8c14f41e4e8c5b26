// Decoder: gfx942 machine words -> Inst, using the generated CDNA3 tables (cdna3_tables.h) for
// encodings, opcode names and operand widths. Field positions are the CDNA3 ISA's.
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "cdna3_tables.h"
#include "internal.h"
#include "mfma.h"

namespace isa::detail {
namespace {

namespace T = isa::tables;

struct FmtTable { const T::OpInfo* ops; int count; Fmt fmt; };

const FmtTable& fmt_table(int encoding_index) {
  static const FmtTable tables[] = {
      {T::SOP1::kOps, T::SOP1::kCount, F_SOP1},   {T::SOP2::kOps, T::SOP2::kCount, F_SOP2},
      {T::SOPC::kOps, T::SOPC::kCount, F_SOPC},   {T::SOPK::kOps, T::SOPK::kCount, F_SOPK},
      {T::SOPP::kOps, T::SOPP::kCount, F_SOPP},   {T::SMEM::kOps, T::SMEM::kCount, F_SMEM},
      {T::VOP1::kOps, T::VOP1::kCount, F_VOP1},   {T::VOP2::kOps, T::VOP2::kCount, F_VOP2},
      {T::VOPC::kOps, T::VOPC::kCount, F_VOPC},   {T::VOP3::kOps, T::VOP3::kCount, F_VOP3},
      {T::VOP3P::kOps, T::VOP3P::kCount, F_VOP3P}, {T::DS::kOps, T::DS::kCount, F_DS},
      {T::FLAT::kOps, T::FLAT::kCount, F_FLAT},   {T::GLOBAL::kOps, T::GLOBAL::kCount, F_GLOBAL},
      {T::SCRATCH::kOps, T::SCRATCH::kCount, F_SCRATCH}, {T::MUBUF::kOps, T::MUBUF::kCount, F_MUBUF},
      {T::MTBUF::kOps, T::MTBUF::kCount, F_MTBUF},
  };
  return tables[encoding_index];
}

// Encodings tried most specific mask first (SOP1/SOPC/SOPP before SOPK before SOP2, VOP1/VOPC
// before VOP2, VOP3P before VOP3).
const std::vector<int>& encoding_order() {
  static const std::vector<int> order = [] {
    std::vector<int> o(std::size(T::kEncodings));
    for (size_t i = 0; i < o.size(); ++i) o[i] = int(i);
    std::stable_sort(o.begin(), o.end(), [](int a, int b) {
      return __builtin_popcount(T::kEncodings[a].mask) > __builtin_popcount(T::kEncodings[b].mask);
    });
    return o;
  }();
  return order;
}

const std::unordered_map<std::string, uint16_t>& op_by_name() {
  static const std::unordered_map<std::string, uint16_t> map = [] {
    std::unordered_map<std::string, uint16_t> m;
    static const char* names[] = {
#define ISA_NAME(name) #name,
        ISA_OPS(ISA_NAME)
#undef ISA_NAME
    };
    for (uint16_t i = 0; i < OP_COUNT; ++i) m[names[i]] = i;
    return m;
  }();
  return map;
}

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
bool ends(const std::string& s, const char* p) {
  size_t n = strlen(p);
  return s.size() >= n && s.compare(s.size() - n, n, p) == 0;
}

FKind kind_of(const std::string& t) {
  if (t == "f32") return K_F32;
  if (t == "f64") return K_F64;
  if (t == "f16" || t == "bf16") return K_F16;
  return K_INT;
}

// Source and result float kinds from the mnemonic: v_cvt_<dst>_<src>, else the first type.
void float_kinds(const std::string& base, Inst& in) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= base.size()) {
    size_t us = base.find('_', start);
    if (us == std::string::npos) us = base.size();
    parts.push_back(base.substr(start, us - start));
    start = us + 1;
  }
  std::vector<FKind> kinds;
  for (auto& p : parts)
    if (p == "f32" || p == "f64" || p == "f16" || p == "bf16" || p == "i32" || p == "u32" ||
        p == "i16" || p == "u16" || p == "b32" || p == "b64" || p == "u64" || p == "i64")
      kinds.push_back(kind_of(p));
  if (kinds.empty()) return;
  if (starts(base, "v_cvt_") && kinds.size() >= 2) {
    in.dfk = kinds.front();
    in.fk = kinds.back();
  } else {
    in.fk = in.dfk = kinds.front();
  }
  if (starts(base, "v_cmp") || starts(base, "v_cvt_pk_")) in.dfk = K_INT;
}

enum Cond { C_F, C_LT, C_EQ, C_LE, C_GT, C_LG, C_GE, C_O, C_U, C_NGE, C_NLG, C_NGT, C_NLE, C_NEQ,
            C_NLT, C_TRU, C_NE, C_T, C_CLASS };

bool parse_compare(const std::string& base, Inst& in) {
  // v_cmp[x]_<cond>_<type>
  std::string rest = base.substr(starts(base, "v_cmpx_") ? 7 : 6);
  size_t us = rest.rfind('_');
  if (us == std::string::npos) return false;
  std::string cond = rest.substr(0, us), type = rest.substr(us + 1);
  static const char* conds[] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt",
                                "nle", "neq", "nlt", "tru", "ne", "t", "class"};
  int c = -1;
  for (int i = 0; i < int(std::size(conds)); ++i)
    if (cond == conds[i]) c = i;
  static const char* types[] = {"f16", "f32", "f64", "i16", "i32", "i64", "u16", "u32", "u64"};
  int t = -1;
  for (int i = 0; i < int(std::size(types)); ++i)
    if (type == types[i]) t = i;
  if (c < 0 || t < 0) return false;
  in.sub = uint8_t(c);
  in.ctype = uint8_t(t);
  return true;
}

void parse_vmem(const std::string& base, Inst& in) {
  // {global,flat,scratch,buffer}_{load,store,atomic}_<what>
  std::string what = base.substr(base.find('_') + 1);
  if (starts(what, "atomic_")) {
    in.op = OP_vm_atomic;
    std::string a = what.substr(7);
    in.dwords = ends(a, "_x2") || a == "add_f64" ? 2 : 1;
    if (ends(a, "_x2")) a.resize(a.size() - 3);
    static const char* kinds[] = {"swap", "cmpswap", "add", "sub", "smin", "umin", "smax", "umax",
                                  "and", "or", "xor", "inc", "dec", "add_f32", "add_f64"};
    in.op = OP_UNKNOWN;
    for (int k = 0; k < int(std::size(kinds)); ++k)
      if (a == kinds[k]) in.op = OP_vm_atomic, in.sub = uint8_t(k);
    return;
  }
  bool load = starts(what, "load_");
  if (!load && !starts(what, "store_")) return;
  in.op = load ? OP_vm_load : OP_vm_store;
  std::string t = what.substr(load ? 5 : 6);
  if (starts(t, "lds_")) {  // global_load_lds_<kind>: the data goes to LDS (M0-based)
    in.lds = true;
    t = t.substr(4);
    if (t != "ubyte" && t != "sbyte" && t != "ushort" && t != "sshort" && t != "dword") {
      in.op = OP_UNKNOWN;  // gfx950's dwordx3/x4
      return;
    }
  }
  static const std::pair<const char*, std::pair<uint8_t, uint8_t>> kinds[] = {
      {"ubyte", {M_U8, 1}}, {"sbyte", {M_I8, 1}}, {"ushort", {M_U16, 1}}, {"sshort", {M_I16, 1}},
      {"dword", {M_B32, 1}}, {"dwordx2", {M_B32, 2}}, {"dwordx3", {M_B32, 3}}, {"dwordx4", {M_B32, 4}},
      {"byte", {M_U8, 1}}, {"short", {M_U16, 1}}, {"byte_d16_hi", {M_STORE_HI8, 1}},
      {"short_d16_hi", {M_STORE_HI16, 1}}, {"ubyte_d16", {M_D16_LO_U8, 1}},
      {"ubyte_d16_hi", {M_D16_HI_U8, 1}}, {"sbyte_d16", {M_D16_LO_I8, 1}},
      {"sbyte_d16_hi", {M_D16_HI_I8, 1}}, {"short_d16", {M_D16_LO, 1}}, {"short_d16_hi", {M_D16_HI, 1}},
  };
  for (auto& [name, kd] : kinds)
    if (t == name) {
      in.mem = kd.first;
      in.dwords = kd.second;
      return;
    }
  in.op = OP_UNKNOWN;  // format loads/stores
}

uint16_t vgpr(uint32_t field, bool acc) { return uint16_t(256 + (acc ? 256 : 0) + (field & 0xff)); }
uint16_t ssrc(uint32_t field) { return uint16_t(field & 0x1ff) >= 256 ? uint16_t(field & 0x1ff) : uint16_t(field & 0xff); }

}  // namespace

Inst decode_one(const uint32_t* words, size_t avail, uint64_t addr) {
  Inst in;
  in.addr = addr;
  in.dst = 0xffff;
  const uint32_t w0 = words[0];
  const uint32_t w1 = avail > 1 ? words[1] : 0;
  int enc = -1;
  for (int i : encoding_order())
    if ((w0 & T::kEncodings[i].mask) == T::kEncodings[i].match) {
      enc = i;
      break;
    }
  if (enc < 0) {
    in.name = "<undecodable>";
    return in;
  }
  const FmtTable& ft = fmt_table(enc);
  const auto& e = T::kEncodings[enc];
  const uint32_t opcode = (w0 >> e.op_lo) & ((1u << e.op_bits) - 1);
  in.fmt = ft.fmt;
  const T::OpInfo* info = int(opcode) < ft.count ? &ft.ops[opcode] : nullptr;
  in.name = info && info->name ? info->name : "<unknown opcode>";
  if (info && info->name) {
    auto dw = [](uint16_t bits) { return uint8_t(bits == 0 ? 0 : (bits + 31) / 32); };
    in.w[0] = dw(info->s0);
    in.w[1] = dw(info->s1);
    in.w[2] = dw(info->s2);
    in.w[3] = dw(info->d);
  }
  std::string base = in.name;
  for (const char* suffix : {"_e32", "_e64"})
    if (ends(base, suffix)) base.resize(base.size() - 4);
  const auto& names = op_by_name();
  if (auto it = names.find(base); it != names.end()) in.op = it->second;
  float_kinds(base, in);

  if ((in.fmt == F_SOP1 && (w0 & 0xff) == 255) ||
      ((in.fmt == F_SOP2 || in.fmt == F_SOPC) && ((w0 & 0xff) == 255 || ((w0 >> 8) & 0xff) == 255))) {
    in.size = 8;
    in.literal = w1;
  }
  switch (in.fmt) {
    case F_SOP1:
      in.dst = (w0 >> 16) & 0x7f;
      in.src[0] = w0 & 0xff;
      break;
    case F_SOP2:
      in.dst = (w0 >> 16) & 0x7f;
      in.src[0] = w0 & 0xff;
      in.src[1] = (w0 >> 8) & 0xff;
      break;
    case F_SOPC:
      in.src[0] = w0 & 0xff;
      in.src[1] = (w0 >> 8) & 0xff;
      break;
    case F_SOPK:
      in.dst = (w0 >> 16) & 0x7f;
      in.simm16 = int16_t(w0 & 0xffff);
      if (in.op == OP_s_setreg_imm32_b32) {
        in.size = 8;
        in.literal = w1;
      }
      break;
    case F_SOPP:
      in.simm16 = int16_t(w0 & 0xffff);
      break;
    case F_SMEM:
      in.size = 8;
      in.dst = (w0 >> 6) & 0x7f;
      in.saddr = uint16_t((w0 & 0x3f) << 1);
      in.glc = (w0 >> 16) & 1;
      in.soffset_en = (w0 >> 14) & 1;
      in.imm = (w0 >> 17) & 1;
      in.offset = int32_t(w1 << 11) >> 11;  // 21-bit signed
      in.soffset = (w1 >> 25) & 0x7f;
      break;
    case F_VOP1:
    case F_VOP2:
    case F_VOPC: {
      in.src[0] = uint16_t(w0 & 0x1ff);
      if (in.fmt == F_VOP2 || in.fmt == F_VOPC) in.src[1] = uint16_t(256 + ((w0 >> 9) & 0xff));
      if (in.fmt != F_VOPC) in.dst = uint16_t(256 + ((w0 >> 17) & 0xff));
      if (in.op == OP_v_readfirstlane_b32) in.dst = (w0 >> 17) & 0x7f;  // an SGPR
      if (in.op == OP_v_accvgpr_mov_b32) {  // AGPR to AGPR: the register fields name AGPRs
        in.dst = uint16_t(in.dst + 256);
        if (in.src[0] >= 256) in.src[0] = uint16_t(in.src[0] + 256);
      }
      if (in.fmt == F_VOPC) in.sdst = 106;  // VCC
      if (in.fmt == F_VOP2 && (in.op == OP_v_cndmask_b32 || in.op == OP_v_addc_co_u32 ||
                               in.op == OP_v_subb_co_u32 || in.op == OP_v_subbrev_co_u32))
        in.src[2] = 106;
      if (in.fmt == F_VOP2 && (in.op == OP_v_add_co_u32 || in.op == OP_v_sub_co_u32 || in.op == OP_v_subrev_co_u32 ||
                               in.op == OP_v_addc_co_u32 || in.op == OP_v_subb_co_u32 || in.op == OP_v_subbrev_co_u32))
        in.sdst = 106;
      if (in.fmt == F_VOP2 && (in.op == OP_v_fmac_f32 || in.op == OP_v_mac_f32 || in.op == OP_v_dot2c_f32_bf16))
        in.src[2] = in.dst;
      if (in.src[0] == 250) {  // DPP
        in.size = 8;
        in.ext = 1;
        in.src[0] = uint16_t(256 + (w1 & 0xff));
        in.dpp_ctrl = (w1 >> 8) & 0x1ff;
        in.bound_ctrl = (w1 >> 19) & 1;
        in.neg = uint8_t(((w1 >> 20) & 1) | (((w1 >> 22) & 1) << 1));
        in.abs = uint8_t(((w1 >> 21) & 1) | (((w1 >> 23) & 1) << 1));
        in.bank_mask = (w1 >> 24) & 0xf;
        in.row_mask = (w1 >> 28) & 0xf;
      } else if (in.src[0] == 249) {  // SDWA
        in.size = 8;
        in.ext = 2;
        in.src[0] = uint16_t(((w1 >> 23) & 1) ? ssrc(w1 & 0xff) : 256 + (w1 & 0xff));
        if (in.fmt == F_VOPC) {
          if ((w1 >> 15) & 1) in.sdst = (w1 >> 8) & 0x7f;
        } else {
          in.dst_sel = (w1 >> 8) & 7;
          in.dst_unused = (w1 >> 11) & 3;
          in.clamp = (w1 >> 13) & 1;
          in.omod = (w1 >> 14) & 3;
        }
        in.src_sel[0] = (w1 >> 16) & 7;
        in.src_sext[0] = (w1 >> 19) & 1;
        in.neg = uint8_t(((w1 >> 20) & 1) | (((w1 >> 28) & 1) << 1));
        in.abs = uint8_t(((w1 >> 21) & 1) | (((w1 >> 29) & 1) << 1));
        in.src_sel[1] = (w1 >> 24) & 7;
        in.src_sext[1] = (w1 >> 27) & 1;
        if (in.fmt != F_VOP1 && ((w1 >> 31) & 1)) in.src[1] = ssrc((w0 >> 9) & 0xff);
      } else if (in.src[0] == 255) {
        in.size = 8;
        in.literal = w1;
      }
      break;
    }
    case F_VOP3: {
      in.size = 8;
      in.src[0] = uint16_t(w1 & 0x1ff);
      in.src[1] = uint16_t((w1 >> 9) & 0x1ff);
      in.src[2] = uint16_t((w1 >> 18) & 0x1ff);
      in.omod = (w1 >> 27) & 3;
      in.neg = (w1 >> 29) & 7;
      const bool vop3b = info && info->sdst;
      if (vop3b) {
        in.sdst = (w0 >> 8) & 0x7f;
      } else {
        in.abs = (w0 >> 8) & 7;
        in.opsel = (w0 >> 11) & 0xf;
      }
      in.clamp = (w0 >> 15) & 1;
      const bool compare = starts(base, "v_cmp");
      if (compare) {
        in.sdst = w0 & 0xff;  // the scalar destination of a VOPC promoted to VOP3
      } else if (in.op == OP_v_readlane_b32 || in.op == OP_v_readfirstlane_b32) {
        in.dst = w0 & 0xff;
      } else {
        in.dst = uint16_t(256 + (w0 & 0xff));
      }
      break;
    }
    case F_VOP3P: {
      in.size = 8;
      in.src[0] = uint16_t(w1 & 0x1ff);
      in.src[1] = uint16_t((w1 >> 9) & 0x1ff);
      in.src[2] = uint16_t((w1 >> 18) & 0x1ff);
      in.dst = uint16_t(256 + (w0 & 0xff));
      if (starts(base, "v_mfma") || starts(base, "v_smfmac")) {
        in.cbsz = (w0 >> 8) & 7;
        in.abid = (w0 >> 11) & 0xf;
        const bool acc_cd = (w0 >> 15) & 1;
        const uint32_t acc = (w1 >> 27) & 3;
        in.blgp = (w1 >> 29) & 7;
        // NOTE: ACC_CD puts C and D in AGPRs; SMFMAC's C is D, its src2 is the index: a VGPR.
        if (acc_cd) {
          in.dst = uint16_t(in.dst + 256);
          if (in.src[2] >= 256 && !starts(base, "v_smfmac")) in.src[2] = uint16_t(in.src[2] + 256);
        }
        if ((acc & 1) && in.src[0] >= 256) in.src[0] = uint16_t(in.src[0] + 256);
        if ((acc & 2) && in.src[1] >= 256) in.src[1] = uint16_t(in.src[1] + 256);
        in.op = parse_matrix_op(base, in) ? OP_v_mfma : OP_UNKNOWN;
      } else if (in.op == OP_v_accvgpr_read) {
        if (in.src[0] >= 256) in.src[0] = uint16_t(in.src[0] + 256);
      } else if (in.op == OP_v_accvgpr_write) {
        in.dst = uint16_t(in.dst + 256);
      } else {
        in.neg_hi = (w0 >> 8) & 7;
        in.opsel = (w0 >> 11) & 7;
        in.opsel_hi = uint8_t(((w1 >> 27) & 3) | (((w0 >> 14) & 1) << 2));
        in.clamp = (w0 >> 15) & 1;
        in.neg = (w1 >> 29) & 7;
      }
      break;
    }
    case F_DS: {
      in.size = 8;
      in.offset0 = w0 & 0xff;
      in.offset1 = (w0 >> 8) & 0xff;
      in.offset = int32_t(w0 & 0xffff);
      const bool acc = (w0 >> 25) & 1;
      in.src[0] = vgpr(w1, false);             // addr
      in.src[1] = vgpr(w1 >> 8, acc);          // data0
      in.src[2] = vgpr(w1 >> 16, acc);         // data1
      in.dst = vgpr(w1 >> 24, acc);
      if ((w0 >> 16) & 1) in.op = OP_UNKNOWN;  // GDS
      break;
    }
    case F_FLAT:
    case F_GLOBAL:
    case F_SCRATCH: {
      in.size = 8;
      in.offset = in.fmt == F_FLAT ? int32_t(w0 & 0xfff) : (int32_t(w0 << 19) >> 19);
      const bool acc = (w1 >> 23) & 1;
      in.src[0] = vgpr(w1, false);
      in.src[1] = vgpr(w1 >> 8, acc);
      in.dst = vgpr(w1 >> 24, acc);
      // NOTE: FLAT has no saddr; clang encodes its field as 0 there, not as off (0x7f).
      uint32_t saddr = (w1 >> 16) & 0x7f;
      in.saddr = saddr == 0x7f || in.fmt == F_FLAT ? 0xffff : uint16_t(saddr);
      in.glc = (w0 >> 16) & 1;
      in.offen = (w0 >> 13) & 1;  // SVE: scratch address includes the VGPR
      parse_vmem(base, in);
      break;
    }
    case F_MUBUF: {
      in.size = 8;
      in.offset = int32_t(w0 & 0xfff);
      in.offen = (w0 >> 12) & 1;
      in.idxen = (w0 >> 13) & 1;
      in.glc = (w0 >> 14) & 1;
      in.lds = (w0 >> 16) & 1;
      const bool acc = (w1 >> 23) & 1;
      in.src[0] = vgpr(w1, false);
      in.src[1] = vgpr(w1 >> 8, acc);
      in.dst = in.src[1];
      in.saddr = uint16_t(((w1 >> 16) & 0x1f) << 2);
      in.soffset = uint16_t((w1 >> 24) & 0xff);
      if (in.op == OP_UNKNOWN) parse_vmem(base, in);
      if (in.lds && (in.op != OP_vm_load || in.mem == M_D16_LO || in.mem == M_D16_HI || in.dwords != 1))
        in.op = OP_UNKNOWN;  // buffer_load ... lds: only ubyte/sbyte/ushort/sshort/dword
      break;
    }
    default:
      in.size = 8;
      break;
  }
  if (starts(base, "v_cmpx_") || starts(base, "v_cmp_")) {
    in.op = parse_compare(base, in) ? (starts(base, "v_cmpx_") ? OP_v_cmpx : OP_v_cmp) : OP_UNKNOWN;
  }
  if (in.op == OP_v_fmac_f32 || in.op == OP_v_mac_f32 || in.op == OP_v_dot2c_f32_bf16) in.src[2] = in.dst;
  return in;
}

void decode_text(CodeObjectImpl& co, uint64_t begin, uint64_t end) {
  uint64_t pc = begin;
  while (pc + 4 <= end) {
    const size_t avail = (end - pc) / 4;
    uint32_t words[2] = {0, 0};
    memcpy(words, co.image.data() + pc, std::min<size_t>(avail, 2) * 4);
    Inst in = decode_one(words, avail, pc);
    co.by_addr[pc] = int32_t(co.insts.size());
    co.insts.push_back(in);
    pc += in.size;
  }
  // Branch targets as instruction indices: SOPP branches are relative to the next instruction.
  for (auto& in : co.insts) {
    if (in.fmt != F_SOPP) continue;
    if (in.op == OP_s_branch || (in.op >= OP_s_cbranch_scc0 && in.op <= OP_s_cbranch_execnz)) {
      uint64_t target = in.addr + 4 + int64_t(in.simm16) * 4;
      auto it = co.by_addr.find(target);
      in.target = it == co.by_addr.end() ? -1 : it->second;
    }
  }
}

}  // namespace isa::detail
