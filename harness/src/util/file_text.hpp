// Whole-file reads, in one place: every file and stream the suite accepts (specs, reports, journals,
// manifests, case lists, expectations, seals, the files a program leaves it) is read here, bounded
// and checked; callers differ only in what a missing file means to them and in what they expected.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

// What a reader of the suite's own formats (specs, run reports, journals, the catalog manifest, case
// lists, expectations) takes at most: they are a few MB; more (a runaway file, /dev/zero) is refused,
// not read into memory.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{256} << 20;
// What a reader of a program (a ptxas to seal, ptxcts itself) takes at most.
inline constexpr std::size_t kMaxProgramBytes = std::size_t{4} << 30;

// The file's bytes, or nullopt where it does not exist or cannot be opened (the caller says what that
// means; errno says why). Read in chunks, so that a stream without an end (a device, a FIFO,
// /dev/zero) costs at most the limit. Throws std::runtime_error naming the file and `what` (what the
// caller expected there, e.g. "a case list"; empty: "a spec, report, journal or manifest") where it is
// a folder ("<path>: is a folder; expected <what>"), where more than max_bytes are there ("<path>:
// more than N MiB; refused unread (expected <what>, ...)", after reading max_bytes + 1 of them), and
// where a read fails midway ("<path>: cannot read <what>: <reason>"). A file whose name ends in `.gz`
// is gzip-compressed (the committed reports are): its decompressed text, and a cut or damaged stream
// throws naming the file.
std::optional<std::string> try_read_file_text(const std::filesystem::path& path,
                                              std::size_t max_bytes = kMaxInputFileBytes, std::string_view what = {});

// The file's bytes, as try_read_file_text reads them; throws std::runtime_error "<path>: cannot read
// <what>" (and why, where the system says: "No such file or directory", "Permission denied") where it
// cannot be opened.
std::string read_file_text(const std::filesystem::path& path, std::string_view what = "this file",
                           std::size_t max_bytes = kMaxInputFileBytes);

}  // namespace ptxcts
