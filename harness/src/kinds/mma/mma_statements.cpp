#include "kinds/mma/mma_statements.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kinds/mma/formula_text.hpp"
#include "kinds/mma/mma_spec.hpp"
#include "kinds/mma/mma_sparse_spec.hpp"

namespace ptxcts {
namespace {

// A printed fragment formula: one that cannot be right a document error, with the reading the suite
// evaluates instead.
KindStatement formula_statement(const FormulaTextCheck& c) {
  const std::string id = fmt::format("{}/{}{}.{}", c.variant, c.operand, c.layout.empty() ? "" : c.layout, c.axis);
  KindStatement s{.id = id,
                  .kind = "fragment-formula",
                  .family = c.family,
                  .words = c.manual,
                  .source = c.source,
                  .held = c.printed_holds ? KindStatement::Held::Yes : KindStatement::Held::No,
                  .evidence = c.evidence,
                  .finding = "",
                  .subject = "",
                  .form = ""};
  if (!c.printed_holds) {
    std::string reading = c.reading;
    std::replace(reading.begin(), reading.end(), '\n', '/');
    s.evidence += fmt::format("; the suite reads it as \"{}\" ({})", reading, c.why);
    s.finding = "document-error/formula/" + id;
    s.subject = fmt::format("{} operand {} {} formula", c.variant, c.operand, c.axis);
    s.form = c.reading;
  }
  return s;
}

// A sparse section's A block (the document against itself: evaluated for every lane and element), or
// what it only draws, or defers to a dense section for, said as such.
KindStatement sparse_statement(const SparseFragmentCheck& c) {
  const std::string id = c.entry + "/" + c.operand;
  return {.id = id,
          .kind = "fragment-" + c.what,
          .family = c.family,
          .words = c.words,
          .source = c.source,
          .held = !c.checked ? KindStatement::Held::NotChecked
                  : c.holds  ? KindStatement::Held::Yes
                             : KindStatement::Held::No,
          .evidence = c.evidence,
          .finding = "document-error/sparse-" + c.what + "/" + id,
          .subject = fmt::format("{} operand {} ({})", c.entry, c.operand, c.what),
          .form = c.entry};
}

}  // namespace

std::vector<KindStatement> mma_statements(const SpecSet& specs) {
  std::vector<KindStatement> out;
  for (auto const& c : check_formula_texts(specs)) out.push_back(formula_statement(c));
  for (auto const& c : check_sparse_fragments(specs)) out.push_back(sparse_statement(c));
  return out;
}

std::vector<std::string> mma_section_sources(const SpecSet& specs) {
  std::vector<std::string> out;
  for (auto const& v : specs.variants)
    if (const MmaSpec* spec = v.semantics_as<MmaSpec>(); spec && !spec->sparse.chunk)  // mma.sp: below
      for (const MmaOperand* o : {&spec->a, &spec->b, &spec->c})
        for (auto const& [key, layout] : o->layouts) out.push_back(layout.source);
  for (auto const& s : sparse_fragments(specs)) out.push_back(s.section);
  return out;
}

}  // namespace ptxcts
