// The one error type for bad input: names file:line:column and what was expected.
#pragma once

#include <stdexcept>
#include <string>

#include "spec/spec_model.hpp"

namespace ptxcts {

struct SpecError : std::runtime_error {
  SpecError(SourceLocation where, const std::string& message)
      : std::runtime_error(where.str() + ": " + message), where(std::move(where)), message(message) {}
  SourceLocation where;
  std::string message;
};

}  // namespace ptxcts
