// AMDHSA code object loader: ELF sections into an image, kernel descriptors (`<name>.kd`,
// 64 bytes, AMDGPUUsage "Kernel Descriptor"), the NT_AMDGPU_METADATA msgpack note
// (amdhsa.kernels: .args with offsets/sizes/value kinds), and the decoded text.
#include <elf.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

#include "internal.h"

namespace isa::detail {
namespace {

// ---- a small msgpack reader (the metadata note) ------------------------------------------
struct Msg {
  enum Type { NIL, BOOL, INT, FLOAT, STR, ARR, MAP } type = NIL;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<Msg> items;        // ARR, or MAP values
  std::vector<std::string> keys;  // MAP keys (strings), parallel to items
  const Msg* get(const std::string& key) const {
    if (type != MAP) return nullptr;
    for (size_t k = 0; k < keys.size(); ++k)
      if (keys[k] == key) return &items[k];
    return nullptr;
  }
};

struct MsgReader {
  const uint8_t* p;
  const uint8_t* end;
  uint64_t be(int n) {
    if (p + n > end) throw Fault("code object: truncated metadata note");
    uint64_t v = 0;
    for (int k = 0; k < n; ++k) v = (v << 8) | *p++;
    return v;
  }
  std::string str(size_t n) {
    if (p + n > end) throw Fault("code object: truncated metadata note");
    std::string s(reinterpret_cast<const char*>(p), n);
    p += n;
    return s;
  }
  Msg read() {
    Msg m;
    uint8_t t = uint8_t(be(1));
    auto arr = [&](size_t n) { m.type = Msg::ARR; for (size_t k = 0; k < n; ++k) m.items.push_back(read()); };
    auto map = [&](size_t n) {
      m.type = Msg::MAP;
      for (size_t k = 0; k < n; ++k) {
        Msg key = read();
        m.keys.push_back(key.type == Msg::STR ? key.s : std::to_string(key.i));
        m.items.push_back(read());
      }
    };
    if (t <= 0x7f) { m.type = Msg::INT; m.i = t; }
    else if (t >= 0xe0) { m.type = Msg::INT; m.i = int8_t(t); }
    else if ((t & 0xf0) == 0x80) map(t & 0x0f);
    else if ((t & 0xf0) == 0x90) arr(t & 0x0f);
    else if ((t & 0xe0) == 0xa0) { m.type = Msg::STR; m.s = str(t & 0x1f); }
    else switch (t) {
      case 0xc0: break;
      case 0xc2: case 0xc3: m.type = Msg::BOOL; m.i = t & 1; break;
      case 0xc4: m.type = Msg::STR; m.s = str(be(1)); break;
      case 0xc5: m.type = Msg::STR; m.s = str(be(2)); break;
      case 0xc6: m.type = Msg::STR; m.s = str(be(4)); break;
      case 0xca: { m.type = Msg::FLOAT; uint32_t b = uint32_t(be(4)); float f; memcpy(&f, &b, 4); m.f = f; break; }
      case 0xcb: { m.type = Msg::FLOAT; uint64_t b = be(8); memcpy(&m.f, &b, 8); break; }
      case 0xcc: m.type = Msg::INT; m.i = int64_t(be(1)); break;
      case 0xcd: m.type = Msg::INT; m.i = int64_t(be(2)); break;
      case 0xce: m.type = Msg::INT; m.i = int64_t(be(4)); break;
      case 0xcf: m.type = Msg::INT; m.i = int64_t(be(8)); break;
      case 0xd0: m.type = Msg::INT; m.i = int8_t(be(1)); break;
      case 0xd1: m.type = Msg::INT; m.i = int16_t(be(2)); break;
      case 0xd2: m.type = Msg::INT; m.i = int32_t(be(4)); break;
      case 0xd3: m.type = Msg::INT; m.i = int64_t(be(8)); break;
      case 0xd9: m.type = Msg::STR; m.s = str(be(1)); break;
      case 0xda: m.type = Msg::STR; m.s = str(be(2)); break;
      case 0xdb: m.type = Msg::STR; m.s = str(be(4)); break;
      case 0xdc: arr(be(2)); break;
      case 0xdd: arr(be(4)); break;
      case 0xde: map(be(2)); break;
      case 0xdf: map(be(4)); break;
      default: throw Fault("code object: unsupported msgpack byte in the metadata note");
    }
    return m;
  }
};

int64_t msg_int(const Msg* m, int64_t fallback = 0) { return m && m->type == Msg::INT ? m->i : fallback; }
std::string msg_str(const Msg* m) { return m && m->type == Msg::STR ? m->s : std::string(); }

template <class T>
T read_at(const std::vector<uint8_t>& image, uint64_t addr) {
  T v;
  if (addr + sizeof(T) > image.size()) throw Fault("code object: kernel descriptor outside the image");
  memcpy(&v, image.data() + addr, sizeof(T));
  return v;
}

}  // namespace

std::vector<std::string> CodeObjectImpl::kernel_names() const {
  std::vector<std::string> names;
  for (auto& [name, _] : kernels) names.push_back(name);
  return names;
}

namespace {

std::mutex g_prefixes_mutex;
std::vector<std::string> g_system_prefixes;

bool under_system_prefix(const std::string& file) {
  std::lock_guard<std::mutex> lock(g_prefixes_mutex);
  for (const std::string& prefix : g_system_prefixes)
    if (file.rfind(prefix, 0) == 0) return true;
  return false;
}

// llvm-symbolizer's frames of one address (function and file:line:column lines, the innermost
// first) -> "at file:line (function)" of the innermost frame in the user's code, "" without one.
std::string describe_frames(const std::vector<std::string>& lines) {
  if (lines.size() < 2 || lines[1].rfind("??", 0) == 0) return "";
  // The innermost frame in the user's code: not in a header of ours (stand-ins, HIP shims) or
  // of the system's (HIP, the C++ library).
  size_t frame = 0;
  while (frame + 3 < lines.size() && under_system_prefix(lines[frame + 1])) frame += 2;
  std::string where = lines[frame + 1];
  const size_t colon = where.rfind(':');  // drop the column
  if (colon != std::string::npos && where.find(':') != colon) where.resize(colon);
  std::string text = "at " + where + " (" + lines[frame] + ")";
  if (frame + 3 < lines.size()) text += " inlined into " + lines[lines.size() - 2];
  return text;
}

// llvm-symbolizer run once on the ELF for every address: each address's frames, in order (its
// output puts an empty line after each address's frames). Empty when the tool is missing.
std::vector<std::vector<std::string>> symbolize(const std::vector<uint8_t>& elf, const std::vector<uint64_t>& addrs) {
  std::vector<std::vector<std::string>> frames;
  char path[] = "/tmp/isa_code_object_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return frames;
  const bool written = write(fd, elf.data(), elf.size()) == ssize_t(elf.size());
  close(fd);
  std::string out;
  if (written) {
    std::string hex;
    for (uint64_t addr : addrs) {
      char one[24];
      snprintf(one, sizeof one, " 0x%llx", (unsigned long long)addr);
      hex += one;
    }
    for (const char* tool : {"llvm-symbolizer-19", "llvm-symbolizer"}) {
      const std::string cmd = std::string(tool) + " --obj=" + path + hex + " 2>/dev/null";
      if (FILE* p = popen(cmd.c_str(), "r")) {
        char buf[4096];
        while (fgets(buf, sizeof buf, p)) out += buf;
        if (pclose(p) == 0 && !out.empty()) break;
        out.clear();
      }
    }
  }
  unlink(path);
  std::vector<std::string> current;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    if (end > start) {
      current.push_back(out.substr(start, end - start));
    } else if (!current.empty()) {
      frames.push_back(std::move(current));
      current.clear();
    }
    start = end + 1;
  }
  if (!current.empty()) frames.push_back(std::move(current));
  return frames;
}

}  // namespace

