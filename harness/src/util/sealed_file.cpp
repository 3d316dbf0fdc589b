#include "util/sealed_file.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "util/atomic_file.hpp"
#include "util/file_text.hpp"

namespace ptxcts {

namespace {
constexpr std::string_view kHead = "ptxcts-sealed size=";
}

std::string xxh3_hex(std::string_view bytes) {
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

std::optional<FileHash> file_xxh3(const std::filesystem::path& path, std::uint64_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> st(XXH3_createState(), &XXH3_freeState);
  XXH3_128bits_reset(st.get());
  std::vector<char> buffer(std::size_t{1} << 20);
  FileHash out;
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    XXH3_128bits_update(st.get(), buffer.data(), static_cast<std::size_t>(in.gcount()));
    out.size += static_cast<std::uint64_t>(in.gcount());
    if (out.size > max_bytes) return std::nullopt;
  }
  if (!in.eof() || in.bad()) return std::nullopt;
  const XXH128_hash_t h = XXH3_128bits_digest(st.get());
  out.xxh3 = fmt::format("{:016x}{:016x}", h.high64, h.low64);
  return out;
}

std::optional<std::string> file_xxh3_hex(const std::filesystem::path& path) {
  auto h = file_xxh3(path);
  return h ? std::optional(std::move(h->xxh3)) : std::nullopt;
}

std::string content_seal(std::string_view bytes) { return std::to_string(bytes.size()) + " " + xxh3_hex(bytes); }

void write_sealed(const std::filesystem::path& path, std::string_view content) {
  std::string text = fmt::format("{}{} xxh3-128={}\n", kHead, content.size(), xxh3_hex(content));
  text += content;
  write_file_atomically(path, text);
}

SealedRead read_sealed(const std::filesystem::path& path) {
  SealedRead r;
  std::optional<std::string> text = try_read_file_text(path);
  if (!text) return r;
  // No seal at all: written by an older version, so simply not used (rebuilt). A start of one cut
  // short is damage.
  const bool cut_seal = text->size() < kHead.size() && kHead.substr(0, text->size()) == *text && !text->empty();
  if (text->compare(0, kHead.size(), kHead) != 0 && !cut_seal) {
    r.state = SealedRead::State::Unsealed;
    return r;
  }
  r.state = SealedRead::State::Bad;
  const std::size_t nl = text->find('\n');
  if (cut_seal || nl == std::string::npos) {
    r.why = fmt::format("cut short ({} bytes)", text->size());
    return r;
  }
  unsigned long long size = 0;
  char hash[33] = {};
  if (std::sscanf(text->c_str() + kHead.size(), "%llu xxh3-128=%32[0-9a-f]", &size, hash) != 2) {
    r.why = "its seal cannot be read";
    return r;
  }
  std::string_view content = std::string_view(*text).substr(nl + 1);
  if (content.size() != size) {
    r.why = fmt::format("{} bytes where its seal says {}", content.size(), size);
    return r;
  }
  if (xxh3_hex(content) != hash) {
    r.why = "its checksum does not match its content";
    return r;
  }
  r.state = SealedRead::State::Good;
  text->erase(0, nl + 1);  // in place: a large entry (the catalog's index) is not held twice
  r.content = std::move(*text);
  return r;
}

void discard_bad_entry(const std::filesystem::path& path, const std::string& why) {
  static std::mutex m;
  static std::set<std::string> said;
  {
    std::lock_guard lock(m);
    if (said.insert(path.string()).second)
      fmt::print(stderr, "cache: {}: {}; discarded, rebuilt\n", path.string(), why);
  }
  std::error_code ec;
  std::filesystem::remove(path, ec);
}

}  // namespace ptxcts
