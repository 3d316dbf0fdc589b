// Whole-file reads, in one place: callers differ only in what a missing file means to them.
#pragma once

#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

// What a reader of the suite's own formats (specs, run reports, journals, the catalog manifest)
// takes at most: they are a few MB; more (a runaway file, /dev/zero) is refused, not read into memory.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{256} << 20;

// The file's bytes, or nullopt where it cannot be opened (the caller says what that means). A file
// whose name ends in `.gz` is gzip-compressed (the committed reports are): its decompressed text,
// and a cut or damaged stream throws std::runtime_error naming the file. A file
// of more than max_bytes throws std::runtime_error "<path>: more than N MiB; ..." after reading
// max_bytes + 1 of them.
std::optional<std::string> try_read_file_text(const std::filesystem::path& path,
                                              std::size_t max_bytes = std::numeric_limits<std::size_t>::max());

// `path`'s text, else that of `path`.gz (a committed report beside others is compressed), else nullopt.
std::optional<std::string> try_read_plain_or_gzipped(const std::filesystem::path& path,
                                                     std::size_t max_bytes = kMaxInputFileBytes);

// The file's bytes; throws std::runtime_error "<path>: cannot read <what>" where it cannot be opened.
std::string read_file_text(const std::filesystem::path& path, std::string_view what = "this file");

}  // namespace ptxcts
