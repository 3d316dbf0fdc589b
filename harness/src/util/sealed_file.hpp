// Cache files that carry their own size and checksum, so that a truncated, flipped or half-written
// entry is caught when it is read instead of being believed. A sealed file is one header line,
// "ptxcts-sealed size=<bytes> xxh3-128=<32 hex digits>", then the content.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

// The XXH3 128-bit hash of `bytes`, as 32 hex digits.
std::string xxh3_hex(std::string_view bytes);
// A whole file's size and XXH3 128-bit hash (32 hex digits), read a MiB at a time (a program built
// with debug information is hundreds of MiB: read whole into memory it cost a warm command 0.27 s
// of page faults); none where it is no file, cannot be read, or holds more than `max_bytes`.
struct FileHash {
  std::uint64_t size = 0;
  std::string xxh3;
};
std::optional<FileHash> file_xxh3(const std::filesystem::path& path, std::uint64_t max_bytes = UINT64_MAX);
// Its hash alone.
std::optional<std::string> file_xxh3_hex(const std::filesystem::path& path);

// "<size> <xxh3-128 hex>": what is recorded of a file (a cubin, a report) to know it again.
std::string content_seal(std::string_view bytes);

// Writes `content` sealed, atomically (unique temporary name, then rename): safe with several writers.
void write_sealed(const std::filesystem::path& path, std::string_view content);

struct SealedRead {
  // Unsealed: written by an older version (no seal at all); not used, not reported.
  enum class State { Missing, Unsealed, Good, Bad } state = State::Missing;
  std::string content;  // Good: the content, checked
  std::string why;      // Bad: what is wrong with it
  bool good() const { return state == State::Good; }
};
SealedRead read_sealed(const std::filesystem::path& path);

// A cache entry found bad: said once per path on stderr, and removed, so that it is rebuilt.
void discard_bad_entry(const std::filesystem::path& path, const std::string& why);

}  // namespace ptxcts