std::string CodeObjectImpl::line_of(uint64_t addr) const { return lines_of({addr})[0]; }

std::vector<std::string> CodeObjectImpl::lines_of(const std::vector<uint64_t>& addrs) const {
  std::vector<std::string> lines(addrs.size());
  if (!has_line_table) return lines;
  std::vector<uint64_t> missing;
  {
    std::lock_guard<std::mutex> lock(lines_mutex_);
    for (uint64_t addr : addrs)
      if (!lines_.count(addr) && std::find(missing.begin(), missing.end(), addr) == missing.end())
        missing.push_back(addr);
  }
  if (!missing.empty()) {
    // Outside the lock: the tool takes a fraction of a second a run (it reads the whole line table).
    const std::vector<std::vector<std::string>> frames = symbolize(elf, missing);
    std::lock_guard<std::mutex> lock(lines_mutex_);
    for (size_t k = 0; k < missing.size(); ++k)
      lines_[missing[k]] = frames.size() == missing.size() ? describe_frames(frames[k]) : "";
  }
  std::lock_guard<std::mutex> lock(lines_mutex_);
  for (size_t k = 0; k < addrs.size(); ++k) lines[k] = lines_.at(addrs[k]);
  return lines;
}

}  // namespace isa::detail

namespace isa {

void set_system_prefixes(const std::string& one_a_line) {
  std::vector<std::string> prefixes;
  std::istringstream lines(one_a_line);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) prefixes.push_back(line);
  std::lock_guard<std::mutex> lock(detail::g_prefixes_mutex);
  detail::g_system_prefixes = std::move(prefixes);
}

