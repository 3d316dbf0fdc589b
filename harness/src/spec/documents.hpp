// The documents the specs cite (specs/documents.yaml), each by its public identity, and the check
// that every `document:` of the specs names one of them.
#pragma once

#include <vector>

#include "spec/spec_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// specs/documents.yaml: id, title, author, address, language, what (and translation_of, copy,
// copy_note); ids unique, a translation's original among them.
std::vector<Document> read_documents(YamlReader r);

// Every `document:` of a grammar block, rule, example, register claim, version spelling and claim
// names a document of `specs.documents`; else a SpecError at the `document:` that does not.
void check_documents(const SpecSet& specs);

}  // namespace ptxcts
