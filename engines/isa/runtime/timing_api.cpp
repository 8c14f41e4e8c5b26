// The timing model's C interface for engines.isa's Python side (ctypes): turn timing on with a
// hardware description, and take the timings of the launches since, as JSON.
#include <cstdio>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "engine.h"

namespace {

// Hardware fields by name, so the Python side can set any of them ("key=value" lines).
bool set_field(isa::Hardware& hw, const std::string& key, double value) {
  if (key.rfind("mfma.", 0) == 0) {
    hw.mfma_cycles.emplace_back(key.substr(5), value);
    return true;
  }
  const std::map<std::string, std::function<void(double)>> setters = {
#define MACHINE_FACT(type, name, value) {#name, [&hw](double v) { hw.name = type(v); }},
#define MODEL_SETTING(name) {#name, [&hw](double v) { hw.name = v; }},
#define SIMULATION(type, name, value) {#name, [&hw](double v) { hw.name = type(v); }},
#include "hardware_fields.h"
#undef MACHINE_FACT
#undef MODEL_SETTING
#undef SIMULATION
  };
  const auto it = setters.find(key);
  if (it == setters.end()) return false;
  it->second(value);
  return true;
}

// The model settings the spec left unset, comma-separated (none may be: they have no default).
std::string unset_settings(const isa::Hardware& hw) {
  std::string missing;
#define MACHINE_FACT(type, name, value)
#define MODEL_SETTING(name) \
  if (std::isnan(hw.name)) missing += (missing.empty() ? "" : ", ") + std::string(#name);
#define SIMULATION(type, name, value)
#include "hardware_fields.h"
#undef MACHINE_FACT
#undef MODEL_SETTING
#undef SIMULATION
  return missing;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += char(c);
  }
  return out + "\"";
}

std::string to_json(const std::vector<isa::KernelTiming>& timings) {
  std::ostringstream os;
  os.precision(10);
  os << "[";
  for (size_t n = 0; n < timings.size(); ++n) {
    const isa::KernelTiming& t = timings[n];
    os << (n ? "," : "") << "{\"symbol\":" << quoted(t.symbol) << ",\"grid\":[" << t.grid.x << "," << t.grid.y << ","
       << t.grid.z << "],\"block\":[" << t.block.x << "," << t.block.y << "," << t.block.z
       << "],\"workgroups\":" << t.workgroups << ",\"waves_per_workgroup\":" << t.waves_per_workgroup
       << ",\"workgroups_per_cu\":" << t.workgroups_per_cu
       << ",\"occupancy_limiter\":" << quoted(t.occupancy_limiter) << ",\"busiest_cu_workgroups\":" << t.busiest_cu_workgroups
       << ",\"scratch_bytes_per_lane\":" << t.scratch_bytes_per_lane
       << ",\"cu_cycles\":" << t.cu_cycles << ",\"sampled_share\":" << t.sampled_share << ",\"clock_ghz\":" << t.clock_ghz << ",\"cu_us\":" << t.cu_us << ",\"hbm_floor_us\":" << t.hbm_floor_us
       << ",\"l2_floor_us\":" << t.l2_floor_us << ",\"mall_floor_us\":" << t.mall_floor_us
       << ",\"kernel_us\":" << t.kernel_us << ",\"bytes_requested\":" << t.bytes_requested
       << ",\"mall_bytes\":" << t.mall_bytes << ",\"footprint_bytes\":" << t.footprint_bytes
       << ",\"l2_hit_rate\":" << t.l2_hit_rate
       << ",\"mfma_busy\":" << t.mfma_busy << ",\"valu_busy\":" << t.valu_busy << ",\"lds_busy\":" << t.lds_busy
       << ",\"vmem_busy\":" << t.vmem_busy << ",\"idle\":" << t.idle << ",\"stalls\":{";
    for (size_t k = 0; k < t.stalls.size(); ++k)
      os << (k ? "," : "") << quoted(t.stalls[k].first) << ":" << t.stalls[k].second;
    os << "},\"hottest\":[";
    for (size_t k = 0; k < t.hottest.size(); ++k) {
      const isa::InstructionTime& h = t.hottest[k];
      os << (k ? "," : "") << "{\"addr\":" << h.addr << ",\"mnemonic\":" << quoted(h.mnemonic)
         << ",\"line\":" << quoted(h.line) << ",\"issued\":" << h.issued << ",\"stall_cycles\":" << h.stall_cycles
         << ",\"top_reason\":" << quoted(h.top_reason) << "}";
    }
    os << "]}";
  }
  os << "]";
  return os.str();
}

}  // namespace

extern "C" {

// `spec`: "key=value" lines (Hardware's fields; "mfma.<mnemonic>=<cycles>"); NULL turns
// timing off. Returns 0, or -1 with the offending line copied into `error`.
int isa_rt_set_timing(const char* spec, char* error, size_t size) {
  if (spec == nullptr) {
    isa::set_timing(nullptr);
    return 0;
  }
  isa::Hardware hw;
  std::istringstream lines(spec);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    const size_t eq = line.find('=');
    char* end = nullptr;
    const double value = eq == std::string::npos ? 0 : strtod(line.c_str() + eq + 1, &end);
    if (eq == std::string::npos || end == line.c_str() + eq + 1 || !set_field(hw, line.substr(0, eq), value)) {
      snprintf(error, size, "no setting %s", line.c_str());
      return -1;
    }
  }
  if (const std::string missing = unset_settings(hw); !missing.empty()) {
    snprintf(error, size, "no value for %s", missing.c_str());
    return -1;
  }
  isa::set_timing(&hw);
  return 0;
}

// `report` hears how far a timed launch is (isa::set_progress); NULL: nobody listens.
void isa_rt_set_progress(void (*report)(double)) { isa::set_progress(report); }

// Nonzero: a timed launch like one before takes its timing (isa::remember_timings); zero forgets.
void isa_rt_remember_timings(int on) { isa::remember_timings(on != 0); }

// The timings since the last call as a JSON array, copied into `out` (NUL-terminated) when it
// fits; returns the length either way (the timings are taken: call with room enough).
size_t isa_rt_take_timings(char* out, size_t size) {
  const std::string json = to_json(isa::take_timings());
  if (json.size() < size) memcpy(out, json.c_str(), json.size() + 1);
  return json.size();
}

}  // extern "C"
