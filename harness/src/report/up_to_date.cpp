#include "report/up_to_date.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <system_error>

#include "util/file_text.hpp"
#include "util/sealed_file.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

fs::path stamp_path(const fs::path& stamps, const fs::path& report) {
  std::error_code ec;
  fs::path absolute = fs::weakly_canonical(report, ec);
  if (ec) absolute = fs::absolute(report);
  return stamps / (xxh3_hex(absolute.string()) + ".stamp");
}

}  // namespace

std::string inputs_key(const std::vector<std::string>& parts) {
  std::string all;
  for (auto const& p : parts) all += fmt::format("{}:", p.size()) + p;
  return xxh3_hex(all);
}

const std::string& program_identity() {
  static const std::string id = [] {
    return file_xxh3_hex("/proc/self/exe").value_or("unknown program");
  }();
  return id;
}

std::string folder_identity(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto const& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::string all;
  for (auto const& f : files) all += f.filename().string() + '\0' + file_seal(f) + '\0';
  return xxh3_hex(all);
}

std::string file_identity(const fs::path& file) {
  std::error_code size_ec, time_ec;
  const auto size = fs::file_size(file, size_ec);
  const auto time = fs::last_write_time(file, time_ec);
  return fmt::format("{} {} {}", fs::absolute(file).string(), size_ec ? 0 : size,
                     time_ec ? 0 : time.time_since_epoch().count());
}

std::string file_seal(const fs::path& file) {
  auto bytes = try_read_file_text(file);
  return bytes ? content_seal(*bytes) : "";
}

std::optional<Stamp> up_to_date(const fs::path& stamps, const std::vector<fs::path>& files, const std::string& key) {
  const fs::path path = stamp_path(stamps, files.front());
  SealedRead r = read_sealed(path);
  if (r.state == SealedRead::State::Bad) discard_bad_entry(path, r.why);
  if (!r.good()) return std::nullopt;
  try {
    const nlohmann::json j = nlohmann::json::parse(r.content);
    if (j.at("key").get<std::string>() != key) return std::nullopt;
    const auto& seals = j.at("seals");
    if (seals.size() != files.size()) return std::nullopt;
    for (std::size_t k = 0; k < files.size(); ++k) {
      const std::string seal = file_seal(files[k]);
      if (seal.empty() || seals.at(k).get<std::string>() != seal) return std::nullopt;
    }
    return Stamp{.said = j.at("said").get<std::string>(), .status = j.at("status").get<int>()};
  } catch (const nlohmann::json::exception& e) {
    discard_bad_entry(path, e.what());
    return std::nullopt;
  }
}

void stamp_reports(const fs::path& stamps, const std::vector<fs::path>& files, const std::string& key,
                   const Stamp& stamp) {
  nlohmann::json seals = nlohmann::json::array();
  for (auto const& f : files) seals.push_back(file_seal(f));
  std::error_code ec;
  fs::create_directories(stamps, ec);
  try {
    write_sealed(stamp_path(stamps, files.front()),
                 nlohmann::json{{"key", key}, {"seals", seals}, {"said", stamp.said}, {"status", stamp.status}}.dump());
  } catch (const std::exception&) {
    // A read-only cache: nothing is stamped, and the next run writes the reports again.
  }
}

}  // namespace ptxcts
