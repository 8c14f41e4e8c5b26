// Timing model: one launch on a simulated MI300X, cycle-approximate. The busiest CU runs here
// in cycle detail (each wave executed by the functional engine when the cycle model lets it
// issue); the rest of the grid enters as bandwidth floors. docs/predictor.md ("The timing
// model") describes the model and its constants once; the comments below say how each part
// is done.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <list>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "occupancy.h"
#include "steady_state.h"
#include "wave.h"

namespace isa::detail {
namespace {

enum Pipe : uint8_t { P_SALU, P_SMEM, P_VALU, P_LDS, P_VMEM, P_BRANCH, P_COUNT };
enum Stall : uint8_t { S_DEPENDENCY, S_VMCNT, S_LGKMCNT, S_BARRIER, S_MFMA_BUSY, S_VALU_BUSY, S_ISSUE, S_NOP,
                       S_COUNT };
const char* const kStallNames[S_COUNT] = {"register dependency", "s_waitcnt vmcnt", "s_waitcnt lgkmcnt",
                                          "s_barrier",           "MFMA pipe busy",  "VALU busy",
                                          "issue slot taken",    "s_nop/s_sleep"};
constexpr int kSimds = 4;
constexpr double kCycleLimit = 2e9;  // about a second of MI300X time for one CU
// The highest busy share a level's queue is charged at: an M/M/1 wait diverges at full use, while
// a kernel's requests in flight are finite.
constexpr double kMaxQueueUse = 0.9;
constexpr int kRegs = 128 + 512;  // SGPR operand codes 0..127, then v0..v255, a0..a255

// The bytes a logged list of accesses moved.
double bytes_in(const std::vector<std::pair<uint64_t, uint32_t>>& accesses) {
  double bytes = 0;
  for (const auto& access : accesses) bytes += access.second;
  return bytes;
}

bool is_mfma(const Inst& i) { return strncmp(i.name, "v_mfma", 6) == 0 || strncmp(i.name, "v_smfmac", 8) == 0; }

Pipe pipe_of(const Inst& i) {
  switch (i.fmt) {
    case F_SOP1: case F_SOP2: case F_SOPC: case F_SOPK: return P_SALU;
    case F_SOPP: return P_BRANCH;
    case F_SMEM: return P_SMEM;
    case F_DS: return P_LDS;
    case F_FLAT: case F_GLOBAL: case F_SCRATCH: case F_MUBUF: case F_MTBUF: return P_VMEM;
    default: return P_VALU;
  }
}

bool is_transcendental(const Inst& i) {
  switch (i.op) {
    case OP_v_exp_f32: case OP_v_log_f32: case OP_v_rcp_f32: case OP_v_rcp_iflag_f32: case OP_v_rsq_f32:
    case OP_v_sqrt_f32: case OP_v_rcp_f64: case OP_v_sqrt_f64: case OP_v_rsq_f64: return true;
    default: return false;
  }
}

// The phase in which the LDS serves lane `lane` of a ds_read_b128: eight groups of eight lanes,
// each a quad with its partner quad of the same half-wave (0-3 with 20-23, 4-7 with 16-19,
// 8-11 with 28-31, 12-15 with 24-27; 32-63 alike). AMD's Composable Kernel documentation,
// "Understanding AMD GPU LDS and Bank Conflicts" (docs/conceptual/ck_tile/hardware).
size_t ds_read_b128_phase(int lane) {
  const int quad = (lane % 32) / 4;
  return size_t((lane / 32) * 4 + (quad < 4 ? quad : quad ^ 5));
}

int reg_index(uint16_t code) {
  if (code < 128) return code;
  if (code >= 256 && code < 768) return 128 + (code - 256);
  return -1;  // constants, literals
}

struct TimedWave {
  Wave* w = nullptr;
  int group = 0, simd = 0;
  double ready = 0;            // earliest issue cycle (s_nop, workgroup launch)
  Stall ready_reason = S_NOP;
  std::deque<double> vm, lgkm;  // completion cycles of outstanding operations, in issue order
  std::array<double, kRegs> reg_ready{};
  Stall last = S_ISSUE;  // why it last could not issue
  std::vector<LoopTrack> loops;  // the loops it is in, for the sampled simulation
};

// An operation counted by `counter` finishes at `at`, but its count drops in issue order: not
// before the operations issued ahead of it.
void complete(std::deque<double>& counter, double at) {
  counter.push_back(counter.empty() ? at : std::max(at, counter.back()));
}

struct Group {
  Workgroup g;
  std::vector<std::unique_ptr<Wave>> waves;
  std::vector<int> timed;  // indices into the CU's wave table
  bool active = false;
};

struct PerInst {
  uint64_t issued = 0;
  std::array<double, S_COUNT> stall{};
};

// Sampled simulation: a loop is judged once the CU has run kMinCheckpoints - 1 iterations of it,
// the workgroups once it has finished kMinRounds - 1 rounds (the first of either a warm-up, left
// out); iterations skipped at once are at least kMinSkip; a wave keeps its loop's last
// kTailIterations simulated; a probe of a wave's remaining iterations runs at most kProbeSteps
// instructions. A settling pass (time_launch) runs kSettlingShare of the CU's instructions, when
// that is at least kMinSettlingWindow (a shorter start is no sample of the launch's rates: the
// prologue's loads, the first tiles).
constexpr size_t kMinCheckpoints = 8, kMinRounds = 7;
constexpr double kSettlingShare = 0.125, kMinSettlingWindow = 1 << 18;
constexpr uint64_t kMinSkip = 8, kTailIterations = 2, kProbeSteps = uint64_t(1) << 26;
constexpr uint64_t kNever = ~uint64_t(0);

// Where the L1 misses of each allocation are served, as shares of its missed lines (from the
// lines one workgroup touches and how many workgroups there are): a line the grid reads R
// times comes from HBM once; on each XCD its first reader misses the L2 and is served by the
// Infinity Cache, which holds every footprint here (256 MB); later readers on the XCD hit the
// L2 for the part `l2_reuse_capture` of them.
struct Served {
  double l2 = 0, mall = 0, hbm = 1;
};

struct GridReuse {
  std::vector<Served> per_allocation;  // by index into Launch::allocations
  Served scratch{1, 0, 0};             // spills: from the L2 they were written through (grid_reuse: as far as they fit)
  double footprint_bytes = 0;          // distinct bytes the grid touches in its allocations
  double instructions = 0;             // the instructions workgroup 0's waves ran
  bool known = false;                  // allocations were noted (else: first touch everywhere)
};

// Runs workgroup 0 functionally (its stores undone) to see which lines of which allocations a
// workgroup touches, and derives where the grid's L1 misses are served.
GridReuse grid_reuse(const Launch& L, const Hardware& hw, uint64_t workgroups, double resident_waves_per_cu) {
  GridReuse r;
  if (L.allocations.empty()) return r;
  r.known = true;
  // Spills: every resident wave's scratch is live at once, and an XCD's L2 holds what of its
  // CUs' scratch fits (the busiest XCD's: workgroups are dealt round robin over the XCDs); the
  // rest comes back from the Infinity Cache.
  const double cus_per_xcd = std::min(std::ceil(double(workgroups) / hw.xcds), double(hw.cus / hw.xcds));
  const double scratch_per_xcd = double(L.k->private_segment) * 64 * resident_waves_per_cu * cus_per_xcd;
  if (scratch_per_xcd > hw.l2_bytes_per_xcd) {
    r.scratch.l2 = hw.l2_bytes_per_xcd / scratch_per_xcd;
    r.scratch.mall = 1 - r.scratch.l2;
  }
  Workgroup g;
  size_workgroup(g, L);
  set_workgroup_id(g, 0, L);
  std::vector<std::unique_ptr<Wave>> waves;
  start_workgroup(g, waves, L);
  AccessLog log;
  log.keep_old = true;
  for (auto& w : waves) w->log = &log;
  try {
    run_started_workgroup(g, waves, L);
    for (const auto& w : waves) r.instructions += double(w->instructions);
  } catch (const Fault&) {
    // Workgroup 0 alone cannot finish (it waits for others): no reuse known. The timed run
    // below says why, if it cannot finish either.
    log.undo();
    for (auto& w : waves) w->log = nullptr;
    return GridReuse{};
  }
  std::vector<std::unordered_set<uint64_t>> lines(L.allocations.size());
  for (auto& [addr, bytes] : log.global) {
    auto it = first_allocation_above(L, addr);
    if (it == L.allocations.begin()) continue;
    const size_t a = size_t(std::prev(it) - L.allocations.begin());
    for (uint64_t l = addr / 128; l <= (addr + bytes - 1) / 128; ++l) lines[a].insert(l);
  }
  log.undo();
  for (auto& w : waves) w->log = nullptr;
  r.per_allocation.resize(L.allocations.size());
  for (size_t a = 0; a < lines.size(); ++a) {
    if (lines[a].empty()) continue;
    const double size = double(L.allocations[a].end - L.allocations[a].base);
    const double requested = double(workgroups) * double(lines[a].size()) * 128;
    const double footprint = std::max(std::min(size, requested), 128.0);
    const double reads = std::max(1.0, requested / footprint);        // R: readers of a line, grid-wide
    const double on_xcd = 1 + (reads - 1) / double(hw.xcds);          // readers on its XCD
    Served& s = r.per_allocation[a];
    s.hbm = 1 / reads;
    s.l2 = std::min(1 - s.hbm, hw.l2_reuse_capture * (on_xcd - 1) / on_xcd);
    s.mall = 1 - s.hbm - s.l2;
    r.footprint_bytes += footprint;
  }
  return r;
}

class CuModel {
 public:
  CuModel(const Launch& L, const Hardware& hw, const GridReuse& reuse)
      : L_(L), hw_(hw), reuse_(reuse), insts_(L.co->insts), probe_launch_(L) {
    probe_launch_.check_races = false;  // a probe's accesses are not the kernel's
    probe_launch_.quiet = true;
    std::unordered_map<std::string, double> by_name;
    for (const auto& m : machine::kMfmaCycles) by_name[m.mnemonic] = m.cycles;
    for (auto& [name, cycles] : hw.mfma_cycles) by_name[name] = cycles;
    mfma_cycles_.reserve(insts_.size());
    for (const Inst& i : insts_) mfma_cycles_.push_back(is_mfma(i) ? cycles_of_mfma(i, by_name) : 0);
  }

