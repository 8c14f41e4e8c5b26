// Matrix instructions of gfx942 (v_mfma_*, v_smfmac_*): decoding of their shape and their
// semantics (mfma.cpp). Every one decodes to OP_v_mfma; Inst::sub indexes its MatrixShape.
#pragma once
#include <cstdint>
#include <string>

#include "wave.h"

namespace isa::detail {

// Fills in.sub from the mnemonic; false for what gfx942 lacks (gfx950's wide-K and scaled forms).
bool parse_matrix_op(const std::string& mnemonic, Inst& in);

// Dwords per lane of each operand: A (src0), B (src1), src2 (C, or SMFMAC's index), D (vdst).
struct MatrixOperands {
  int a, b, src2, d;
  bool src2_is_f64;  // an F64 MFMA's C: a constant there is a double
  bool reads_d;      // SMFMAC: D is also the accumulator
};
MatrixOperands matrix_operands(const Inst& in);

// Executes `in` on all 64 lanes of `w` (MFMA ignores EXEC). scalar[s] holds source s when it is
// a constant or an SGPR (operand code < 256). Faults name the instruction through `L`.
void execute_matrix_op(const Inst& in, Wave& w, const Launch& L, const uint64_t scalar[3]);

}  // namespace isa::detail
