// The sentence inventory (specs/sentences.yaml): every sentence of the reference text's sections on
// the instructions under test, per section, each mapped to the statements that judge it (ptxas's:
// rules, register claims, examples, syntax blocks, forms, variants' requirements, claims checked by
// requirements; the GPU's: claims checked by cases, variants run lane by lane), or marked with why
// nothing does: descriptive (no testable content), not judgeable on any machine (why), or not yet
// judged (the honest gap). Read strictly, every id checked against the specs, `file:line:column`.
#pragma once

#include <string>
#include <vector>

#include "spec/sentence_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

struct SpecSet;

std::vector<SentenceSection> read_sentences(YamlReader r);

// Every id a sentence names is one of the specs' statements, of the judge it is listed under.
void check_sentences(const SpecSet& specs);

}  // namespace ptxcts