  // The CU's share of each level's bandwidth, bytes per clock.
  struct Shares { double l2 = 64, mall = 64, hbm = 64, store = 64; };
  // Each level's load-to-use latency under the grid's load (with its queue's wait), cycles.
  struct Latencies { double l2 = 0, mall = 0, hbm = 0; };
  // Runs `ids` on one CU, at most `resident` workgroups at a time; returns its cycles.
  double run(const std::vector<uint64_t>& ids, uint32_t resident, const Shares& shares, const Latencies& latencies);
  double pass_share = 1, pass_start = 0;  // of the launch's timing: this run's part, and where it starts
  // A settling pass (time_launch) only sets the next pass's shares, latencies and clock, which
  // follow from rates (bytes and busy cycles a cycle): it stops once the CU has issued
  // `settling` instructions and scales its cycles and counts by the CU's instructions (its
  // workgroups times workgroup 0's, grid_reuse) over those issued. 0: the whole run.
  double settling = 0;

  double l2_bytes = 0, l2_hit_bytes = 0, mall_bytes = 0;  // the CU's L1 misses and where they were served
  std::unordered_set<uint64_t> lines_touched;  // 128-byte lines, when no allocation is known
  std::array<double, kSimds> mfma_busy{}, valu_busy{}, idle{};
  double lds_busy = 0, vmem_busy = 0;
  std::array<double, S_COUNT> stalls{};
  std::vector<PerInst> per_inst;
  double skipped_cycles = 0;  // of the cycles run returns: those of iterations skipped, not simulated

 private:
  // What the CU's cycles went to so far: the counts a skipped iteration adds to.
  struct Counters {
    double l2_bytes = 0, l2_hit_bytes = 0, mall_bytes = 0, lds_busy = 0, vmem_busy = 0;
    std::array<double, kSimds> mfma_busy{}, valu_busy{}, idle{};
    std::array<double, S_COUNT> stalls{};
    std::vector<PerInst> per_inst;
    double vmem_backlog = 0, store_backlog = 0;  // how far the CU's memory and write paths are booked ahead
  };
  Counters counters(double now) const;
  double issued() const {
    double n = 0;
    for (const PerInst& p : per_inst) n += double(p.issued);
    return n;
  }
  double extrapolate(double times, double cycles);
  void add_per_iteration(const Counters& first, const Counters& last, double iterations, double times);

  const Launch& L_;
  const Hardware& hw_;
  const GridReuse& reuse_;
  const std::vector<Inst>& insts_;
  std::vector<double> mfma_cycles_;  // per instruction: its MFMA's execution cycles, 0 for any other
  mutable std::vector<uint64_t> units_;  // units_touched's buffer
  std::vector<TimedWave> waves_;
  std::vector<Group> groups_;
  // Each SIMD's waves of the active workgroups (indices into waves_), in workgroup-slot order:
  // the order in which they try to issue.
  std::array<std::vector<int>, kSimds> on_simd_;
  std::array<double, kSimds> valu_free_{}, mfma_free_{};
  std::array<double, kSimds / 2> lds_port_free_{};  // SIMDs 2p and 2p + 1 share port p
  double vmem_free_ = 0, store_free_ = 0;  // the CU's vector memory path; its stores' write path
  Shares shares_;
  Latencies latencies_;
  std::list<uint64_t> l1_order_;  // vector L1 lines, most recent first
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> l1_;
  AccessLog log_;
  std::array<int, kSimds> resident_{};  // waves resident per SIMD
  Launch probe_launch_;  // the launch as a probe runs it
  struct Checkpoint {
    double now;
    Counters counters;
    size_t live = 0;  // the waves then live: a checkpoint of another number does not compare
  };
  // A loop of the CU's waves: their arrivals at its head, and at every live waves' worth of them
  // (an iteration of the CU's) the cycle, skipped ones included, and the counters.
  struct CuLoop {
    LoopTrack code;  // head and branch
    uint64_t arrivals = 0;
    std::vector<Checkpoint> checkpoints;  // since the waves last entered it
  };
  std::vector<CuLoop> loops_;
  uint64_t finished_ = 0;           // workgroups the CU finished
  std::vector<Checkpoint> rounds_;  // at every round of them (one workgroup per slot), since the last skip

