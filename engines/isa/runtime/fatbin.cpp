// Fat-binary and kernel registration: the calls clang's HIP host code makes from its module
// constructor (__hip_module_ctor) before main, and from the destructor it registers with atexit.
//
// clang embeds, per translation unit, a wrapper {magic "HIPF", version 1, pointer to the
// .hip_fatbin section, unused}; the section holds a clang offload bundle whose
// hipv4-amdgcn-amd-amdhsa--gfx942 entry is the device code object (an AMDHSA ELF).
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>

#include "runtime.h"

namespace isa_rt {
namespace {

constexpr uint32_t kWrapperMagic = 0x48495046;  // "HIPF"
constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::string_view kCompressedMagic = "CCOB";

struct Wrapper {
  uint32_t magic;
  uint32_t version;
  const void* binary;
  const void* unused;
};

struct Registry {
  std::mutex mutex;
  std::map<const void*, std::unique_ptr<FatBinary>> binaries;  // key: the handle we return
  std::map<const void*, std::pair<FatBinary*, std::string>> stubs;
  std::map<const void*, Kernel> loaded;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: atexit handlers may still call in
  return *r;
}

uint64_t read_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// "hipv4-amdgcn-amd-amdhsa--gfx942" with or without target features (":sramecc+:xnack-").
bool is_gfx942_entry(std::string_view id) {
  const size_t dash = id.find("-amdgcn-amd-amdhsa--");
  if (dash == std::string_view::npos) return false;
  const std::string_view kind = id.substr(0, dash), target = id.substr(dash + 20);
  return (kind == "hip" || kind == "hipv4") && (target == "gfx942" || target.substr(0, 7) == "gfx942:");
}

std::shared_ptr<const isa::CodeObject> load_bundle(const uint8_t* bundle) {
  if (std::memcmp(bundle, kCompressedMagic.data(), kCompressedMagic.size()) == 0)
    throw isa::Fault("the fat binary is a compressed offload bundle (--offload-compress), which the ISA engine cannot read");
  if (std::memcmp(bundle, kBundleMagic.data(), kBundleMagic.size()) != 0) {
    // A bare code object (no bundle) is what -fcuda-include-gpubinary embeds if given one.
    if (std::memcmp(bundle, "\x7f" "ELF", 4) == 0) throw isa::Fault("the fat binary is a bare ELF, not a clang offload bundle");
    throw isa::Fault("the fat binary holds no clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)");
  }
  const uint8_t* p = bundle + kBundleMagic.size();
  const uint64_t count = read_u64(p);
  p += 8;
  std::string targets;
  for (uint64_t i = 0; i < count && i < 1024; ++i) {
    const uint64_t offset = read_u64(p), size = read_u64(p + 8), id_size = read_u64(p + 16);
    const std::string_view id(reinterpret_cast<const char*>(p + 24), id_size);
    p += 24 + id_size;
    if (is_gfx942_entry(id)) return isa::CodeObject::load(bundle + offset, size);
    targets += (targets.empty() ? "" : ", ") + std::string(id);
  }
  throw isa::Fault("the fat binary has no gfx942 code object (bundle entries: " + targets +
                   "); build with --offload-arch=gfx942");
}

}  // namespace

FatBinary::FatBinary(const void* wrapper) {
  const auto* w = static_cast<const Wrapper*>(wrapper);
  if (w != nullptr && w->magic == kWrapperMagic) bundle_ = w->binary;
}

std::shared_ptr<const isa::CodeObject> FatBinary::code() {
  if (!code_) {
    if (bundle_ == nullptr) throw isa::Fault("a fat binary was registered without the HIPF wrapper clang emits");
    code_ = load_bundle(static_cast<const uint8_t*>(bundle_));
  }
  return code_;
}

const Kernel* kernel_of(const void* host_stub) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (auto hit = r.loaded.find(host_stub); hit != r.loaded.end()) return &hit->second;
  auto stub = r.stubs.find(host_stub);
  if (stub == r.stubs.end()) return nullptr;
  auto code = stub->second.first->code();
  const std::string& symbol = stub->second.second;
  if (!code->has_kernel(symbol))
    throw isa::Fault("kernel " + symbol + " was registered but its code object has no such kernel");
  return &r.loaded.emplace(host_stub, Kernel{code, symbol}).first->second;
}

}  // namespace isa_rt

extern "C" {

void** __hipRegisterFatBinary(const void* wrapper) {
  auto& r = isa_rt::registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto binary = std::make_unique<isa_rt::FatBinary>(wrapper);
  auto* handle = reinterpret_cast<void**>(binary.get());
  r.binaries.emplace(handle, std::move(binary));
  return handle;
}

void __hipRegisterFunction(void** handle, const void* host_stub, char* /*device_function*/, const char* device_name,
                           unsigned int /*thread_limit*/, void* /*tid*/, void* /*bid*/, void* /*block_dim*/,
                           void* /*grid_dim*/, int* /*warp_size*/) {
  auto& r = isa_rt::registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto binary = r.binaries.find(handle);
  if (binary == r.binaries.end()) return;
  r.stubs[host_stub] = {binary->second.get(), device_name};
}

// __device__ variables: nothing to do until a submission copies to one (hipMemcpyToSymbol),
// which the engine's entry point does not offer yet.
void __hipRegisterVar(void**, void*, char*, const char*, int, size_t, int, int) {}
void __hipRegisterManagedVar(void*, void**, void*, const char*, size_t, unsigned) {}

void __hipUnregisterFatBinary(void** handle) {
  auto& r = isa_rt::registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto binary = r.binaries.find(handle);
  if (binary == r.binaries.end()) return;
  for (auto it = r.stubs.begin(); it != r.stubs.end();) {
    if (it->second.first == binary->second.get()) {
      r.loaded.erase(it->first);
      it = r.stubs.erase(it);
    } else {
      ++it;
    }
  }
  r.binaries.erase(binary);
}

}  // extern "C"
