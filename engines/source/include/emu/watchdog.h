// A launch that makes no progress: the harness sets WORKBENCH_HANG_S (how long a launch may go
// without a wave reaching a cross-lane operation, a barrier or its end) and WORKBENCH_DEADLINE
// (when the stage's time limit runs out, in seconds since the epoch). Once either passes, a
// watchdog thread signals the launch's worker threads until they stop: one running a work-item
// fails the launch there, naming the kernel, the work-item and the instruction it was at.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include <pthread.h>

#include "emu/faults.h"
#include "emu/workgroup.h"

namespace emu {

inline std::string g_stall_reason;  // set before the first signal

inline int stall_signal() { return SIGRTMIN + 7; }  // a real-time signal nothing else here uses

inline void stall_handler(int, siginfo_t*, void* uctx) {
  Lane* lane = t_lane;
  if (!lane || !t_lane_running) return;  // in the scheduler: a later signal finds a work-item
  Group& g = *lane->group;
  g.failure = g_stall_reason + ": " + launch_name(*g.launch) + ", " + lane_name(*lane) + " was" + pc_marker(uctx);
  lane->state = LaneState::Failed;
  t_lane_running = false;
  context_switch(lane->ctx, g.scheduler);  // never resumed: the scheduler fails the launch
  __builtin_trap();
}

// Installed once and left: a signal still on its way when a launch ends finds no work-item.
inline void install_stall_handler() {
  static const bool installed = [] {
    load_unwinder();
    struct sigaction sa {};
    sa.sa_sigaction = &stall_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    return sigaction(stall_signal(), &sa, nullptr) == 0;
  }();
  (void)installed;
}

class Watchdog {
 public:
  Watchdog() : hang_s_(env_seconds("WORKBENCH_HANG_S")), deadline_s_(env_seconds("WORKBENCH_DEADLINE")) {
    if (hang_s_ <= 0 && deadline_s_ <= 0) return;
    install_stall_handler();
    g_stall_reason.clear();
    thread_ = std::thread([this] { watch(); });
  }
  ~Watchdog() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  // A worker thread's time in the launch: it is signalled only in between.
  struct Shift {
    Watchdog& dog;
    explicit Shift(Watchdog& d) : dog(d) {
      std::lock_guard<std::mutex> lock(dog.mutex_);
      dog.workers_.push_back(pthread_self());
    }
    ~Shift() {
      std::lock_guard<std::mutex> lock(dog.mutex_);
      dog.workers_.erase(std::find(dog.workers_.begin(), dog.workers_.end(), pthread_self()));
    }
  };

 private:
  void watch() {
    using clock = std::chrono::steady_clock;
    uint64_t seen = g_progress.load();
    auto last = clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(g_stall_reason.empty() ? 500 : 100), [this] { return done_; })) {
      if (!g_stall_reason.empty()) {
        for (pthread_t worker : workers_) pthread_kill(worker, stall_signal());
        continue;
      }
      const uint64_t now_seen = g_progress.load(std::memory_order_relaxed);
      if (now_seen != seen) {
        seen = now_seen;
        last = clock::now();
      }
      const double idle_s = std::chrono::duration<double>(clock::now() - last).count();
      const double epoch_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
      if (hang_s_ > 0 && idle_s >= hang_s_)
        g_stall_reason = "no wave reached a cross-lane operation, a barrier or its end for " +
                         std::to_string(int(hang_s_)) + " s (an endless loop, or a wait for another workgroup, " +
                         "which this engine may run only later)";
      else if (deadline_s_ > 0 && epoch_s >= deadline_s_)
        g_stall_reason = "the stage's time limit ran out in this launch";
    }
  }

  std::vector<pthread_t> workers_;
  double hang_s_, deadline_s_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
};

}  // namespace emu
