// What the mma kind alone asks of the documents, as data the audit judges without knowing the kind
// (kinds/kind_statements.hpp): the printed fragment formulas and mma.sp's sparse sections, each a
// statement checked on the host (kinds/mma/formula_text.hpp), in that order; and the specs' texts
// that cite its fragment sections, which the audit holds against the shapes the syntax spells
// (judge/fragment_sections.hpp).
// May call: spec/.
#pragma once

#include <string>
#include <vector>

#include "kinds/kind_statements.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

std::vector<KindStatement> mma_statements(const SpecSet& specs);

// Its variants' layouts' sources (in the variants' order) and its sparse sections' titles.
std::vector<std::string> mma_section_sources(const SpecSet& specs);

}  // namespace ptxcts