  void admit(Group& grp, uint64_t id, double now);
  void index_simds();
  size_t finished_in_slots() const {  // slots whose workgroup is done (the last round's)
    return size_t(std::count_if(groups_.begin(), groups_.end(), [](const Group& g) { return !g.active; }));
  }
  void took_backward_branch(TimedWave& tw, int32_t branch_pc, double now);
  double settled_cycles(const std::vector<Checkpoint>& kept) const;
  void skip_steps(const std::vector<Checkpoint>& kept, double cycles, uint64_t steps);
  uint64_t rounds_to_skip(uint64_t waiting, double now);
  std::vector<TimedWave*> live_waves();
  void skip_settled_iterations(CuLoop& loop, const std::vector<TimedWave*>& live);
  uint64_t arrivals_left(const TimedWave& tw, const LoopTrack& track, uint64_t iterations);
  bool try_issue(TimedWave& tw, double now, std::array<bool, P_COUNT>& used);
  void account(TimedWave& tw, Stall why, double cycles = kSimds);
  double next_event(double now) const;
  bool blocked_by_wait(TimedWave& tw, double now, Stall& why) const;
  bool blocked_by_registers(const TimedWave& tw, const Inst& i, double now) const;
  void after_issue(TimedWave& tw, const Inst& i, double now);
  static double cycles_of_mfma(const Inst& i, const std::unordered_map<std::string, double>& by_name);
  double mfma_cycles(const Inst& i) const { return mfma_cycles_[size_t(&i - insts_.data())]; }
  bool mfma(const Inst& i) const { return mfma_cycles(i) > 0; }
  double lds_bank_cycles(bool b128_read, uint64_t exec) const;
  void use_lds_port(TimedWave& tw, double now, double bytes_in, double bytes_out, bool b128_read = false);
  const std::vector<uint64_t>& units_touched(uint64_t unit) const;
  const Served& served(uint64_t line) const;
  std::vector<uint64_t> l1_misses(bool allocate);
};

double CuModel::cycles_of_mfma(const Inst& i, const std::unordered_map<std::string, double>& by_name) {
  std::string name = i.name;
  for (const char* suffix : {"_e64", "_vop3p"})
    if (name.size() > strlen(suffix) && name.compare(name.size() - strlen(suffix), std::string::npos, suffix) == 0)
      name.resize(name.size() - strlen(suffix));
  auto it = by_name.find(name);
  if (it != by_name.end()) return it->second;
  // Not in the calculator table we were given: the output tile decides the pass count.
  if (name.find("32x32") != std::string::npos) return 32;
  if (name.find("4x4") != std::string::npos) return 8;
  return 16;
}

// Cycles of the LDS banks for the access just logged: lds_bytes_per_clk / 4 dwords per cycle,
// and within each such phase the distinct dwords of the busiest bank. A phase is that many
// dwords in lane order, except for a ds_read_b128, whose phases are ds_read_b128_phase's lane
// groups (its k-th logged access is the k-th lane set in `exec`; lanes reading past the
// allocation log nothing, and then the lanes are taken in order).
double CuModel::lds_bank_cycles(bool b128_read, uint64_t exec) const {
  b128_read = b128_read && log_.lds.size() == size_t(__builtin_popcountll(exec));
  const uint32_t nbanks = std::min<uint32_t>(hw_.lds_banks, 64);
  const size_t per_cycle = size_t(std::max(1.0, hw_.lds_bytes_per_clk / 4));  // dwords served a cycle
  std::vector<std::pair<size_t, uint32_t>> dwords;  // (phase, dword address)
  for (auto& [addr, bytes] : log_.lds) {
    const size_t lane_phase = b128_read ? ds_read_b128_phase(__builtin_ctzll(exec)) : 0;
    exec &= exec - 1;
    for (uint32_t d = 0; d < std::max<uint32_t>(1, bytes / 4); ++d)
      dwords.emplace_back(b128_read ? lane_phase : dwords.size() / per_cycle, uint32_t(addr / 4) + d);
  }
  std::sort(dwords.begin(), dwords.end());
  dwords.erase(std::unique(dwords.begin(), dwords.end()), dwords.end());  // one bank read serves a dword's lanes
  double cycles = 0;
  std::array<size_t, 64> in_bank{};
  for (size_t k = 0; k < dwords.size(); ++k) {
    ++in_bank[dwords[k].second % nbanks];
    if (k + 1 == dwords.size() || dwords[k + 1].first != dwords[k].first) {
      cycles += double(std::max<size_t>(1, *std::max_element(in_bank.begin(), in_bank.end())));
      in_bank.fill(0);
    }
  }
  return std::max(cycles, std::ceil(bytes_in(log_.lds) / hw_.lds_bytes_per_clk));
}

// An LDS access (a DS instruction, or a FLAT one whose lanes address the LDS) holds its SIMD
// pair's port for the longer of the banks' cycles and the port's own: `bytes_in` (each lane's
// address dword and store data) then `bytes_out` (loaded data), at lds_port_bytes_per_clk a
// cycle (AMD's HIP hardware guide: a wave64 read of 4-byte values takes 8 cycles, of 16-byte
// values 20); at least lds_instruction_cycles. It queues behind the port's previous access
// and its data is back lds_latency after it leaves the port.
void CuModel::use_lds_port(TimedWave& tw, double now, double bytes_in, double bytes_out, bool b128_read) {
  const double port_cycles = std::ceil((bytes_in + bytes_out) / hw_.lds_port_bytes_per_clk);
  const double busy = std::max({lds_bank_cycles(b128_read, tw.w->exec()), port_cycles, hw_.lds_instruction_cycles});
  double& port = lds_port_free_[size_t(tw.simd / 2)];
  const double start = std::max(now, port);
  port = start + busy;
  lds_busy += busy;
  complete(tw.lgkm, start + busy + hw_.lds_latency);
}

// The distinct `unit`-byte blocks (segments, cache lines) the logged global and scratch access
// touched, in increasing order (a buffer of the model's, valid until the next call). Lanes
// usually walk memory upwards, so the sort is mostly a check.
const std::vector<uint64_t>& CuModel::units_touched(uint64_t unit) const {
  std::vector<uint64_t>& units = units_;
  units.clear();
  const bool power_of_two = (unit & (unit - 1)) == 0;
  const int shift = __builtin_ctzll(unit);
  const auto unit_of = [&](uint64_t addr) { return power_of_two ? addr >> shift : addr / unit; };
  for (const auto* list : {&log_.global, &log_.scratch})
    for (auto& [addr, bytes] : *list)
      for (uint64_t u = unit_of(addr), last = unit_of(addr + bytes - 1); u <= last; ++u)
        if (units.empty() || units.back() != u) units.push_back(u);
  if (!std::is_sorted(units.begin(), units.end())) std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  return units;
}

// Where a missed line (of the L1's line size) is served: its allocation's shares, the
// scratch's, or first touch when no allocation is known.
const Served& CuModel::served(uint64_t line) const {
  static const Served first_touch{};
  const uint64_t addr = line * std::max<uint32_t>(hw_.l1_line_bytes, 1);
  if (!reuse_.known) return first_touch;
  auto it = first_allocation_above(L_, addr);
  if (it != L_.allocations.begin() && addr < std::prev(it)->end) {
    const size_t a = size_t(std::prev(it) - L_.allocations.begin());
    return a < reuse_.per_allocation.size() ? reuse_.per_allocation[a] : first_touch;
  }
  return reuse_.scratch;  // not in any allocation: the waves' private memory
}

// Lines of the logged access the vector L1 does not hold (LRU; loads allocate, stores write
// through without allocating).
std::vector<uint64_t> CuModel::l1_misses(bool allocate) {
  const uint64_t line = std::max<uint32_t>(hw_.l1_line_bytes, 1);
  const size_t capacity = std::max<size_t>(1, hw_.l1_bytes / line);
  std::vector<uint64_t> misses;
  for (uint64_t l : units_touched(line)) {
    if (!reuse_.known) lines_touched.insert(l);
    auto it = l1_.find(l);
    if (it != l1_.end()) {
      l1_order_.splice(l1_order_.begin(), l1_order_, it->second);
      continue;
    }
    misses.push_back(l);
    if (!allocate) continue;
    l1_order_.push_front(l);
    l1_[l] = l1_order_.begin();
    if (l1_order_.size() > capacity) {
      l1_.erase(l1_order_.back());
      l1_order_.pop_back();
    }
  }
  return misses;
}

void CuModel::admit(Group& grp, uint64_t id, double now) {
  set_workgroup_id(grp.g, id, L_);
  start_workgroup(grp.g, grp.waves, L_);
  grp.active = true;
  grp.timed.clear();
  const int group_index = int(&grp - groups_.data());
  for (auto& w : grp.waves) {
    TimedWave tw;
    tw.w = w.get();
    tw.w->log = &log_;
    tw.group = group_index;
    // The dispatcher puts each wave on the SIMD holding the fewest waves (occupancy.h
    // guarantees room for the whole workgroup).
    tw.simd = int(std::min_element(resident_.begin(), resident_.end()) - resident_.begin());
    ++resident_[size_t(tw.simd)];
    tw.ready = now + hw_.workgroup_launch_cycles;
    grp.timed.push_back(int(waves_.size()));
    waves_.push_back(std::move(tw));
  }
}

void CuModel::index_simds() {
  for (auto& list : on_simd_) list.clear();
  for (const auto& grp : groups_)
    if (grp.active)
      for (int index : grp.timed) on_simd_[size_t(waves_[size_t(index)].simd)].push_back(index);
}

void CuModel::account(TimedWave& tw, Stall why, double cycles) {
  tw.last = why;
  stalls[why] += cycles;
  per_inst[size_t(tw.w->pc)].stall[why] += cycles;
}

// The earliest cycle after `now` at which something that keeps a wave from issuing clears
// (infinity: nothing pending). Nothing can issue before it, so the clock may jump there.
double CuModel::next_event(double now) const {
  double next = std::numeric_limits<double>::infinity();
  auto consider = [&](double t) { if (t > now) next = std::min(next, t); };
  for (const auto& grp : groups_) {
    if (!grp.active) continue;
    for (int index : grp.timed) {
      const TimedWave& tw = waves_[size_t(index)];
      if (tw.w->done || tw.w->at_barrier) continue;
      consider(tw.ready);
      if (!tw.vm.empty()) consider(tw.vm.front());
      if (!tw.lgkm.empty()) consider(tw.lgkm.front());
      consider(mfma_free_[size_t(tw.simd)]);
      consider(valu_free_[size_t(tw.simd)]);
      if (tw.w->pc < 0 || size_t(tw.w->pc) >= insts_.size()) return now;
      const Inst& i = insts_[size_t(tw.w->pc)];
      for (int k = 0; k < 3; ++k) {
        const int r = reg_index(i.src[k]);
        if (r < 0 || i.w[k] == 0) continue;
        for (int d = 0; d < i.w[k] && r + d < kRegs; ++d) consider(tw.reg_ready[size_t(r + d)]);
      }
    }
  }
  return next;
}

// s_waitcnt: blocked while more operations are outstanding than the counters allow.
bool CuModel::blocked_by_wait(TimedWave& tw, double now, Stall& why) const {
  const Inst& i = insts_[size_t(tw.w->pc)];
  if (i.op != OP_s_waitcnt) return false;
  const uint32_t s = uint16_t(i.simm16);
  const size_t vm = (s & 0xf) | ((s >> 10) & 0x30), lgkm = (s >> 8) & 0xf;
  while (!tw.vm.empty() && tw.vm.front() <= now) tw.vm.pop_front();
  while (!tw.lgkm.empty() && tw.lgkm.front() <= now) tw.lgkm.pop_front();
  if (tw.vm.size() > vm) { why = S_VMCNT; return true; }
  if (tw.lgkm.size() > lgkm) { why = S_LGKMCNT; return true; }
  return false;
}

bool CuModel::blocked_by_registers(const TimedWave& tw, const Inst& i, double now) const {
  const bool is_mfma = mfma(i);
  for (int k = 0; k < 3; ++k) {
    if (is_mfma && k == 2) continue;  // the accumulator is forwarded within the MFMA pipe
    const int r = reg_index(i.src[k]);
    if (r < 0 || i.w[k] == 0) continue;
    for (int d = 0; d < i.w[k] && r + d < kRegs; ++d)
      if (tw.reg_ready[size_t(r + d)] > now) return true;
  }
  return false;
}

void CuModel::after_issue(TimedWave& tw, const Inst& i, double now) {
  const Pipe pipe = pipe_of(i);
  auto set_dst = [&](uint16_t code, int width, double at) {
    const int r = reg_index(code);
    if (r < 0) return;
    for (int d = 0; d < std::max(1, width) && r + d < kRegs; ++d) tw.reg_ready[size_t(r + d)] = at;
  };
  switch (pipe) {
    case P_VALU: {
      if (mfma(i)) {
        const double c = mfma_cycles(i);
        mfma_free_[size_t(tw.simd)] = now + c;
        mfma_busy[size_t(tw.simd)] += c;
        set_dst(i.dst, i.w[3], now + c + 2);
        valu_free_[size_t(tw.simd)] = now + hw_.valu_cycles;
        break;
      }
      const double c = is_transcendental(i) ? hw_.trans_cycles : hw_.valu_cycles;
      valu_free_[size_t(tw.simd)] = now + c;
      valu_busy[size_t(tw.simd)] += c;
      const bool to_sgpr = i.dst < 128;
      set_dst(i.dst, i.w[3], now + c + (to_sgpr ? hw_.salu_latency : 0));
      if (i.sdst != 0xffff) set_dst(i.sdst, 2, now + c + hw_.salu_latency);
      break;
    }
    case P_SALU:
      set_dst(i.dst, i.w[3], now + hw_.salu_latency);
      break;
    case P_SMEM:
      complete(tw.lgkm, now + hw_.smem_latency);
      break;
    case P_LDS: {
      if (i.op == OP_ds_nop) break;
      const double lanes = double(__builtin_popcountll(tw.w->exec()));
      use_lds_port(tw, now, lanes * 4 * (1 + i.w[1] + i.w[2]), lanes * 4 * i.w[3], i.op == OP_ds_read_b128);
      break;
    }
    case P_VMEM: {
      // The CU's path moves every 64-byte segment; lines the L1 misses cross the L2 fabric and
      // are served by the L2, the Infinity Cache or HBM (served()), each at the CU's share of
      // that level's bandwidth: a busy level queues the CU's requests behind each other, so
      // latency grows with the requests in flight. Stores write through to the L2: they hold the
      // path while their data crosses it, then drain on the CU's write path at its shares of the
      // levels written and of the machine's store rate; reads return on their own path and do
      // not wait behind the drain.
      const double segments = double(units_touched(64).size());
      const bool load = i.op != OP_vm_store && i.op != OP_vm_atomic;
      // Spills the L2 cannot keep are written back to the Infinity Cache: memory-side writes, as
      // global stores are, leaving at the machine's store rate.
      const double written_back = load ? 0 : bytes_in(log_.scratch) * reuse_.scratch.mall;
      const double written = load ? 0 : bytes_in(log_.global) + written_back;
      const std::vector<uint64_t> missed = l1_misses(load);
      const double line = hw_.l1_line_bytes;
      double l2 = load ? 0 : segments * 64, l2_hit = 0, mall = written_back, hbm = 0, latency = 0, loaded = 0;
      for (uint64_t l : missed) {
        if (!load) break;
        const Served& at = served(l);
        l2 += line;
        l2_hit += at.l2 * line;
        mall += (at.mall + at.hbm) * line;
        hbm += at.hbm * line;
        latency += at.l2 * hw_.l2_latency + at.mall * hw_.mall_latency + at.hbm * hw_.hbm_latency;
        loaded += at.l2 * latencies_.l2 + at.mall * latencies_.mall + at.hbm * latencies_.hbm;
      }
      latency = missed.empty() || !load ? (load ? hw_.l1_latency : hw_.l2_latency) : latency / double(missed.size());
      const double queue_wait = missed.empty() || !load ? 0 : loaded / double(missed.size()) - latency;
      const double path = segments * 64 / hw_.cu_vmem_bytes_per_clk, start = std::max(now, vmem_free_);
      double done;
      if (load) {
        const double busy = std::max({path, l2 / shares_.l2, mall / shares_.mall, hbm / shares_.hbm});
        vmem_free_ = done = start + busy;
        vmem_busy += busy;
        latency += std::max(0.0, queue_wait - (start - now));  // the levels' queue, less the CU's own
      } else {
        vmem_free_ = start + path;
        const double drain = std::max({l2 / shares_.l2, mall / shares_.mall, written / shares_.store});
        store_free_ = done = std::max(start, store_free_) + drain;
        vmem_busy += std::max(path, drain);
      }
      l2_bytes += l2;
      l2_hit_bytes += l2_hit;
      mall_bytes += mall;
      complete(tw.vm, done + latency);
      if (i.fmt == F_FLAT && !log_.lds.empty()) {  // lanes that addressed the LDS: one access each
        const double lds = bytes_in(log_.lds), addresses = 4.0 * double(log_.lds.size());
        use_lds_port(tw, now, addresses + (load ? 0 : lds), load ? lds : 0);
      }
      break;
    }
    case P_BRANCH:
      if (i.op == OP_s_nop) {
        tw.ready = now + double((i.simm16 & 0xf) + 1);
        tw.ready_reason = S_NOP;
      } else if (i.op == OP_s_sleep) {
        tw.ready = now + 64.0 * (i.simm16 & 0x7f);
        tw.ready_reason = S_NOP;
      }
      break;
    default: break;
  }
}

bool CuModel::try_issue(TimedWave& tw, double now, std::array<bool, P_COUNT>& used) {
  Wave& w = *tw.w;
  if (w.pc < 0 || size_t(w.pc) >= insts_.size()) run_wave(w, groups_[size_t(tw.group)].g, L_, 1);  // faults
  if (w.at_barrier) { account(tw, S_BARRIER); return false; }
  if (tw.ready > now) { account(tw, tw.ready_reason); return false; }
  const Inst& i = insts_[size_t(w.pc)];
  Stall why;
  if (blocked_by_wait(tw, now, why)) { account(tw, why); return false; }
  if (blocked_by_registers(tw, i, now)) { account(tw, S_DEPENDENCY); return false; }
  const Pipe pipe = pipe_of(i);
  if (used[pipe]) { account(tw, S_ISSUE); return false; }
  if (pipe == P_VALU && mfma(i) && mfma_free_[size_t(tw.simd)] > now) { account(tw, S_MFMA_BUSY); return false; }
  if (pipe == P_VALU && valu_free_[size_t(tw.simd)] > now) { account(tw, S_VALU_BUSY); return false; }
  used[pipe] = true;
  const int32_t pc = w.pc;
  ++per_inst[size_t(pc)].issued;
  log_.clear();
  log_.keep_old = i.op == OP_vm_store || i.op == OP_vm_atomic;
  run_wave(w, groups_[size_t(tw.group)].g, L_, 1);
  after_issue(tw, i, now);
  if (i.fmt == F_SOPP && !w.done && w.pc <= pc && hw_.steady_state_tolerance > 0 && reuse_.known)
    took_backward_branch(tw, pc, now);
  return true;
}

// ---- sampled simulation ---------------------------------------------------------------------
// A workgroup finished, `waiting` more are still to come. Every round (as many workgroups as the
// CU holds at once) the cycle and the counters are kept; once the rounds after the first took
// the same cycles (their two halves within steady_state_tolerance), all but the last round of
// the waiting workgroups are skipped: each skipped round is charged the kept rounds' mean cycles
// and counts. Returns how many workgroups to skip.
uint64_t CuModel::rounds_to_skip(uint64_t waiting, double now) {
  const uint64_t round = groups_.size();
  if (hw_.steady_state_tolerance <= 0 || !reuse_.known || ++finished_ % round != 0) return 0;
  rounds_.push_back({now + skipped_cycles, counters(now)});
  if (rounds_.size() < kMinRounds || waiting < 2 * round) return 0;
  const double cycles = settled_cycles(rounds_);
  if (cycles <= 0) return 0;
  const uint64_t skip = waiting / round - 1;
  skip_steps(rounds_, cycles, skip);
  rounds_.clear();
  return skip * round;
}

// The mean cycles of a step (a round, an iteration of the CU's) between the kept checkpoints
// after the first, when the two halves of them took mean cycles within the tolerance; else 0.
double CuModel::settled_cycles(const std::vector<Checkpoint>& kept) const {
  const size_t from = 1, half = from + (kept.size() - from) / 2, to = kept.size() - 1;
  const double first = (kept[half].now - kept[from].now) / double(half - from);
  const double second = (kept[to].now - kept[half].now) / double(to - half);
  if (std::abs(first - second) > hw_.steady_state_tolerance * (first + second) / 2) return 0;
  return (kept[to].now - kept[from].now) / double(to - from);
}

// Charges `steps` skipped steps the mean cycles and counts of the kept checkpoints after the first.
void CuModel::skip_steps(const std::vector<Checkpoint>& kept, double cycles, uint64_t steps) {
  skipped_cycles += double(steps) * cycles;
  add_per_iteration(kept[1].counters, kept.back().counters, double(kept.size() - 2), double(steps));
}

// A settling pass stopped: the whole run's cycles and counts, `times` those so far.
double CuModel::extrapolate(double times, double cycles) {
  for (double* x : {&l2_bytes, &l2_hit_bytes, &mall_bytes, &lds_busy, &vmem_busy, &skipped_cycles}) *x *= times;
  for (int s = 0; s < kSimds; ++s) {
    mfma_busy[size_t(s)] *= times;
    valu_busy[size_t(s)] *= times;
    idle[size_t(s)] *= times;
  }
  for (double& x : stalls) x *= times;
  return cycles * times;
}

CuModel::Counters CuModel::counters(double now) const {
  return Counters{l2_bytes, l2_hit_bytes, mall_bytes, lds_busy,         vmem_busy,         mfma_busy,
                  valu_busy, idle,       stalls,     per_inst, vmem_free_ - now, store_free_ - now};
}

// Adds `times` iterations' worth of what the CU did from `first` to `last` (`iterations` apart).
void CuModel::add_per_iteration(const Counters& first, const Counters& last, double iterations, double times) {
  const double k = times / iterations;
  l2_bytes += k * (last.l2_bytes - first.l2_bytes);
  l2_hit_bytes += k * (last.l2_hit_bytes - first.l2_hit_bytes);
  mall_bytes += k * (last.mall_bytes - first.mall_bytes);
  lds_busy += k * (last.lds_busy - first.lds_busy);
  vmem_busy += k * (last.vmem_busy - first.vmem_busy);
  for (int s = 0; s < kSimds; ++s) {
    mfma_busy[size_t(s)] += k * (last.mfma_busy[size_t(s)] - first.mfma_busy[size_t(s)]);
    valu_busy[size_t(s)] += k * (last.valu_busy[size_t(s)] - first.valu_busy[size_t(s)]);
    idle[size_t(s)] += k * (last.idle[size_t(s)] - first.idle[size_t(s)]);
  }
  for (int r = 0; r < S_COUNT; ++r) stalls[size_t(r)] += k * (last.stalls[size_t(r)] - first.stalls[size_t(r)]);
  // A path booked further ahead each iteration (stores issued faster than they drain) would be
  // booked that much further after the skipped ones.
  vmem_free_ += std::max(0.0, k * (last.vmem_backlog - first.vmem_backlog));
  store_free_ += std::max(0.0, k * (last.store_backlog - first.store_backlog));
  for (size_t n = 0; n < per_inst.size(); ++n) {
    per_inst[n].issued += uint64_t(std::llround(k * double(last.per_inst[n].issued - first.per_inst[n].issued)));
    for (int r = 0; r < S_COUNT; ++r)
      per_inst[n].stall[size_t(r)] += k * (last.per_inst[n].stall[size_t(r)] - first.per_inst[n].stall[size_t(r)]);
  }
}

// A wave took a loop's branch back to its head. Every time the live waves have arrived there as
// often as there are of them (an iteration of the CU's), the cycle and the counters are kept,
// and once the CU's iterations have settled, the loop is skipped ahead.
void CuModel::took_backward_branch(TimedWave& tw, int32_t branch_pc, double now) {
  const int32_t head = tw.w->pc;
  LoopTrack& track = enter_loop(tw.loops, head, branch_pc);
  track.arrive(*tw.w, *L_.k);
  if (track.pending) {  // moved here, at the head, where its registers hold what the iterations carry
    advance(*tw.w, track, track.pending, *L_.k, L_.allocations);
    track.arrivals += std::exchange(track.pending, 0);
    track.snapshots.clear();  // of iterations before the move: they no longer say how registers step
  }
  for (CuLoop& l : loops_)  // loops inside this one: their waves enter them anew
    if (l.code.head != head && (head <= l.code.head && l.code.branch <= branch_pc)) l.checkpoints.clear();
  auto it = std::find_if(loops_.begin(), loops_.end(),
                         [&](const CuLoop& l) { return l.code.head == head && l.code.branch == branch_pc; });
  if (it == loops_.end()) {
    it = loops_.emplace(loops_.end());
    it->code.head = head;
    it->code.branch = branch_pc;
  }
  CuLoop& loop = *it;
  const std::vector<TimedWave*> live = live_waves();
  if (++loop.arrivals % live.size() != 0) return;
  if (!loop.checkpoints.empty() && loop.checkpoints.back().live != live.size()) loop.checkpoints.clear();
  loop.checkpoints.push_back({now + skipped_cycles, counters(now), live.size()});
  skip_settled_iterations(loop, live);
}

std::vector<TimedWave*> CuModel::live_waves() {
  std::vector<TimedWave*> live;
  for (auto& grp : groups_)
    if (grp.active)
      for (int index : grp.timed)
        if (!waves_[size_t(index)].w->done) live.push_back(&waves_[size_t(index)]);
  return live;
}

// When the CU's last iterations of `loop` took the same cycles (the two halves of the kept ones
// within steady_state_tolerance) and every live wave is in it, skips as many iterations as the
// wave furthest along has left after its next arrival, less kTailIterations: each wave moves
// forward by that many at its next arrival at the head (registers that are temporaries inside
// an iteration may hold anything in the middle of one), and each skipped iteration is charged
// the mean cycles and counts of the kept ones now. Each wave, moved, must then leave the loop
// after exactly the iterations the furthest one says are left (the waves share the loop's trip
// count), or nothing is skipped.
void CuModel::skip_settled_iterations(CuLoop& loop, const std::vector<TimedWave*>& live) {
  const std::vector<Checkpoint>& kept = loop.checkpoints;
  const double cycles = kept.size() < kMinCheckpoints ? 0 : settled_cycles(kept);
  if (cycles <= 0) return;
  std::vector<LoopTrack*> tracks;
  const TimedWave* ahead = nullptr;
  const LoopTrack* ahead_track = nullptr;
  for (TimedWave* tw : live) {
    auto it = std::find_if(tw->loops.begin(), tw->loops.end(), [&](const LoopTrack& t) {
      return t.head == loop.code.head && t.branch == loop.code.branch;
    });
    if (it == tw->loops.end() || !it->ready()) return;
    tracks.push_back(&*it);
    if (!ahead || it->arrivals > ahead_track->arrivals) ahead = tw, ahead_track = &*it;
  }
  const uint64_t left = arrivals_left(*ahead, *ahead_track, 0);
  if (left == kNever || left < 1 + kTailIterations + kMinSkip) return;
  const uint64_t total = ahead_track->arrivals + left, skip = left - 1 - kTailIterations;
  for (size_t n = 0; n < live.size(); ++n)
    if (tracks[n]->pending || arrivals_left(*live[n], *tracks[n], skip) != total - tracks[n]->arrivals - skip) return;
  for (LoopTrack* track : tracks) track->pending = skip;
  skip_steps(kept, cycles, skip);
  // The loops inside start over; those around it go on (a checkpoint's cycle counts skipped ones).
  for (CuLoop& l : loops_)
    if (loop.code.encloses(l.code.head, l.code.branch)) l.checkpoints.clear();
}

// How often `tw` arrives at the head of the loop `track` follows before it leaves the loop's code
// or ends, when it moves `iterations` forward at its next arrival (kNever: not within kProbeSteps
// instructions, or it faulted): a copy of it runs alone, its stores and LDS writes undone after.
uint64_t CuModel::arrivals_left(const TimedWave& tw, const LoopTrack& track, uint64_t iterations) {
  auto probe = std::make_unique<Wave>(*tw.w);
  AccessLog log;
  log.keep_old = true;
  probe->log = &log;
  Workgroup& g = groups_[size_t(tw.group)].g;
  const std::vector<uint8_t> lds = g.lds;
  uint64_t arrivals = kNever;
  try {
    uint64_t count = 0;
    for (uint64_t step = 0; step < kProbeSteps; ++step) {
      if (probe->done || !track.inside(probe->pc)) {
        arrivals = count;
        break;
      }
      probe->at_barrier = false;  // alone, it does not wait for the others
      const int32_t pc = probe->pc;
      run_wave(*probe, g, probe_launch_, 1);
      if (pc != track.branch || probe->pc != track.head) continue;
      if (++count == 1 && iterations) {
        LoopTrack moved = track;
        moved.arrive(*probe, *L_.k);
        advance(*probe, moved, iterations, *L_.k, L_.allocations);
      }
    }
  } catch (const Fault&) {
    arrivals = kNever;
  }
  log.undo();
  g.lds = lds;
  return arrivals;
}

double CuModel::run(const std::vector<uint64_t>& ids, uint32_t resident, const Shares& shares,
                    const Latencies& latencies) {
  shares_ = shares;
  latencies_ = latencies;
  per_inst.assign(insts_.size(), PerInst{});
  groups_.resize(std::max<uint32_t>(1, resident));
  for (auto& grp : groups_) size_workgroup(grp.g, L_);  // each slot's LDS, once
  size_t next_id = 0;
  double now = 0;
  for (auto& grp : groups_)
    if (next_id < ids.size()) admit(grp, ids[next_id++], now);
  index_simds();
  double end = 0;
  bool progressed = false;  // in this round of the 4 SIMDs: an issue, a barrier, a workgroup change
  for (;; now += 1) {
    if (now + skipped_cycles > kCycleLimit)
      throw Fault(L_.k->symbol + ": a timed workgroup ran past " + std::to_string(int64_t(kCycleLimit)) +
                  " cycles; a kernel that waits for other workgroups (a spin lock, stream-K) cannot be timed "
                  "on one CU");
    const int simd = int(int64_t(now) % kSimds);  // NOTE: `now` is always a whole cycle
    if ((int64_t(now) & 4095) == 0) {
      timing_progress(pass_start + pass_share * double(next_id - groups_.size() + finished_in_slots()) / double(ids.size()));
      if (settling > 0 && issued() >= settling) {
        for (auto& w : waves_) if (w.w) w.w->log = nullptr;
        log_.undo();
        return extrapolate(reuse_.instructions * double(ids.size()) / issued(), now + skipped_cycles);
      }
    }
    if (simd == 0) progressed = false;
    std::array<bool, P_COUNT> used{};
    bool simd_live = false, issued = false;
    for (int index : on_simd_[size_t(simd)]) {
      TimedWave& tw = waves_[size_t(index)];
      if (tw.w->done) continue;
      simd_live = true;
      issued |= try_issue(tw, now, used);
    }
    progressed |= issued;
    if (!simd_live) idle[size_t(simd)] += kSimds;
    if (std::none_of(groups_.begin(), groups_.end(), [](const Group& grp) { return grp.active; })) break;
    // A wave ends or reaches a barrier only by issuing: without an issue, no workgroup changed.
    if (issued) for (auto& grp : groups_) {
      if (!grp.active) continue;
      int live = 0, waiting = 0;
      for (int index : grp.timed) {
        const Wave& w = *waves_[size_t(index)].w;
        if (w.done) continue;
        ++live;
        if (w.at_barrier) ++waiting;
      }
      if (live == 0) {
        progressed = true;
        grp.active = false;
        end = now;
        next_id += rounds_to_skip(ids.size() - next_id, now);
        for (int index : grp.timed) {
          --resident_[size_t(waves_[size_t(index)].simd)];
          waves_[size_t(index)].loops.clear();
        }
        for (auto& w : grp.waves) w->log = nullptr;
        if (next_id < ids.size()) admit(grp, ids[next_id++], now);
        index_simds();
        for (CuLoop& loop : loops_) loop.checkpoints.clear();  // other waves share the CU now
      } else if (waiting == live) {
        progressed = true;
        release_barrier(grp.g, grp.waves, L_);
        for (int index : grp.timed) {
          TimedWave& tw = waves_[size_t(index)];
          tw.ready = std::max(tw.ready, now + hw_.barrier_cycles);
          tw.ready_reason = S_BARRIER;
        }
      }
    }
    // A whole round without progress: every wave waits on something in flight. Jump to the
    // first cycle where that can change, charging the skipped cycles as the waits they were.
    if (simd == kSimds - 1 && !progressed) {
      const double next = std::ceil(next_event(now)) - 1;
      if (std::isfinite(next) && next > now + kSimds) {
        const double skipped = next - now;
        std::array<bool, kSimds> live{};
        for (auto& grp : groups_) {
          if (!grp.active) continue;
          for (int index : grp.timed) {
            TimedWave& tw = waves_[size_t(index)];
            if (tw.w->done) continue;
            live[size_t(tw.simd)] = true;
            account(tw, tw.w->at_barrier ? S_BARRIER : tw.last, skipped);
          }
        }
        for (int k = 0; k < kSimds; ++k) if (!live[size_t(k)]) idle[size_t(k)] += skipped;
        now = next;
      }
    }
  }
  for (auto& w : waves_) if (w.w) w.w->log = nullptr;
  log_.undo();  // a timed launch leaves global memory as it found it (see time_launch)
  // The kernel ends when its last store has left the CU.
  return std::max({end, vmem_free_, store_free_}) + 1 + skipped_cycles;
}

// The busiest CU's time and the L2's floor at engine clock `ghz` (the L2 runs on the XCD's
// clock; the Infinity Cache's and HBM's floors do not depend on it), and the kernel's time.
void at_clock(KernelTiming& t, const Hardware& hw, double ghz) {
  t.clock_ghz = ghz;
  t.cu_us = t.cu_cycles / (ghz * 1e9) * 1e6;
  t.l2_floor_us = t.bytes_requested / (hw.l2_achieved_bytes_per_clk_per_xcd * hw.xcds * ghz * 1e9) * 1e6;
  t.kernel_us = std::max({t.cu_us, t.hbm_floor_us, t.mall_floor_us, t.l2_floor_us});
}

// The engine clock the power cap allows the launch. Dynamic power goes as switching activity
// times f^3 (the voltage follows the clock), and the FP8 max-achievable GEMM meets the cap at
// maf_fp8_clock_ghz with its MFMAs busy maf_fp8_flops_per_s / (fp8_flops_per_s scaled to that
// clock) of the time; a launch whose activity is A runs at that clock times the cube root of
// the GEMM's activity over A, at most the peak clock. A: the busiest CU's MFMA-busy share of a
// SIMD's cycles plus valu_power_weight times its VALU-busy share, over the CUs the grid
// occupies (idle CUs draw little). time_launch deals the memory levels at that clock.
double power_capped_clock_ghz(const KernelTiming& t, const Hardware& hw, double active_cus) {
  const double activity =
      t.cu_cycles > 0 ? (t.mfma_busy + hw.valu_power_weight * t.valu_busy) / t.cu_cycles * active_cus / hw.cus : 0;
  const double maf_busy = hw.maf_fp8_flops_per_s / (hw.fp8_flops_per_s * hw.maf_fp8_clock_ghz / hw.clock_ghz);
  if (activity <= 0) return hw.clock_ghz;
  return std::min(hw.clock_ghz, hw.maf_fp8_clock_ghz * std::cbrt(maf_busy / activity));
}

}  // namespace

// The descriptor's VGPR granules count arch VGPRs and AGPRs together (gfx90a and later).
machine::Occupancy occupancy_of(const KernelInfo& k, uint32_t lds_bytes, uint32_t block_size) {
  const uint32_t unified_vgprs = ((k.rsrc1 & 0x3f) + 1) * machine::kVgprGranule;
  return machine::occupancy(unified_vgprs, k.sgpr_count, lds_bytes, block_size);
}

KernelTiming time_launch(const Launch& L, const Hardware& hw) {
  KernelTiming t;
  t.symbol = L.k->symbol;
  t.grid = L.grid;
  t.block = L.block;
  t.workgroups = uint64_t(L.grid.x) * L.grid.y * L.grid.z;
  t.waves_per_workgroup = (L.block.x * L.block.y * L.block.z + 63) / 64;
  const machine::Occupancy occ = occupancy_of(*L.k, L.lds_bytes, L.block.x * L.block.y * L.block.z);
  const uint32_t unified_vgprs = ((L.k->rsrc1 & 0x3f) + 1) * machine::kVgprGranule;
  t.workgroups_per_cu = occ.workgroups_per_cu;
  t.occupancy_limiter = machine::limiter_name(occ.limiter);
  t.scratch_bytes_per_lane = L.k->private_segment;
  if (t.workgroups_per_cu == 0)
    throw Fault(L.k->symbol + ": a workgroup of " + std::to_string(unified_vgprs) + " VGPRs per lane, " +
                std::to_string(L.lds_bytes) + " bytes of LDS and " + std::to_string(t.waves_per_workgroup) +
                " waves does not fit one CU (" + t.occupancy_limiter + "); it cannot launch on MI300X");
  // The busiest CU: the first of XCD 0, dealt ids 0, CUs, 2 CUs, ...
  std::vector<uint64_t> ids;
  for (uint64_t id = 0; id < t.workgroups; id += hw.cus) ids.push_back(id);
  t.busiest_cu_workgroups = uint32_t(ids.size());
  const double active_cus = double(std::min<uint64_t>(t.workgroups, hw.cus));
  const double l2_fair = hw.l2_achieved_bytes_per_clk_per_xcd * hw.xcds / active_cus;
  // The CU's fair share of each level at engine clock `ghz`: the L2 runs on the XCD's clock,
  // the Infinity Cache, HBM and the store rate give bytes a second, more a cycle at a lower clock.
  const auto fair_at = [&](double ghz) {
    CuModel::Shares fair;
    fair.l2 = std::min(hw.cu_vmem_bytes_per_clk, l2_fair);
    fair.mall = hw.mall_bytes_per_s / (ghz * 1e9) / active_cus;
    fair.hbm = hw.hbm_bytes_per_s / (ghz * 1e9) / active_cus;
    fair.store = hw.store_bytes_per_s / (ghz * 1e9) / active_cus;
    return fair;
  };
  CuModel::Shares shares = fair_at(hw.clock_ghz);
  // A level's latency under load: unloaded in the first pass, then grown with the share u of the
  // last pass's kernel time the grid kept the level busy (its floor), as an M/M/1 queue's wait.
  const auto loaded = [&](double latency, double floor_us) {
    const double u = std::min(kMaxQueueUse, floor_us / t.kernel_us);
    return latency * (1 + hw.memory_queueing * u / (1 - u));
  };
  CuModel::Latencies latencies{hw.l2_latency, hw.mall_latency, hw.hbm_latency};
  // Only some workgroups run, so state the kernel keeps for the whole grid (split-K arrival
  // counters it resets when the last workgroup arrives) would be left half-done for the next
  // call: the CU's stores and atomics are undone at the end (and the first workgroup's, run
  // once beforehand to see what it touches).
  const uint32_t resident = std::min<uint32_t>(t.workgroups_per_cu, t.busiest_cu_workgroups);
  const GridReuse reuse = grid_reuse(L, hw, t.workgroups, double(resident) * t.waves_per_workgroup);
  // Passes. The first gives each CU the fair share of every level (its bandwidth over the
  // active CUs) at the peak clock; from it, the engine clock the power cap allows, and the
  // share u of the kernel's time the grid keeps each level busy (its floor over the kernel
  // time). CUs run out of step, so a CU's burst meets on average u of the others at that level:
  // the next pass serves it at fair share / u at that clock, at most the CU's own path (a level
  // the grid saturates keeps the fair share). The clock and the shares settle together (a lower
  // clock moves more bytes a cycle, fewer cycles raise the activity), and so do the levels'
  // loaded latencies: passes repeat until no share or latency moves by 1%, at most kMaxPasses.
  // Sampled, a long launch's passes but the last are settling passes (CuModel::settling: they run
  // a share of the CU's instructions); once the shares settle on one, a last full pass runs with
  // them.
  constexpr int kMaxPasses = 4;
  const bool sampled = hw.steady_state_tolerance > 0 && reuse.known;
  bool final_pass = false;
  std::optional<CuModel> timed;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    if (pass > 0) {
      const auto burst = [&](double fair, double floor_us) {
        const double use = std::max(floor_us / t.kernel_us, fair / hw.cu_vmem_bytes_per_clk);
        return std::min(hw.cu_vmem_bytes_per_clk, fair / use);
      };
      const CuModel::Shares last = shares, fair = fair_at(t.clock_ghz);
      shares.l2 = burst(fair.l2, t.l2_floor_us);
      shares.mall = burst(fair.mall, t.mall_floor_us);
      shares.hbm = burst(fair.hbm, t.hbm_floor_us);
      shares.store = fair.store;
      const CuModel::Latencies before = latencies;
      latencies = {loaded(hw.l2_latency, t.l2_floor_us), loaded(hw.mall_latency, t.mall_floor_us),
                   loaded(hw.hbm_latency, t.hbm_floor_us)};
      const auto settled = [](double now, double before) { return std::abs(now - before) <= 0.01 * before; };
      if (settled(shares.l2, last.l2) && settled(shares.mall, last.mall) && settled(shares.hbm, last.hbm) &&
          settled(shares.store, last.store) && settled(latencies.l2, before.l2) &&
          settled(latencies.mall, before.mall) && settled(latencies.hbm, before.hbm)) {
        if (timed->settling == 0) break;
        final_pass = true;
      }
    }
    CuModel& cu = timed.emplace(L, hw, reuse);
    const double window = kSettlingShare * reuse.instructions * double(ids.size());
    if (sampled && !final_pass && pass < kMaxPasses - 1 && window >= kMinSettlingWindow) cu.settling = window;
    cu.pass_start = double(pass) / kMaxPasses;  // most launches settle sooner: the bar then jumps to its end
    cu.pass_share = 1.0 / kMaxPasses;
    t.cu_cycles = cu.run(ids, resident, shares, latencies);
    // The rest of the grid: every workgroup requests about what the simulated ones did.
    const double scale = double(t.workgroups) / double(ids.size());
    t.bytes_requested = cu.l2_bytes * scale;
    t.mall_bytes = cu.mall_bytes * scale;
    t.l2_hit_rate = cu.l2_bytes > 0 ? cu.l2_hit_bytes / cu.l2_bytes : 0;
    t.footprint_bytes = reuse.known ? reuse.footprint_bytes : double(cu.lines_touched.size()) * hw.l1_line_bytes * scale;
    t.hbm_floor_us = t.footprint_bytes / hw.hbm_bytes_per_s * 1e6;
    t.mall_floor_us = t.mall_bytes / hw.mall_bytes_per_s * 1e6;
    // Where the CU's cycles went, per SIMD on average; the clock that activity allows.
    t.mfma_busy = t.valu_busy = t.idle = 0;
    for (int s = 0; s < kSimds; ++s) {
      t.mfma_busy += cu.mfma_busy[size_t(s)] / kSimds;
      t.valu_busy += cu.valu_busy[size_t(s)] / kSimds;
      t.idle += cu.idle[size_t(s)] / kSimds;
    }
    at_clock(t, hw, power_capped_clock_ghz(t, hw, active_cus));
    if (final_pass) break;
  }
  const CuModel& cu = *timed;
  t.sampled_share = t.cu_cycles > 0 ? cu.skipped_cycles / t.cu_cycles : 0;
  t.lds_busy = cu.lds_busy;
  t.vmem_busy = cu.vmem_busy;
  for (int r = 0; r < S_COUNT; ++r) t.stalls.emplace_back(kStallNames[r], cu.stalls[size_t(r)]);
  // The hottest instructions: issue cycles (one window each) plus stalled cycles.
  std::vector<size_t> order;
  for (size_t k = 0; k < cu.per_inst.size(); ++k)
    if (cu.per_inst[k].issued) order.push_back(k);
  auto weight = [&](size_t k) {
    double w = double(cu.per_inst[k].issued) * kSimds;
    for (double s : cu.per_inst[k].stall) w += s;
    return w;
  };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return weight(a) > weight(b); });
  if (order.size() > 12) order.resize(12);
  std::vector<uint64_t> addrs;
  for (size_t k : order) addrs.push_back(L.co->insts[k].addr);
  const std::vector<std::string> lines = L.co->lines_of(addrs);  // one symbolizer run, not twelve
  for (size_t n = 0; n < order.size(); ++n) {
    const size_t k = order[n];
    const PerInst& p = cu.per_inst[k];
    InstructionTime it;
    it.addr = addrs[n];
    it.mnemonic = L.co->insts[k].name;
    it.line = lines[n];
    it.issued = p.issued;
    for (double s : p.stall) it.stall_cycles += s;
    const size_t top = size_t(std::max_element(p.stall.begin(), p.stall.end()) - p.stall.begin());
    it.top_reason = it.stall_cycles > 0 ? kStallNames[top] : "";
    t.hottest.push_back(std::move(it));
  }
  return t;
}

}  // namespace isa::detail

namespace isa {

uint32_t workgroups_per_cu(const CodeObject& code, const std::string& symbol, uint32_t block_size,
                           uint32_t dynamic_lds) {
  const auto& co = dynamic_cast<const detail::CodeObjectImpl&>(code);
  auto it = co.kernels.find(symbol);
  if (it == co.kernels.end()) throw Fault("no kernel " + symbol + " in the code object");
  return detail::occupancy_of(it->second, it->second.group_segment + dynamic_lds, block_size).workgroups_per_cu;
}

}  // namespace isa
