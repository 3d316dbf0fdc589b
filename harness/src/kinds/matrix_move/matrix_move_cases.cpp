#include "kinds/matrix_move/matrix_move_cases.hpp"

#include <fmt/format.h>

#include "spec/spec_error.hpp"
#include "spec/spec_fields.hpp"

namespace ptxcts {
namespace {

CaseSpec read_matrix_move_case(YamlReader item, std::set<std::string>& names, const TargetCatalog& targets) {
  item.expect_map({"name", "description", "data", "seed", "where", "variant", "lanes", "other_form", "undefined"});
  CaseSpec c = read_case_basics(item, names);
  c.block = kMatrixMoveCaseBlock;
  c.where = item.at("name").where();
  MatrixMoveCaseOptions o;
  if (item.has("seed")) c.seed = static_cast<std::uint64_t>(item.at("seed").integer(0, 999999999999));
  else if (c.data == DataKind::Random) item.fail("random data needs a 'seed', so that runs are repeatable");
  o.variant = item.at("variant").str();
  o.lanes = read_lanes_case(item);
  read_case_where(item, c);
  read_case_undefined(item, c, targets);
  if (o.lanes.lanes == LanesShape::All || c.undefined.empty())
    item.fail(
        "a matrix_move case is one of lanes 16 to 31 leaving the instruction, which the manual leaves "
        "undefined: it needs its 'lanes' and its 'undefined' entry (the manual's words)");
  c.options = o;
  return c;
}

void read_matrix_move_block(YamlReader r, CaseSet& set, std::set<std::string>& names, const TargetCatalog& targets) {
  r.expect_map({"cases"});
  for (auto item : r.at("cases").items("'cases' of matrix_move"))
    set.cases.push_back(read_matrix_move_case(item, names, targets));
}

// A case's 'variant' names a variant of the specs.
void check_matrix_move_block(const SpecSet& specs) {
  for (auto const& c : specs.cases.cases) {
    const auto* o = std::any_cast<MatrixMoveCaseOptions>(&c.options);
    if (c.block == kMatrixMoveCaseBlock && o && !specs.find_variant(o->variant))
      throw SpecError(c.where, fmt::format("case '{}' names unknown variant '{}'; expected a variant of the specs",
                                           c.name, o->variant));
  }
}

}  // namespace

const MatrixMoveLanesKernel* matrix_move_lanes_kernel(const KernelPlan& k) {
  return std::any_cast<MatrixMoveLanesKernel>(&k.kind_data);
}

MatrixMoveCaseOptions matrix_move_case_options(const CaseSpec& c) {
  const auto* o = std::any_cast<MatrixMoveCaseOptions>(&c.options);
  return o ? *o : MatrixMoveCaseOptions{};
}

KindCaseBlock matrix_move_case_block() {
  return {.key = kMatrixMoveCaseBlock, .read = read_matrix_move_block, .check = check_matrix_move_block};
}

}  // namespace ptxcts
