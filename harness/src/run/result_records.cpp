#include "run/result_records.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxcts {
namespace {

constexpr char kRecordMagic[4] = {'P', 'C', 'R', '1'};
// The protocol's bounds (device_protocol.cpp reads with the same): a string of 1 MiB, a vector of 2^28.
constexpr std::uint32_t kMaxRecordString = 1u << 20;
constexpr std::uint64_t kMaxRecordVector = std::uint64_t{1} << 28;

// Why a record could not be taken: the bytes so far fit (wait for more), or what was expected.
struct NotYet {};
struct Broke {
  std::string expected;
};

// The bytes of one record, taken a field at a time from `in` (little-endian, as written).
class RecordBytes {
 public:
  explicit RecordBytes(std::istream& in) : in_(in) {}
  void bytes(void* into, std::size_t n) {
    if (!in_.read(static_cast<char*>(into), static_cast<std::streamsize>(n))) throw NotYet{};
  }
  template <class T>
  T number() {
    T v{};
    bytes(&v, sizeof v);
    return v;
  }
  std::string text(const char* field) {
    const auto n = number<std::uint32_t>();
    if (n > kMaxRecordString)
      throw Broke{fmt::format("{} of at most {} bytes, got a length of {}", field, kMaxRecordString, n)};
    std::string s(n, '\0');
    bytes(s.data(), n);
    return s;
  }
  // `want`, if given: the length the job's shape gives (`unit`: its elements and why, for the message).
  template <class T>
  void vector(std::vector<T>& v, const char* field, std::optional<std::uint64_t> want = {},
              const std::string& unit = "") {
    const auto n = number<std::uint64_t>();
    if (n > kMaxRecordVector)
      throw Broke{fmt::format("{} of at most {} elements, got a length of {}", field, kMaxRecordVector, n)};
    if (want && n != *want) throw Broke{fmt::format("{} of {} {}, got {}", field, *want, unit, n)};
    v.clear();
    for (std::uint64_t done = 0; done < n;) {  // grown as bytes arrive: a length is a claim
      const std::uint64_t take = std::min<std::uint64_t>(n - done, 1 << 16);
      v.resize(done + take);
      bytes(v.data() + done, take * sizeof(T));
      done += take;
    }
  }

 private:
  std::istream& in_;
};

std::string shown(const char* bytes, std::size_t n) {
  std::string out;
  for (std::size_t k = 0; k < n; ++k) {
    const unsigned char c = static_cast<unsigned char>(bytes[k]);
    out += c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? std::string(1, static_cast<char>(c))
                                                          : fmt::format("\\x{:02x}", c);
  }
  return out;
}

DeviceResult read_record(RecordBytes& rec, const std::function<bool(std::uint32_t)>& is_job,
                         const std::function<bool(std::uint32_t)>& recorded,
                         const std::function<std::optional<LaunchShape>(std::uint32_t)>& shape) {
  char magic[4];
  rec.bytes(magic, 4);
  if (std::memcmp(magic, kRecordMagic, 4) != 0)
    throw Broke{fmt::format("the magic \"PCR1\" that starts a record, got \"{}\"", shown(magic, 4))};
  DeviceResult r;
  r.id = rec.number<std::uint32_t>();
  if (!is_job(r.id)) throw Broke{fmt::format("the id of a job of this job file, got {}", r.id)};
  if (recorded(r.id)) throw Broke{fmt::format("one record per job, got a second one of job {}", r.id)};
  const auto outcome = rec.number<std::uint8_t>();
  if (outcome > 3) throw Broke{fmt::format("an outcome of 0 to 3, got {}", outcome)};
  r.ok = outcome == 1;
  r.load = outcome == 2 ? ModuleLoad::Refused : outcome == 3 ? ModuleLoad::Failed : ModuleLoad::Loaded;
  r.error = rec.text("an error text");
  // A launch that ran gives back its whole tile and every register: images of its job's sizes.
  const std::optional<LaunchShape> s = r.ok && shape ? shape(r.id) : std::nullopt;
  using Want = std::optional<std::uint64_t>;
  const std::string of_job = s ? fmt::format("job {}'s {} warps", r.id, s->warps) : "";
  rec.vector(r.state.smem, "a shared-memory image", s ? Want(std::uint64_t(s->warps) * s->tile_bytes) : Want(),
             s ? fmt::format("bytes ({} x {}-byte tile)", of_job, s->tile_bytes) : "");
  rec.vector(r.state.regs, "a register image", s ? Want(std::uint64_t(s->threads()) * s->regs) : Want(),
             s ? fmt::format("words ({} x 32 threads x {} registers)", of_job, s->regs) : "");
  return r;
}

// Where the next "PCR1" of `in` starts, from `at` on (`end` where there is none before `end`).
std::uint64_t magic_at_or_after(std::istream& in, std::uint64_t at, std::uint64_t end) {
  std::string bytes(std::size_t{1} << 16, '\0');
  const std::string_view magic(kRecordMagic, 4);
  for (; at + 4 <= end; at += bytes.size() - 3) {  // chunks overlap by 3: a magic across two is found
    in.clear();
    in.seekg(static_cast<std::streamoff>(at));
    in.read(bytes.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(bytes.size(), end - at)));
    const std::string_view got(bytes.data(), static_cast<std::size_t>(in.gcount()));
    if (const auto k = got.find(magic); k != std::string_view::npos) return at + k;
    if (got.size() < bytes.size()) break;
  }
  return end;
}

}  // namespace

