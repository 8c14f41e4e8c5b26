// Faults and diagnostics of an instruction: the message names the kernel, the instruction and
// the user's source line. A diagnostic (engine.h) is what hardware runs through: kept once per
// kernel, kind and instruction with a count, or a Fault in strict mode.
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include "wave.h"

namespace isa {
namespace {

std::mutex g_mutex;
std::map<std::tuple<std::string, std::string, uint64_t>, size_t> g_sites;  // (kernel, kind, addr) -> index
std::vector<Diagnostic> g_diagnostics;
std::vector<bool> g_taken;  // per index: already handed out once
int g_strict = -1;          // -1: not set, read ISA_ENGINE_STRICT

}  // namespace

void set_strict(bool on) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_strict = on;
}

bool strict() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_strict < 0) {
    const char* env = std::getenv("ISA_ENGINE_STRICT");
    g_strict = env && *env && std::string(env) != "0";
  }
  return g_strict;
}

std::vector<Diagnostic> take_diagnostics() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Diagnostic> out;
  for (size_t n = 0; n < g_diagnostics.size(); ++n) {
    if (g_diagnostics[n].count == 0) continue;
    out.push_back(g_diagnostics[n]);
    g_diagnostics[n].count = 0;
    g_taken[n] = true;
  }
  return out;
}

namespace detail {

static std::string located(const Launch& L, const Inst& in, const std::string& what) {
  std::ostringstream os;
  os << L.k->symbol << ": " << what << " at " << in.name << " (0x" << std::hex << in.addr << ")";
  const std::string line = L.co->line_of(in.addr);
  if (!line.empty()) os << " " << line;
  return os.str();
}

[[noreturn]] void fault(const Launch& L, const Inst& in, const std::string& what) { throw Fault(located(L, in, what)); }

void diagnose(const Launch& L, const Inst& in, const char* kind, const std::string& what) {
  if (L.quiet) return;
  if (strict()) fault(L, in, what);
  const auto key = std::make_tuple(L.k->symbol, std::string(kind), in.addr);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_sites.find(key);
    if (it != g_sites.end()) {
      ++g_diagnostics[it->second].count;
      return;
    }
  }
  // First time at this site: find its source line (llvm-symbolizer) outside the lock.
  std::string message = located(L, in, what);
  std::lock_guard<std::mutex> lock(g_mutex);
  auto [it, fresh] = g_sites.emplace(key, g_diagnostics.size());
  if (fresh) {
    g_diagnostics.push_back({L.k->symbol, kind, std::move(message), 0});
    g_taken.push_back(false);
  }
  ++g_diagnostics[it->second].count;
}

}  // namespace detail
}  // namespace isa
