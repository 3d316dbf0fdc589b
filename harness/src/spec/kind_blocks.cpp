#include "spec/kind_blocks.hpp"

namespace ptxcts {

const KindOperation* find_kind_operation(const std::string& name) {
  for (auto const& op : kind_operations())
    if (op.name == name) return &op;
  return nullptr;
}

}  // namespace ptxcts
