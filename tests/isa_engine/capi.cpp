// A C interface to the ISA engine for the tests (ctypes): load a code object file, list its
// kernels, launch one with one by-value argument blob, read the counters.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine.h"
#include "internal.h"

namespace {
thread_local std::string g_error;
thread_local std::string g_names;
}

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

// Every decoded instruction: "address size op-known name" per line (the decoder test).
const char* isa_test_disasm(void* handle) {
  const auto& co = dynamic_cast<const isa::detail::CodeObjectImpl&>(**static_cast<std::shared_ptr<isa::CodeObject>*>(handle));
  g_names.clear();
  char line[160];
  for (const auto& in : co.insts) {
    snprintf(line, sizeof line, "%llx %d %d %s\n", (unsigned long long)in.addr, int(in.size),
             int(in.op != isa::detail::OP_UNKNOWN), in.name);
    g_names += line;
  }
  return g_names.c_str();
}

void isa_test_note(const void* base, unsigned long bytes, const char* what) { isa::note_allocation(base, bytes, what); }
void isa_test_forget(const void* base) { isa::forget_allocation(base); }
void isa_test_threads(int n) { isa::set_threads(n); }
void isa_test_strict(int on) { isa::set_strict(on != 0); }
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