std::optional<DeviceResult> ResultRecords::next(std::istream& in) {
  lost_before_.clear();
  if (!broken_.empty()) return resync(in);
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset_));
  RecordBytes rec(in);
  try {
    DeviceResult r = read_record(rec, is_job_, recorded_, shape_);
    ++number_;
    offset_ = static_cast<std::uint64_t>(in.tellg());
    return r;
  } catch (const NotYet&) {
    // A magic cut short must still be a start of "PCR1" to be waited for.
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset_));
    char head[4] = {};
    in.read(head, 4);
    const auto got = static_cast<std::size_t>(in.gcount());
    in.clear();
    if (got == 4 || std::memcmp(head, kRecordMagic, got) == 0) return std::nullopt;
    broken_ = fmt::format(
        "device runner broke the protocol at results record {} (byte {} of {}): expected the "
        "magic \"PCR1\" that starts a record, got \"{}\"",
        number_ + 1, offset_, file_, shown(head, got));
  } catch (const Broke& b) {
    broken_ = fmt::format("device runner broke the protocol at results record {} (byte {} of {}): expected {}",
                          number_ + 1, offset_, file_, b.expected);
  }
  scan_from_ = offset_ + 1;
  return resync(in);
}

// The records after a broken one: the next magic whose record is whole and passes every check
// (a job of this line not recorded yet, its outcome, lengths within the protocol's bounds and the
// file, images of its job's sizes) is taken; random bytes pass all that about never. A candidate
// still being written is waited for, unless a whole one follows it (the runner writes in order).
std::optional<DeviceResult> ResultRecords::resync(std::istream& in) {
  in.clear();
  in.seekg(0, std::ios::end);
  const auto end = static_cast<std::uint64_t>(in.tellg());
  std::optional<std::uint64_t> waiting;
  for (std::uint64_t at = scan_from_; (at = magic_at_or_after(in, at, end)) < end; ++at) {
    in.clear();
    in.seekg(static_cast<std::streamoff>(at));
    RecordBytes rec(in);
    try {
      DeviceResult r = read_record(rec, is_job_, recorded_, shape_);
      number_ += 2;  // the broken one, and this one
      offset_ = static_cast<std::uint64_t>(in.tellg());
      lost_before_ = std::exchange(broken_, "");
      return r;
    } catch (const NotYet&) {
      if (!waiting) waiting = at;
    } catch (const Broke&) {}  // not a record: the search goes on after its magic
  }
  in.clear();
  scan_from_ = waiting ? *waiting : std::max(scan_from_, end > 3 ? end - 3 : 0);  // a magic may be half written
  return std::nullopt;
}

std::string ResultRecords::settle(std::istream& in) {
  if (broken_.empty()) return "";
  in.clear();
  in.seekg(0, std::ios::end);
  offset_ = static_cast<std::uint64_t>(in.tellg());
  in.clear();
  ++number_;
  return std::exchange(broken_, "");
}

}  // namespace ptxcts
