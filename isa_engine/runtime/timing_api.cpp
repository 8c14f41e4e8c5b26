// The timing model's C interface for isa_engine's Python side (ctypes): turn timing on with a
// hardware description, and take the timings of the launches since, as JSON.
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include "engine.h"

namespace {

// Hardware fields by name, so the Python side can set any of them ("key=value" lines).
bool set_field(isa::Hardware& hw, const std::string& key, double value) {
  const std::map<std::string, double*> reals = {
      {"clock_ghz", &hw.clock_ghz}, {"lds_bytes_per_clk", &hw.lds_bytes_per_clk},
      {"lds_port_bytes_per_clk", &hw.lds_port_bytes_per_clk}, {"valu_power_weight", &hw.valu_power_weight},
      {"memory_queueing", &hw.memory_queueing},
      {"maf_fp8_clock_ghz", &hw.maf_fp8_clock_ghz},
      {"cu_vmem_bytes_per_clk", &hw.cu_vmem_bytes_per_clk}, {"l2_bytes_per_clk_per_xcd", &hw.l2_bytes_per_clk_per_xcd},
      {"hbm_bytes_per_s", &hw.hbm_bytes_per_s}, {"valu_cycles", &hw.valu_cycles}, {"trans_cycles", &hw.trans_cycles},
      {"salu_latency", &hw.salu_latency}, {"lds_latency", &hw.lds_latency},
      {"lds_instruction_cycles", &hw.lds_instruction_cycles}, {"l2_latency", &hw.l2_latency},
      {"mall_latency", &hw.mall_latency}, {"hbm_latency", &hw.hbm_latency}, {"mall_bytes_per_s", &hw.mall_bytes_per_s},
      {"l2_reuse_capture", &hw.l2_reuse_capture}, {"store_bytes_per_s", &hw.store_bytes_per_s},
      {"smem_latency", &hw.smem_latency}, {"barrier_cycles", &hw.barrier_cycles},
      {"workgroup_launch_cycles", &hw.workgroup_launch_cycles}, {"l1_latency", &hw.l1_latency}};
  const std::map<std::string, uint32_t*> counts = {
      {"cus", &hw.cus}, {"xcds", &hw.xcds}, {"lds_banks", &hw.lds_banks},
      {"l1_bytes", &hw.l1_bytes}, {"l1_line_bytes", &hw.l1_line_bytes}, {"l2_bytes_per_xcd", &hw.l2_bytes_per_xcd}};
  if (key.rfind("mfma.", 0) == 0) {
    hw.mfma_cycles.emplace_back(key.substr(5), value);
    return true;
  }
  if (auto it = reals.find(key); it != reals.end()) return *it->second = value, true;
  if (auto it = counts.find(key); it != counts.end()) return *it->second = uint32_t(value), true;
  return false;
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
       << ",\"cu_cycles\":" << t.cu_cycles << ",\"clock_ghz\":" << t.clock_ghz << ",\"cu_us\":" << t.cu_us << ",\"hbm_floor_us\":" << t.hbm_floor_us
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
      snprintf(error, size, "%s", line.c_str());
      return -1;
    }
  }
  isa::set_timing(&hw);
  return 0;
}

// The timings since the last call as a JSON array, copied into `out` (NUL-terminated) when it
// fits; returns the length either way (the timings are taken: call with room enough).
size_t isa_rt_take_timings(char* out, size_t size) {
  const std::string json = to_json(isa::take_timings());
  if (json.size() < size) memcpy(out, json.c_str(), json.size() + 1);
  return json.size();
}

}  // extern "C"
