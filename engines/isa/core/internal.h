// The ISA engine's internals shared by its .cpp files (not part of the interface: engine.h).
//
// A code object is decoded once into an array of `Inst` (one per machine instruction, operands
// unpacked); a wave executes that array with a switch over `Op` per encoding family (exec.h
// lists the files). Operand codes follow the hardware's 9-bit source encoding, widened: 0..255
// scalar sources and constants (SGPRs, VCC = 106, M0 = 124, EXEC = 126, inline constants,
// 255 = the literal), 256..511 VGPRs v0..v255, 512..767 AGPRs a0..a255.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine.h"

namespace isa::detail {

enum Fmt : uint8_t { F_SOP1, F_SOP2, F_SOPC, F_SOPK, F_SOPP, F_SMEM, F_VOP1, F_VOP2, F_VOPC, F_VOP3,
                     F_VOP3P, F_DS, F_FLAT, F_GLOBAL, F_SCRATCH, F_MUBUF, F_MTBUF, F_COUNT };

// Semantic operations, one per mnemonic family the engine implements (the encoding-specific
// forms _e32/_e64/_sdwa/_dpp share one Op). X(op) names the mnemonic without suffix.
#define ISA_OPS(X)                                                                                  \
  X(s_mov_b32) X(s_mov_b64) X(s_cmov_b32) X(s_cmov_b64) X(s_not_b32) X(s_not_b64) X(s_brev_b32)      \
  X(s_bcnt1_i32_b32) X(s_bcnt1_i32_b64) X(s_ff1_i32_b32) X(s_ff1_i32_b64) X(s_flbit_i32_b32)        \
  X(s_flbit_i32_b64) X(s_sext_i32_i8) X(s_sext_i32_i16) X(s_bitset0_b32) X(s_bitset1_b32)          \
  X(s_getpc_b64) X(s_setpc_b64) X(s_swappc_b64) X(s_and_saveexec_b64) X(s_or_saveexec_b64)         \
  X(s_xor_saveexec_b64) X(s_andn2_saveexec_b64) X(s_orn2_saveexec_b64) X(s_nand_saveexec_b64)      \
  X(s_nor_saveexec_b64) X(s_xnor_saveexec_b64) X(s_andn1_saveexec_b64) X(s_orn1_saveexec_b64)      \
  X(s_andn1_wrexec_b64) X(s_andn2_wrexec_b64) X(s_abs_i32) X(s_wqm_b64) X(s_quadmask_b64)          \
  X(s_add_u32) X(s_sub_u32) X(s_add_i32) X(s_sub_i32) X(s_addc_u32) X(s_subb_u32) X(s_min_i32)     \
  X(s_min_u32) X(s_max_i32) X(s_max_u32) X(s_cselect_b32) X(s_cselect_b64) X(s_and_b32)            \
  X(s_and_b64) X(s_or_b32) X(s_or_b64) X(s_xor_b32) X(s_xor_b64) X(s_andn2_b32) X(s_andn2_b64)     \
  X(s_orn2_b32) X(s_orn2_b64) X(s_nand_b32) X(s_nand_b64) X(s_nor_b32) X(s_nor_b64) X(s_xnor_b32)  \
  X(s_xnor_b64) X(s_lshl_b32) X(s_lshl_b64) X(s_lshr_b32) X(s_lshr_b64) X(s_ashr_i32)              \
  X(s_ashr_i64) X(s_bfm_b32) X(s_bfm_b64) X(s_mul_i32) X(s_bfe_u32) X(s_bfe_i32) X(s_bfe_u64)      \
  X(s_bfe_i64) X(s_absdiff_i32) X(s_mul_hi_u32) X(s_mul_hi_i32) X(s_lshl1_add_u32)                 \
  X(s_lshl2_add_u32) X(s_lshl3_add_u32) X(s_lshl4_add_u32) X(s_pack_ll_b32_b16)                    \
  X(s_pack_lh_b32_b16) X(s_pack_hh_b32_b16)                                                        \
  X(s_cmp_eq_i32) X(s_cmp_lg_i32) X(s_cmp_gt_i32) X(s_cmp_ge_i32) X(s_cmp_lt_i32) X(s_cmp_le_i32)  \
  X(s_cmp_eq_u32) X(s_cmp_lg_u32) X(s_cmp_gt_u32) X(s_cmp_ge_u32) X(s_cmp_lt_u32) X(s_cmp_le_u32)  \
  X(s_bitcmp0_b32) X(s_bitcmp1_b32) X(s_bitcmp0_b64) X(s_bitcmp1_b64) X(s_cmp_eq_u64)              \
  X(s_cmp_lg_u64)                                                                                   \
  X(s_movk_i32) X(s_cmovk_i32) X(s_cmpk_eq_i32) X(s_cmpk_lg_i32) X(s_cmpk_gt_i32) X(s_cmpk_ge_i32) \
  X(s_cmpk_lt_i32) X(s_cmpk_le_i32) X(s_cmpk_eq_u32) X(s_cmpk_lg_u32) X(s_cmpk_gt_u32)             \
  X(s_cmpk_ge_u32) X(s_cmpk_lt_u32) X(s_cmpk_le_u32) X(s_addk_i32) X(s_mulk_i32) X(s_getreg_b32)   \
  X(s_setreg_b32) X(s_setreg_imm32_b32) X(s_call_b64)                                              \
  X(s_nop) X(s_endpgm) X(s_branch) X(s_cbranch_scc0) X(s_cbranch_scc1) X(s_cbranch_vccz)           \
  X(s_cbranch_vccnz) X(s_cbranch_execz) X(s_cbranch_execnz) X(s_barrier) X(s_waitcnt)              \
  X(s_sleep) X(s_setprio) X(s_sendmsg) X(s_trap) X(s_icache_inv) X(s_set_gpr_idx_off)              \
  X(s_sethalt) X(s_setkill) X(s_incperflevel) X(s_decperflevel) X(s_ttracedata)                     \
  X(s_load_dword) X(s_load_dwordx2) X(s_load_dwordx4) X(s_load_dwordx8) X(s_load_dwordx16)         \
  X(s_buffer_load_dword) X(s_buffer_load_dwordx2) X(s_buffer_load_dwordx4)                         \
  X(s_buffer_load_dwordx8) X(s_buffer_load_dwordx16) X(s_memtime) X(s_memrealtime)                 \
  X(s_dcache_inv) X(s_dcache_wb) X(s_dcache_inv_vol) X(s_dcache_wb_vol)                            \
  X(v_nop) X(v_mov_b32) X(v_mov_b64) X(v_readfirstlane_b32) X(v_readlane_b32) X(v_writelane_b32)   \
  X(v_cndmask_b32) X(v_add_f32) X(v_sub_f32) X(v_subrev_f32) X(v_mul_f32) X(v_min_f32)            \
  X(v_max_f32) X(v_fma_f32) X(v_fmac_f32) X(v_mac_f32) X(v_mad_f32) X(v_min3_f32) X(v_max3_f32)    \
  X(v_med3_f32) X(v_ldexp_f32) X(v_mul_i32_i24) X(v_mul_hi_i32_i24) X(v_mul_u32_u24)              \
  X(v_mul_hi_u32_u24) X(v_mad_i32_i24) X(v_mad_u32_u24) X(v_min_i32) X(v_max_i32) X(v_min_u32)     \
  X(v_max_u32) X(v_min3_i32) X(v_max3_i32) X(v_med3_i32) X(v_min3_u32) X(v_max3_u32)               \
  X(v_med3_u32) X(v_lshrrev_b32) X(v_ashrrev_i32) X(v_lshlrev_b32) X(v_and_b32) X(v_or_b32)        \
  X(v_xor_b32) X(v_xnor_b32) X(v_not_b32) X(v_bfrev_b32) X(v_ffbh_u32) X(v_ffbl_b32) X(v_ffbh_i32) \
  X(v_add_u32) X(v_sub_u32) X(v_subrev_u32) X(v_add_i32) X(v_sub_i32) X(v_add_co_u32)             \
  X(v_sub_co_u32) X(v_subrev_co_u32) X(v_addc_co_u32) X(v_subb_co_u32) X(v_subbrev_co_u32)         \
  X(v_mul_lo_u32) X(v_mul_hi_u32) X(v_mul_hi_i32) X(v_mad_u64_u32) X(v_mad_i64_i32) X(v_bfe_u32)   \
  X(v_bfe_i32) X(v_bfi_b32) X(v_bfm_b32) X(v_alignbit_b32) X(v_alignbyte_b32) X(v_perm_b32)        \
  X(v_lshl_add_u32) X(v_add_lshl_u32) X(v_add3_u32) X(v_lshl_or_b32) X(v_and_or_b32) X(v_or3_b32)  \
  X(v_xad_u32) X(v_bcnt_u32_b32) X(v_mbcnt_lo_u32_b32) X(v_mbcnt_hi_u32_b32) X(v_lshl_add_u64)     \
  X(v_lshlrev_b64) X(v_lshrrev_b64) X(v_ashrrev_i64) X(v_add_f64) X(v_mul_f64) X(v_fma_f64)        \
  X(v_min_f64) X(v_max_f64) X(v_cvt_f32_i32) X(v_cvt_f32_u32) X(v_cvt_u32_f32) X(v_cvt_i32_f32)    \
  X(v_cvt_f32_f64) X(v_cvt_f64_f32) X(v_cvt_f64_i32) X(v_cvt_f64_u32) X(v_cvt_i32_f64)             \
  X(v_cvt_u32_f64) X(v_cvt_f16_f32) X(v_cvt_f32_f16) X(v_cvt_f32_ubyte0) X(v_cvt_f32_ubyte1)       \
  X(v_cvt_f32_ubyte2) X(v_cvt_f32_ubyte3) X(v_cvt_rpi_i32_f32) X(v_cvt_flr_i32_f32)               \
  X(v_cvt_f32_bf16) X(v_trunc_f32) X(v_ceil_f32) X(v_rndne_f32) X(v_floor_f32) X(v_fract_f32)      \
  X(v_exp_f32) X(v_log_f32) X(v_rcp_f32) X(v_rcp_iflag_f32) X(v_rsq_f32) X(v_sqrt_f32)             \
  X(v_frexp_exp_i32_f32) X(v_frexp_mant_f32) X(v_rcp_f64) X(v_sqrt_f64) X(v_rsq_f64)               \
  X(v_trunc_f64) X(v_floor_f64) X(v_ceil_f64) X(v_rndne_f64) X(v_fract_f64) X(v_ldexp_f64)         \
  X(v_div_scale_f32) X(v_div_fmas_f32) X(v_div_fixup_f32) X(v_div_scale_f64) X(v_div_fmas_f64)     \
  X(v_div_fixup_f64) X(v_cvt_pkrtz_f16_f32) X(v_cvt_pk_u16_u32) X(v_cvt_pk_i16_i32)                \
  X(v_pack_b32_f16) X(v_cvt_pk_u8_f32) X(v_swap_b32) X(v_accvgpr_read) X(v_accvgpr_write)          \
  X(v_accvgpr_mov_b32) X(v_cvt_f32_fp8) X(v_cvt_f32_bf8) X(v_cvt_pk_f32_fp8) X(v_cvt_pk_f32_bf8)   \
  X(v_cvt_pk_fp8_f32) X(v_cvt_pk_bf8_f32) X(v_cvt_sr_fp8_f32) X(v_cvt_sr_bf8_f32)                  \
  X(v_add_u16) X(v_sub_u16) X(v_mul_lo_u16) X(v_lshlrev_b16) X(v_lshrrev_b16) X(v_ashrrev_i16)     \
  X(v_max_u16) X(v_max_i16) X(v_min_u16) X(v_min_i16) X(v_mad_u32_u16) X(v_mad_i32_i16)            \
  X(v_sat_pk_u8_i16) X(v_dot2c_f32_bf16)                                                            \
  X(v_pk_fma_f32) X(v_pk_mul_f32) X(v_pk_add_f32) X(v_pk_mov_b32) X(v_pk_add_u16) X(v_pk_sub_u16)  \
  X(v_pk_lshlrev_b16) X(v_pk_lshrrev_b16) X(v_pk_ashrrev_i16) X(v_pk_add_i16) X(v_pk_mul_lo_u16)   \
  X(v_pk_max_i16) X(v_pk_min_i16) X(v_pk_max_u16) X(v_pk_min_u16) X(v_pk_fma_f16) X(v_pk_add_f16)  \
  X(v_pk_mul_f16) X(v_dot2_f32_bf16) X(v_mfma)                                                      \
  X(v_cmp) X(v_cmpx)                                                                                \
  X(ds_write_b8) X(ds_write_b16) X(ds_write_b32) X(ds_write_b64) X(ds_write_b96) X(ds_write_b128)  \
  X(ds_write_b8_d16_hi) X(ds_write_b16_d16_hi) X(ds_write2_b32) X(ds_write2_b64)                  \
  X(ds_write2st64_b32) X(ds_write2st64_b64) X(ds_read_b32) X(ds_read_b64) X(ds_read_b96)          \
  X(ds_read_b128) X(ds_read_u8) X(ds_read_i8) X(ds_read_u16) X(ds_read_i16) X(ds_read_u8_d16)      \
  X(ds_read_u8_d16_hi) X(ds_read_u16_d16) X(ds_read_u16_d16_hi) X(ds_read2_b32) X(ds_read2_b64)    \
  X(ds_read2st64_b32) X(ds_read2st64_b64) X(ds_add_u32) X(ds_add_rtn_u32) X(ds_add_f32)            \
  X(ds_add_rtn_f32) X(ds_max_u32) X(ds_min_u32) X(ds_max_i32) X(ds_min_i32) X(ds_or_b32)           \
  X(ds_and_b32) X(ds_xor_b32) X(ds_bpermute_b32) X(ds_permute_b32) X(ds_swizzle_b32) X(ds_nop)     \
  X(vm_load) X(vm_store) X(vm_atomic) X(buffer_wbl2) X(buffer_inv) X(buffer_wbinvl1_vol)

enum Op : uint16_t {
#define ISA_ENUM(name) OP_##name,
  ISA_OPS(ISA_ENUM)
#undef ISA_ENUM
  OP_COUNT,
  OP_UNKNOWN = OP_COUNT,
};

// How a source operand's inline float constants and abs/neg modifiers read: from the mnemonic.
enum FKind : uint8_t { K_INT, K_F32, K_F64, K_F16 };

// Vector memory details (FLAT/GLOBAL/SCRATCH/MUBUF): bytes per lane and how they land.
enum MemKind : uint8_t { M_U8, M_I8, M_U16, M_I16, M_B32, M_D16_LO_U8, M_D16_LO_I8, M_D16_HI_U8,
                         M_D16_HI_I8, M_D16_LO, M_D16_HI, M_STORE_HI8, M_STORE_HI16 };

struct Inst {
  uint64_t addr = 0;        // address in the code object (llvm-objdump's)
  const char* name = "";    // mnemonic as the tables spell it
  uint16_t op = OP_UNKNOWN;  // Op
  uint8_t fmt = 0, size = 4;
  uint8_t sub = 0;          // op-specific: compare kind, MFMA shape, memory dwords, ...
  uint8_t fk = K_INT;       // FKind of the sources
  uint8_t dfk = K_INT;      // FKind of the result (output modifiers)
  uint16_t src[3] = {0, 0, 0};
  uint16_t dst = 0;         // vdst / sdst (operand code), 0xffff: none
  uint16_t sdst = 0xffff;   // VOP3b carry-out / VOPC e64 destination
  uint32_t literal = 0;
  uint8_t w[4] = {0, 0, 0, 0};  // operand widths in dwords: s0, s1, s2, d (from the tables)
  // VOP3 / VOP3P modifiers
  uint8_t neg = 0, abs = 0, neg_hi = 0, opsel = 0, opsel_hi = 3, clamp = 0, omod = 0;
  // DPP (ext = 1) / SDWA (ext = 2)
  uint8_t ext = 0;
  uint16_t dpp_ctrl = 0;
  uint8_t row_mask = 0xf, bank_mask = 0xf, bound_ctrl = 0;
  uint8_t dst_sel = 6, dst_unused = 0, src_sel[2] = {6, 6}, src_sext[2] = {0, 0};
  // MFMA
  uint8_t cbsz = 0, abid = 0, blgp = 0;
  uint8_t ctype = 0;        // compares: the compared type (CmpType); MFMA: input types (A | B << 4)
  // memory
  int32_t offset = 0;
  uint8_t offset0 = 0, offset1 = 0;
  uint16_t saddr = 0xffff;  // SGPR of global/scratch saddr, SMEM sbase, MUBUF srsrc; 0xffff: off
  uint16_t soffset = 0xffff;
  uint8_t mem = M_B32, dwords = 1;
  bool offen = false, idxen = false, lds = false, glc = false, soffset_en = false, imm = true;
  int16_t simm16 = 0;
  int32_t target = -1;      // branches: index of the target instruction
};

struct Arg {
  uint32_t offset = 0, size = 0;
  std::string kind;  // .value_kind: by_value, global_buffer, hidden_block_count_x, ...
  std::string name;
};

struct KernelInfo {
  std::string symbol;
  uint64_t kd_addr = 0, entry = 0;  // addresses in the code object
  uint32_t group_segment = 0, private_segment = 0, kernarg_size = 0;
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  uint16_t code_props = 0, kernarg_preload = 0;
  uint32_t sgpr_count = 0, vgpr_count = 0, agpr_count = 0, wavefront_size = 64;
  std::vector<Arg> args;
  int32_t first = -1;  // index of the entry instruction in CodeObjectImpl::insts
};

class CodeObjectImpl final : public CodeObject {
 public:
  bool has_kernel(const std::string& symbol) const override { return kernels.count(symbol) != 0; }
  std::vector<std::string> kernel_names() const override;

  std::vector<uint8_t> image;  // the loadable sections at their addresses (host memory: s_getpc)
  std::map<std::string, KernelInfo> kernels;
  std::vector<Inst> insts;                       // every decoded instruction, in address order
  std::unordered_map<uint64_t, int32_t> by_addr;  // address -> index in insts
  std::vector<uint8_t> elf;  // the file as loaded: llvm-symbolizer reads its line table
  bool has_line_table = false;
  // "at file:line (function)" of an address from the DWARF line table, "" without one.
  std::string line_of(uint64_t addr) const;
  // The same for several addresses: one llvm-symbolizer run for those not looked up before.
  std::vector<std::string> lines_of(const std::vector<uint64_t>& addrs) const;

 private:
  mutable std::mutex lines_mutex_;
  mutable std::unordered_map<uint64_t, std::string> lines_;  // addresses looked up so far
};

// Decoding (decode.cpp).
Inst decode_one(const uint32_t* words, size_t avail, uint64_t addr);
void decode_text(CodeObjectImpl& co, uint64_t begin, uint64_t end);

}  // namespace isa::detail