std::shared_ptr<CodeObject> CodeObject::load(const void* elf, size_t size) {
  using namespace detail;
  const auto* bytes = static_cast<const uint8_t*>(elf);
  if (size < sizeof(Elf64_Ehdr) || memcmp(bytes, ELFMAG, SELFMAG) != 0)
    throw Fault("code object: not an ELF file");
  Elf64_Ehdr eh;
  memcpy(&eh, bytes, sizeof eh);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != 224 /* EM_AMDGPU */)
    throw Fault("code object: not a 64-bit AMDGPU ELF");
  if (eh.e_shoff + uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr) > size) throw Fault("code object: truncated");
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  memcpy(sh.data(), bytes + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
  auto in_file = [&](const Elf64_Shdr& s) { return s.sh_type == SHT_NOBITS || s.sh_offset + s.sh_size <= size; };

  auto co = std::make_shared<CodeObjectImpl>();
  co->elf.assign(bytes, bytes + size);
  uint64_t image_end = 0;
  for (auto& s : sh)
    if (s.sh_flags & SHF_ALLOC) image_end = std::max<uint64_t>(image_end, s.sh_addr + s.sh_size);
  co->image.assign(image_end + 16, 0);
  const Elf64_Shdr& names = sh.at(eh.e_shstrndx);
  for (auto& s : sh) {
    if (!in_file(s)) throw Fault("code object: section outside the file");
    if (s.sh_name < names.sh_size &&
        strcmp(reinterpret_cast<const char*>(bytes + names.sh_offset + s.sh_name), ".debug_line") == 0)
      co->has_line_table = true;
    if ((s.sh_flags & SHF_ALLOC) && s.sh_type != SHT_NOBITS)
      memcpy(co->image.data() + s.sh_addr, bytes + s.sh_offset, s.sh_size);
  }

  // Kernel descriptors: symbols named <kernel>.kd.
  std::map<std::string, uint64_t> kd_of;
  for (auto& s : sh) {
    if (s.sh_type != SHT_SYMTAB && s.sh_type != SHT_DYNSYM) continue;
    const Elf64_Shdr& strtab = sh.at(s.sh_link);
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= s.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      memcpy(&sym, bytes + s.sh_offset + off, sizeof sym);
      if (sym.st_name >= strtab.sh_size) continue;
      std::string name(reinterpret_cast<const char*>(bytes + strtab.sh_offset + sym.st_name));
      if (name.size() > 3 && name.compare(name.size() - 3, 3, ".kd") == 0)
        kd_of[name.substr(0, name.size() - 3)] = sym.st_value;
    }
  }
  for (auto& [name, kd] : kd_of) {
    KernelInfo k;
    k.symbol = name;
    k.kd_addr = kd;
    k.group_segment = read_at<uint32_t>(co->image, kd + 0);
    k.private_segment = read_at<uint32_t>(co->image, kd + 4);
    k.kernarg_size = read_at<uint32_t>(co->image, kd + 8);
    k.entry = kd + uint64_t(read_at<int64_t>(co->image, kd + 16));
    k.rsrc3 = read_at<uint32_t>(co->image, kd + 44);
    k.rsrc1 = read_at<uint32_t>(co->image, kd + 48);
    k.rsrc2 = read_at<uint32_t>(co->image, kd + 52);
    k.code_props = read_at<uint16_t>(co->image, kd + 56);
    k.kernarg_preload = read_at<uint16_t>(co->image, kd + 58);
    co->kernels[name] = k;
  }

  // Metadata note: .args of every kernel.
  for (auto& s : sh) {
    if (s.sh_type != SHT_NOTE) continue;
    uint64_t off = s.sh_offset, end = s.sh_offset + s.sh_size;
    while (off + 12 <= end) {
      uint32_t namesz, descsz, type;
      memcpy(&namesz, bytes + off, 4);
      memcpy(&descsz, bytes + off + 4, 4);
      memcpy(&type, bytes + off + 8, 4);
      uint64_t name_at = off + 12, desc_at = name_at + ((namesz + 3) & ~3u);
      off = desc_at + ((descsz + 3) & ~3u);
      if (off > end) break;
      if (type != 32 /* NT_AMDGPU_METADATA */) continue;
      MsgReader r{bytes + desc_at, bytes + desc_at + descsz};
      Msg root = r.read();
      const Msg* list = root.get("amdhsa.kernels");
      if (!list) continue;
      for (auto& km : list->items) {
        std::string sym = msg_str(km.get(".symbol"));
        if (sym.size() > 3) sym.resize(sym.size() - 3);  // "<name>.kd"
        auto it = co->kernels.find(sym);
        if (it == co->kernels.end()) continue;
        KernelInfo& k = it->second;
        k.sgpr_count = uint32_t(msg_int(km.get(".sgpr_count")));
        k.vgpr_count = uint32_t(msg_int(km.get(".vgpr_count")));
        k.agpr_count = uint32_t(msg_int(km.get(".agpr_count")));
        k.wavefront_size = uint32_t(msg_int(km.get(".wavefront_size"), 64));
        if (const Msg* args = km.get(".args"))
          for (auto& am : args->items) {
            Arg a;
            a.offset = uint32_t(msg_int(am.get(".offset")));
            a.size = uint32_t(msg_int(am.get(".size")));
            a.kind = msg_str(am.get(".value_kind"));
            a.name = msg_str(am.get(".name"));
            k.args.push_back(a);
          }
      }
    }
  }

  // Decode every executable section once.
  for (auto& s : sh)
    if ((s.sh_flags & SHF_EXECINSTR) && s.sh_type == SHT_PROGBITS) decode_text(*co, s.sh_addr, s.sh_addr + s.sh_size);
  for (auto& [name, k] : co->kernels) {
    auto it = co->by_addr.find(k.entry);
    if (it == co->by_addr.end()) throw Fault("code object: kernel " + name + " has no code at its entry");
    k.first = it->second;
    if (k.wavefront_size != 64) throw Fault("code object: kernel " + name + " is not wave64");
  }
  return co;
}

}  // namespace isa
