// Which toolkit: what the audit report's "run", the toolkit matrix's columns (and a release's
// catalog) say of the ptxas that made them, in one struct with one JSON form, the four keys in this
// order: "cuda_release", "ptxas_version", "ptx_isa", "targets".
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

#include "util/json_document.hpp"

namespace ptxcts {

struct ToolkitIdentity {
  std::string cuda_release{};          // "13.0"
  std::string ptxas_version{};         // "13.0.88"
  std::string ptx_isa{};               // the newest PTX ISA version it speaks, "9.0"
  std::vector<std::string> targets{};  // the suite's targets it knows, in the report's order
};

// An object with the four keys; the caller adds its own after them.
nlohmann::ordered_json toolkit_identity_json(const ToolkitIdentity& toolkit);

// The four keys of `object` (whose keys the caller has checked): a CUDA release that is not empty.
ToolkitIdentity read_toolkit_identity(const JsonNode& object);

}  // namespace ptxcts
