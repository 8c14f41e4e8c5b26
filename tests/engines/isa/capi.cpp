// A C interface to the ISA engine for the tests (ctypes): load a code object file, list its
// kernels, launch one with one by-value argument blob, read the counters.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine.h"
#include "wave.h"

namespace {
thread_local std::string g_error;
thread_local std::string g_names;

using namespace isa::detail;

// " s4", " v7", " a0" for a register operand code; nothing for constants and the literal.
std::string reg(uint16_t code) {
  if (code < 128) return " s" + std::to_string(code);
  if (code >= 256 && code < 512) return " v" + std::to_string(code - 256);
  if (code >= 512 && code < 768) return " a" + std::to_string(code - 512);
  return "";
}

// The register operands of `in` in llvm-objdump's order; an operand is there when the
// instruction's table gives it a width (or the encoding implies it, as VOP2's VCC).
std::string printed_operands(const Inst& in) {
  std::string out;
  auto has = [&](int slot) { return in.w[slot] != 0; };
  switch (in.fmt) {
    case F_SOP1: case F_SOP2: case F_SOPC: case F_SOPK:
      if (has(3)) out += reg(in.dst);
      for (int s = 0; s < 2; ++s)
        if (has(s)) out += reg(in.src[s]);
      break;
    case F_SMEM:
      if (has(3)) out += reg(in.dst);
      if (has(0)) out += reg(in.saddr);
      if (in.soffset_en) out += reg(in.soffset);
      if (!in.imm) out += reg(uint16_t(in.offset & 0x7f));
      break;
    case F_VOP1: case F_VOP2: case F_VOPC: case F_VOP3: case F_VOP3P:
      if ((has(3) || in.op == OP_v_mfma) && in.op != OP_v_cmp && in.op != OP_v_cmpx) out += reg(in.dst);
      if (in.sdst != 0xffff) out += reg(in.sdst);
      for (int s = 0; s < 3; ++s)  // matrix instructions: all three (the tables lack xf32's widths)
        if (has(s) || in.op == OP_v_mfma || (s == 2 && in.fmt == F_VOP2 && in.src[2] == kVcc)) out += reg(in.src[s]);
      break;
    case F_DS:
      if (has(3)) out += reg(in.dst);
      for (int s = 0; s < 3; ++s)
        if (has(s)) out += reg(in.src[s]);
      break;
    case F_FLAT: case F_GLOBAL: case F_SCRATCH:
      if (has(3) && !in.lds && (in.op != OP_vm_atomic || in.glc)) out += reg(in.dst);
      if (in.fmt != F_SCRATCH || in.offen) out += reg(in.src[0]);
      if (has(1)) out += reg(in.src[1]);
      if (in.saddr != 0xffff) out += reg(in.saddr);
      break;
    case F_MUBUF:
      if (!has(0)) break;  // buffer_wbl2, buffer_inv
      if ((has(3) || has(1)) && !in.lds) out += reg(in.dst);
      if (in.offen || in.idxen) out += reg(in.src[0]);
      out += reg(in.saddr) + reg(in.soffset);
      break;
    default:
      break;
  }
  return out;
}
}  // namespace

extern "C" {

const char* isa_test_error() { return g_error.c_str(); }

void* isa_test_load(const char* path) {
  try {
    std::ifstream f(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    auto co = isa::CodeObject::load(bytes.data(), bytes.size());
    return new std::shared_ptr<isa::CodeObject>(co);
  } catch (const std::exception& e) {
    g_error = e.what();
    return nullptr;
  }
}

void isa_test_free(void* handle) { delete static_cast<std::shared_ptr<isa::CodeObject>*>(handle); }

const char* isa_test_kernels(void* handle) {
  g_names.clear();
  for (auto& n : (*static_cast<std::shared_ptr<isa::CodeObject>*>(handle))->kernel_names()) g_names += n + "\n";
  return g_names.c_str();
}

// args: `nargs` pointers to the explicit arguments. Returns 0, or 1 with isa_test_error() set.
int isa_test_launch(void* handle, const char* symbol, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                    unsigned by, unsigned bz, void** args, unsigned dynamic_lds) {
  try {
    isa::launch(**static_cast<std::shared_ptr<isa::CodeObject>*>(handle), symbol, {gx, gy, gz}, {bx, by, bz}, args,
                dynamic_lds);
    return 0;
  } catch (const std::exception& e) {
    g_error = e.what();
    return 1;
  }
}

// Every decoded instruction: "address size op-known name operands" per line (the decoder test).
// Operands are the register operands as the decoder unpacked them, in the order llvm-objdump
// prints them: s<n> (SGPRs and VCC/M0/EXEC at their codes), v<n>, a<n>; constants are left out.
const char* isa_test_disasm(void* handle) {
  const auto& co = dynamic_cast<const isa::detail::CodeObjectImpl&>(**static_cast<std::shared_ptr<isa::CodeObject>*>(handle));
  g_names.clear();
  char line[160];
  for (const auto& in : co.insts) {
    snprintf(line, sizeof line, "%llx %d %d %s", (unsigned long long)in.addr, int(in.size),
             int(in.op != isa::detail::OP_UNKNOWN), in.name);
    g_names += line;
    g_names += printed_operands(in);
    g_names += "\n";
  }
  return g_names.c_str();
}

void isa_test_note(const void* base, unsigned long bytes, const char* what) { isa::note_allocation(base, bytes, what); }
void isa_test_forget(const void* base) { isa::forget_allocation(base); }
void isa_test_threads(int n) { isa::set_threads(n); }
void isa_test_strict(int on) { isa::set_strict(on != 0); }
void isa_test_system_prefixes(const char* one_a_line) { isa::set_system_prefixes(one_a_line); }
// The diagnostics since the last call: "kind\tcount\tmessage" per line.
const char* isa_test_diagnostics() {
  g_names.clear();
  for (const auto& d : isa::take_diagnostics()) g_names += d.kind + "\t" + std::to_string(d.count) + "\t" + d.message + "\n";
  return g_names.c_str();
}
void isa_test_reset() { isa::reset_stats(); }
// counters: launches, workgroups, waves, wave_instructions, mfma_instructions
void isa_test_stats(unsigned long long* out, double* seconds) {
  isa::Stats s = isa::stats();
  out[0] = s.launches, out[1] = s.workgroups, out[2] = s.waves, out[3] = s.wave_instructions, out[4] = s.mfma_instructions;
  seconds[0] = s.seconds, seconds[1] = s.mfma_seconds;
}
}
