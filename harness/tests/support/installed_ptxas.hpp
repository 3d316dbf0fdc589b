// The ptxas found on this machine (Toolchain::discover), or none: tests that need a real one skip
// where there is none.
#pragma once

#include <exception>
#include <optional>

#include "assemble/toolchain.hpp"

namespace ptxcts::test {

inline std::optional<Toolchain> installed_ptxas() {
  try {
    return Toolchain::discover();
  } catch (const std::exception&) { return std::nullopt; }
}

}  // namespace ptxcts::test
