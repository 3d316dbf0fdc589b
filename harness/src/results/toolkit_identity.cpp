#include "results/toolkit_identity.hpp"

#include <nlohmann/json.hpp>

namespace ptxcts {

nlohmann::ordered_json toolkit_identity_json(const ToolkitIdentity& toolkit) {
  return {{"cuda_release", toolkit.cuda_release},
          {"ptxas_version", toolkit.ptxas_version},
          {"ptx_isa", toolkit.ptx_isa},
          {"targets", toolkit.targets}};
}

ToolkitIdentity read_toolkit_identity(const JsonNode& object) {
  ToolkitIdentity t;
  t.cuda_release = object.at("cuda_release").str();
  if (t.cuda_release.empty()) object.at("cuda_release").fail("expected a CUDA release such as \"12.4\", got \"\"");
  t.ptxas_version = object.at("ptxas_version").str();
  t.ptx_isa = object.at("ptx_isa").str();
  t.targets = object.at("targets").strings();
  return t;
}

}  // namespace ptxcts
