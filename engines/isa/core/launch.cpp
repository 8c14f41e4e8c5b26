// Dispatch: kernarg layout (explicit and hidden arguments), the workgroups of a grid (on worker
// threads), the waves of a workgroup interleaved between barriers, allocations and counters.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "wave.h"

namespace isa {
namespace {

std::mutex g_mutex;
std::map<uint64_t, detail::Allocation> g_allocations;
Stats g_stats;
int g_threads = 0;
std::unique_ptr<Hardware> g_hardware;  // set: launches are timed
void (*g_progress)(double) = nullptr;   // hears how far a timed launch is
// While set: the timings of launches so far, by everything a launch's timing depends on but the
// memory's contents (remember_timings).
std::unique_ptr<std::map<std::string, KernelTiming>> g_remembered;
std::vector<KernelTiming> g_timings;
double g_device_us = 0;  // the simulated device clock: timed kernel time so far

int thread_count() {
  if (g_threads > 0) return g_threads;
  if (const char* env = std::getenv("ISA_ENGINE_THREADS")) return std::max(1, atoi(env));
  return std::max(1, int(std::thread::hardware_concurrency()));
}

}  // namespace

void note_allocation(const void* base, size_t bytes, const std::string& what) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const uint64_t b = reinterpret_cast<uintptr_t>(base);
  g_allocations[b] = {b, b + bytes, what};
}

void forget_allocation(const void* base) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_allocations.erase(reinterpret_cast<uintptr_t>(base));
}

Stats stats() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_stats;
}

void reset_stats() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_stats = Stats{};
}

void set_threads(int threads) { g_threads = threads; }

double simulated_device_us() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_hardware ? g_device_us : -1.0;
}

void set_progress(void (*report)(double fraction)) { g_progress = report; }

void remember_timings(bool on) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_remembered = on ? std::make_unique<std::map<std::string, KernelTiming>>() : nullptr;
}

void detail::timing_progress(double fraction) {
  static auto last = std::chrono::steady_clock::now();
  const auto now = std::chrono::steady_clock::now();
  if (g_progress == nullptr || now - last < std::chrono::milliseconds(250)) return;
  last = now;
  g_progress(fraction);
}

void set_timing(const Hardware* hardware) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_hardware = hardware ? std::make_unique<Hardware>(*hardware) : nullptr;
}

std::vector<KernelTiming> take_timings() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return std::exchange(g_timings, {});
}

