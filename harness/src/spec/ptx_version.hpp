// A PTX ISA version ("7.8"), ordered.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

struct PtxVersion {
  int major = 0, minor = 0;
  static std::optional<PtxVersion> parse(std::string_view text);  // "M.N", N one digit
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
  auto operator<=>(const PtxVersion&) const = default;
};

inline std::optional<PtxVersion> PtxVersion::parse(std::string_view t) {
  if (t.size() != 3 || t[1] != '.' || t[0] < '1' || t[0] > '9' || t[2] < '0' || t[2] > '9') return std::nullopt;
  return PtxVersion{.major = t[0] - '0', .minor = t[2] - '0'};
}

}  // namespace ptxcts
