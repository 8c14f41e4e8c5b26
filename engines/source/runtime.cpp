// The source engine's runtime: what every emulated module shares and none of them compiles,
// built once per machine and toolchain (engines/source/runtime.py) and loaded before any module,
// its symbols visible to them. A module's kernels call run_launch; the runtime holds the one
// copy of the engine's state (the running lane, the guards, the progress count) that its
// scheduler, fault handler and watchdog and every module's device code share, and binds what the
// Python side calls without a module: the guards around a call (engines/source/guards.py) and
// the translation of the emulator's errors.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <hip/hip_runtime.h>

namespace emu {

void run_launch(const Launch& L) {
  size_t groups = size_t(L.grid.x) * L.grid.y * L.grid.z;
  if (groups == 0 || L.group_size == 0) return;
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  unsigned workers = unsigned(std::min<size_t>(env_unsigned("EMU_THREADS", hw), groups));
  if (L.schedule) workers = 1;  // a varied schedule must be reproducible
  HandlerScope handler;
  close_guards();  // this kernel's first read past each tensor is caught
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  Watchdog watchdog;
  auto work = [&] {
    Watchdog::Shift shift(watchdog);
    try {
      FaultScope faults;
      Group g(L);
      for (size_t id; !failed && (id = next++) < groups;) run_group(g, unsigned(id));
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < workers; ++i) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace emu

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  // An error of the emulator reaches Python as EmulatorError from every module's functions.
  static PyObject* error_type =
      pybind11::module_::import("engines.source.errors").attr("EmulatorError").cast<pybind11::object>().release().ptr();
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ::emu::Error& e) {
      PyErr_SetString(error_type, e.what());
    }
  });
  // a call's tensors end at guard pages (engines/source/guards.py, emu/guards.h)
  m.def("guard_begin", [](const std::vector<std::tuple<uintptr_t, uintptr_t, uintptr_t>>& guards) {
    ::emu::install_fault_handler();
    ::emu::set_guards(guards);
  });
  m.def("guard_end", [] {
    ::emu::set_guards({});
    ::emu::uninstall_fault_handler();
    return ::emu::take_guard_hits();
  });
}