namespace detail {
namespace {

// Fills the kernarg segment: explicit arguments from hipLaunchKernel's pointers, in order,
// and the hidden ones (code object v5 implicit arguments) from the launch geometry.
void fill_kernargs(uint8_t* ka, const KernelInfo& k, Dim3 grid, Dim3 block, void** args, uint32_t dynamic_lds) {
  int explicit_index = 0;
  const uint32_t dims = grid.z * block.z > 1 ? 3 : (grid.y * block.y > 1 ? 2 : 1);
  for (const Arg& a : k.args) {
    uint8_t* p = ka + a.offset;
    auto put = [&](uint64_t v) { memcpy(p, &v, std::min<uint32_t>(a.size, 8)); };
    if (a.kind.rfind("hidden_", 0) != 0) {
      if (!args || !args[explicit_index]) throw Fault(k.symbol + ": argument " + std::to_string(explicit_index) + " missing");
      memcpy(p, args[explicit_index++], a.size);
      continue;
    }
    const std::string& h = a.kind;
    if (h == "hidden_block_count_x") put(grid.x);
    else if (h == "hidden_block_count_y") put(grid.y);
    else if (h == "hidden_block_count_z") put(grid.z);
    else if (h == "hidden_group_size_x") put(block.x);
    else if (h == "hidden_group_size_y") put(block.y);
    else if (h == "hidden_group_size_z") put(block.z);
    else if (h == "hidden_remainder_x" || h == "hidden_remainder_y" || h == "hidden_remainder_z") put(0);
    else if (h == "hidden_grid_dims") put(dims);
    else if (h == "hidden_dynamic_lds_size") put(dynamic_lds);
    else if (h == "hidden_private_base") put(kPrivateApertureHi);
    else if (h == "hidden_shared_base") put(kSharedApertureHi);
    else put(0);  // global offsets, hostcall/printf buffers, queues, completion action: none
  }
}

// A timed launch as its timing sees it: the kernel, its geometry, its arguments' bytes and the
// tensors' places (the timing model reads addresses, not values).
std::string timing_key(const Launch& L, const std::vector<uint8_t>& kernarg) {
  std::string key = L.k->symbol + '\0' + std::to_string(reinterpret_cast<uintptr_t>(L.co));
  for (uint32_t v : {L.grid.x, L.grid.y, L.grid.z, L.block.x, L.block.y, L.block.z, L.lds_bytes})
    key += ',' + std::to_string(v);
  key.append(reinterpret_cast<const char*>(kernarg.data()), kernarg.size());
  for (const Allocation& a : L.allocations)
    if (a.base != L.kernarg && a.base != L.dispatch_packet)  // this launch's own: elsewhere each time
      key += ',' + std::to_string(a.base) + '-' + std::to_string(a.end);
  return key;
}

void clear_race_shadow(Workgroup& g, const Launch& L) {
  if (!L.check_races) return;
  std::fill(g.writers.begin(), g.writers.end(), 0);
  std::fill(g.readers.begin(), g.readers.end(), 0);
}

}  // namespace

void start_workgroup(Workgroup& g, std::vector<std::unique_ptr<Wave>>& waves, const Launch& L) {
  const uint32_t threads = L.block.x * L.block.y * L.block.z;
  const size_t n = (threads + 63) / 64;
  while (waves.size() < n) waves.push_back(std::make_unique<Wave>());
  waves.resize(n);
  std::fill(g.lds.begin(), g.lds.end(), 0);
  clear_race_shadow(g, L);
  for (size_t k = 0; k < n; ++k) {
    memset(waves[k]->v, 0, sizeof(uint32_t) * 64 * (256 + 256));
    init_wave(*waves[k], int(k), g, L);
  }
}

void release_barrier(Workgroup& g, std::vector<std::unique_ptr<Wave>>& waves, const Launch& L) {
  for (auto& w : waves) w->at_barrier = false;
  clear_race_shadow(g, L);
}

void size_workgroup(Workgroup& g, const Launch& L) {
  g.lds.assign(std::max<uint32_t>(L.lds_allocated, 4), 0);
  if (L.check_races) {
    g.writers.assign(g.lds.size(), 0);
    g.readers.assign(g.lds.size(), 0);
    g.writer_pc.assign(g.lds.size(), 0);
  }
}

void set_workgroup_id(Workgroup& g, uint64_t linear, const Launch& L) {
  g.linear = uint32_t(linear);
  g.id[0] = uint32_t(linear % L.grid.x);
  g.id[1] = uint32_t((linear / L.grid.x) % L.grid.y);
  g.id[2] = uint32_t(linear / (uint64_t(L.grid.x) * L.grid.y));
}

namespace {

double env_seconds(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtod(v, nullptr) : 0.0;
}

// Fails the launch at the instruction of a wave that is still running, when the workgroup made
// no progress (a wave ending or a barrier released) for L.hang_s, or L.deadline_s has passed.
void stop_if_stalled(const Launch& L, const std::vector<std::unique_ptr<Wave>>& waves,
                     std::chrono::steady_clock::time_point progress) {
  using namespace std::chrono;
  std::string why;
  if (L.hang_s > 0 && duration<double>(steady_clock::now() - progress).count() >= L.hang_s)
    why = "no wave ended or met the others at a barrier for " + std::to_string(int(L.hang_s)) +
          " s: an endless loop, or a wait for another workgroup (this engine runs workgroups one after another)";
  else if (L.deadline_s > 0 && duration<double>(system_clock::now().time_since_epoch()).count() >= L.deadline_s)
    why = "the stage's time limit ran out in this launch, a wave here";
  if (why.empty()) return;
  for (auto& w : waves)
    if (!w->done && !w->at_barrier) fault(L, L.co->insts[size_t(w->pc)], why);
}

}  // namespace

void run_started_workgroup(Workgroup& g, std::vector<std::unique_ptr<Wave>>& waves, const Launch& L) {
  // Round robin between barriers; a quantum bounds the time one wave spins.
  constexpr uint64_t kQuantum = 1 << 16;
  const bool watched = L.hang_s > 0 || L.deadline_s > 0;
  auto progress = std::chrono::steady_clock::now();
  int settled_before = 0;
  for (;;) {
    int running = 0, waiting = 0, settled = 0;
    for (auto& w : waves) {
      if (!w->done && !w->at_barrier) run_wave(*w, g, L, kQuantum);
      settled += w->done || w->at_barrier;
      if (w->done) continue;
      ++running;
      if (w->at_barrier) ++waiting;
    }
    if (running == 0) break;
    if (waiting == running) {
      release_barrier(g, waves, L);
      settled = 0;
    }
    if (!watched) continue;
    if (settled != settled_before) progress = std::chrono::steady_clock::now();
    else stop_if_stalled(L, waves, progress);
    settled_before = settled;
  }
}

namespace {

void run_workgroup(Workgroup& g, std::vector<std::unique_ptr<Wave>>& waves, const Launch& L, Stats& local) {
  start_workgroup(g, waves, L);
  const int n = int(waves.size());
  run_started_workgroup(g, waves, L);
  for (int k = 0; k < n; ++k) {
    local.wave_instructions += waves[k]->instructions;
    local.mfma_instructions += waves[k]->mfmas;
    local.mfma_seconds += waves[k]->mfma_seconds;
    waves[k]->instructions = waves[k]->mfmas = 0;
    waves[k]->mfma_seconds = 0;
  }
  local.waves += uint64_t(n);
  local.workgroups += 1;
}

}  // namespace
}  // namespace detail

