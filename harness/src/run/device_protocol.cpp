#include "run/device_protocol.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ptxcts {
namespace {

constexpr char kJobMagic[8] = {'P', 'T', 'X', 'C', 'T', 'S', 'J', '2'};  // 2: the job's label
constexpr char kResultMagic[4] = {'P', 'C', 'R', '1'};

template <class T>
void put(std::ostream& o, T v) {
  o.write(reinterpret_cast<const char*>(&v), sizeof v);
}
void put_str(std::ostream& o, const std::string& s) {
  put<std::uint32_t>(o, static_cast<std::uint32_t>(s.size()));
  o.write(s.data(), static_cast<std::streamsize>(s.size()));
}
template <class T>
void put_vec(std::ostream& o, const std::vector<T>& v) {
  put<std::uint64_t>(o, v.size());
  o.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
}

template <class T>
bool get(std::istream& i, T& v) {
  return static_cast<bool>(i.read(reinterpret_cast<char*>(&v), sizeof v));
}
bool get_str(std::istream& i, std::string& s) {
  std::uint32_t n = 0;
  if (!get(i, n) || n > (1u << 20)) return false;
  s.resize(n);
  return static_cast<bool>(i.read(s.data(), n));
}
// A length read from the file is a claim: the vector grows only as elements arrive, a chunk at a
// time, so a corrupt length costs what the file holds, not what it states (fuzzing finding F3).
template <class T>
bool get_vec(std::istream& i, std::vector<T>& v) {
  std::uint64_t n = 0;
  if (!get(i, n) || n > (std::uint64_t{1} << 28)) return false;
  constexpr std::uint64_t kChunk = 1 << 16;
  v.clear();
  for (std::uint64_t done = 0; done < n;) {
    const std::uint64_t take = std::min(kChunk, n - done);
    v.resize(done + take);
    if (!i.read(reinterpret_cast<char*>(v.data() + done), static_cast<std::streamsize>(take * sizeof(T)))) return false;
    done += take;
  }
  return true;
}

}  // namespace

void write_jobs(std::ostream& out, const std::vector<DeviceJob>& jobs) {
  out.write(kJobMagic, sizeof kJobMagic);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(jobs.size()));
  for (auto const& j : jobs) {
    put(out, j.id);
    put_str(out, j.cubin);
    put_str(out, j.kernel_name);
    put_str(out, j.label);
    const LaunchShape& s = j.input.shape;
    for (int v : {s.warps, s.tile_bytes, s.steps, s.regs}) put<std::int32_t>(out, v);
    put_vec(out, j.input.offsets);
    put_vec(out, j.input.state.smem);
    put_vec(out, j.input.state.regs);
  }
}

std::vector<DeviceJob> read_jobs(std::istream& in) {
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, kJobMagic, 8) != 0) throw std::runtime_error("not a ptxcts job file");
  std::uint32_t n = 0;
  if (!get(in, n)) throw std::runtime_error("truncated job file");
  // The count is a claim too: jobs are added as they are read (fuzzing finding F1).
  std::vector<DeviceJob> jobs;
  for (std::uint32_t k = 0; k < n; ++k) {
    DeviceJob& j = jobs.emplace_back();
    std::int32_t w, t, st, r;
    bool ok = get(in, j.id) && get_str(in, j.cubin) && get_str(in, j.kernel_name) && get_str(in, j.label) &&
              get(in, w) && get(in, t) && get(in, st) && get(in, r) && get_vec(in, j.input.offsets) &&
              get_vec(in, j.input.state.smem) && get_vec(in, j.input.state.regs);
    if (!ok) throw std::runtime_error("truncated job file");
    j.input.shape = {w, t, st, r};
    const std::size_t threads = static_cast<std::size_t>(w) * 32;
    if (w <= 0 || t <= 0 || st <= 0 || r <= 0 || j.input.offsets.size() != threads * static_cast<std::size_t>(st) ||
        j.input.state.smem.size() != static_cast<std::size_t>(w) * static_cast<std::size_t>(t) ||
        j.input.state.regs.size() != threads * static_cast<std::size_t>(r))
      throw std::runtime_error("job " + std::to_string(j.id) + ": buffer sizes do not match its shape");
  }
  return jobs;
}

void write_result(std::ostream& out, const DeviceResult& r) {
  out.write(kResultMagic, sizeof kResultMagic);
  put(out, r.id);
  put<std::uint8_t>(out, r.ok ? 1 : 0);
  put_str(out, r.error);
  put_vec(out, r.state.smem);
  put_vec(out, r.state.regs);
  out.flush();
}

std::optional<DeviceResult> read_result(std::istream& in) {
  std::streampos at = in.tellg();
  char magic[4];
  DeviceResult r;
  std::uint8_t ok = 0;
  if (in.read(magic, 4) && std::memcmp(magic, kResultMagic, 4) == 0 && get(in, r.id) && get(in, ok) &&
      get_str(in, r.error) && get_vec(in, r.state.smem) && get_vec(in, r.state.regs)) {
    r.ok = ok != 0;
    return r;
  }
  in.clear();
  if (at != std::streampos(-1)) in.seekg(at);
  return std::nullopt;
}

std::vector<DeviceResult> read_results(std::istream& in) {
  std::vector<DeviceResult> out;
  while (auto r = read_result(in)) out.push_back(std::move(*r));
  return out;
}

}  // namespace ptxcts
