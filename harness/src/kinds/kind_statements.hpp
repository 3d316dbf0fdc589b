// The describing face's audit questions: what a kind alone can ask of the documents and check on
// the host from the specs, without ptxas (the fragment formulas its sections print, evaluated lane by
// lane), as data the audit judges without knowing the kind (judge/questions/kind_statements.cpp:
// a statement each, and a document error of the fragment formulas where one does not hold).
// May call: spec/.
#pragma once

#include <string>

namespace ptxcts {

struct KindStatement {
  std::string id, kind, family;  // the statement's id, kind ("fragment-formula") and family
  std::string words, source;     // the documents' words, and where they stand
  enum class Held { Yes, No, NotChecked } held = Held::Yes;
  std::string evidence;
  // Where it does not hold, the finding: its id, subject, and the form its observation names.
  std::string finding, subject, form;
};

}  // namespace ptxcts