void launch(const CodeObject& code, const std::string& symbol, Dim3 grid, Dim3 block, void** args,
            uint32_t dynamic_lds) {
  using namespace detail;
  const auto t0 = std::chrono::steady_clock::now();
  const auto& co = dynamic_cast<const CodeObjectImpl&>(code);
  auto it = co.kernels.find(symbol);
  if (it == co.kernels.end()) throw Fault("no kernel " + symbol + " in the code object");
  const KernelInfo& k = it->second;
  const uint32_t threads = block.x * block.y * block.z;
  if (threads == 0 || threads > 1024) throw Fault(symbol + ": block of " + std::to_string(threads) + " work-items");
  if (uint64_t(grid.x) * grid.y * grid.z == 0) return;

  Launch L;
  L.co = &co;
  L.k = &k;
  L.grid = grid;
  L.block = block;
  L.lds_bytes = k.group_segment + dynamic_lds;
  L.hang_s = env_seconds("WORKBENCH_HANG_S");
  L.deadline_s = env_seconds("WORKBENCH_DEADLINE");
  if (L.lds_bytes > 65536) throw Fault(symbol + ": " + std::to_string(L.lds_bytes) + " bytes of LDS exceed 64 KiB");
  // NOTE: gfx942 allocates LDS in 512-byte granules (LLVM AMDGPUUsage): an access past the
  // kernel's own size but inside its last granule touches memory the workgroup really has.
  L.lds_allocated = (L.lds_bytes + 511) / 512 * 512;
  const uint32_t denorm32 = (k.rsrc1 >> 16) & 3, round = (k.rsrc1 >> 12) & 0xf;
  if (denorm32 != 3 || round != 0)
    throw Fault(symbol + ": float mode (denormals flushed or a non-default rounding) is not implemented");
  std::vector<uint8_t> kernarg(((k.kernarg_size + 255) & ~255u) + 256, 0);
  fill_kernargs(kernarg.data(), k, grid, block, args, dynamic_lds);
  L.kernarg = reinterpret_cast<uintptr_t>(kernarg.data());
  // hsa_kernel_dispatch_packet_t: workgroup sizes at 4.., grid sizes (work-items) at 12..
  alignas(64) uint8_t packet[64] = {};
  const uint16_t setup = uint16_t(grid.z * block.z > 1 ? 3 : grid.y * block.y > 1 ? 2 : 1);
  const uint16_t wg[3] = {uint16_t(block.x), uint16_t(block.y), uint16_t(block.z)};
  const uint32_t gs[3] = {grid.x * block.x, grid.y * block.y, grid.z * block.z};
  memcpy(packet + 2, &setup, 2);
  memcpy(packet + 4, wg, 6);
  memcpy(packet + 12, gs, 12);
  memcpy(packet + 24, &k.private_segment, 4);
  memcpy(packet + 28, &L.lds_bytes, 4);
  memcpy(packet + 40, &L.kernarg, 8);
  L.dispatch_packet = reinterpret_cast<uintptr_t>(packet);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_allocations.empty()) {
      for (auto& [base, a] : g_allocations) L.allocations.push_back(a);
      const uint64_t img = reinterpret_cast<uintptr_t>(co.image.data());
      L.allocations.push_back({img, img + co.image.size(), "the code object"});
      L.allocations.push_back({L.kernarg, L.kernarg + kernarg.size(), "the kernarg segment"});
      L.allocations.push_back({L.dispatch_packet, L.dispatch_packet + 64, "the dispatch packet"});
      std::sort(L.allocations.begin(), L.allocations.end(),
                [](const Allocation& a, const Allocation& b) { return a.base < b.base; });
    }
  }

  if (g_hardware) {
    std::string key;
    std::optional<KernelTiming> known;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      if (g_remembered) {
        key = timing_key(L, kernarg);
        if (auto it = g_remembered->find(key); it != g_remembered->end()) known = it->second;
      }
    }
    KernelTiming timing = known ? *known : time_launch(L, *g_hardware);
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_remembered && !known) (*g_remembered)[key] = timing;
    g_stats.launches += 1;
    g_stats.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    g_device_us += timing.kernel_us;
    g_timings.push_back(std::move(timing));
    return;
  }
  const uint64_t groups = uint64_t(grid.x) * grid.y * grid.z;
  std::atomic<uint64_t> next{0};
  std::mutex fault_mutex;
  std::string first_fault;
  std::atomic<bool> failed{false};
  Stats total;
  auto worker = [&] {
    Workgroup g;
    size_workgroup(g, L);
    std::vector<std::unique_ptr<Wave>> waves;
    Stats local;
    try {
      for (uint64_t id; !failed && (id = next.fetch_add(1)) < groups;) {
        set_workgroup_id(g, id, L);
        run_workgroup(g, waves, L, local);
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(fault_mutex);
      if (!failed.exchange(true)) {
        first_fault = e.what();
        first_fault += " [workgroup (" + std::to_string(g.id[0]) + "," + std::to_string(g.id[1]) + "," +
                       std::to_string(g.id[2]) + ")]";
      }
    }
    std::lock_guard<std::mutex> lock(fault_mutex);
    total.wave_instructions += local.wave_instructions;
    total.mfma_instructions += local.mfma_instructions;
    total.mfma_seconds += local.mfma_seconds;
    total.waves += local.waves;
    total.workgroups += local.workgroups;
  };
  const int n = int(std::min<uint64_t>(uint64_t(thread_count()), groups));
  if (n <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < n; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_stats.launches += 1;
    g_stats.workgroups += total.workgroups;
    g_stats.waves += total.waves;
    g_stats.wave_instructions += total.wave_instructions;
    g_stats.mfma_instructions += total.mfma_instructions;
    g_stats.mfma_seconds += total.mfma_seconds;
    g_stats.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (failed) throw Fault(first_fault);
}

}  // namespace isa
