// Reading a family's `address_words:` (YAML -> spec/grammar_model.hpp's AddressWords): what each
// instruction's own section says of its address operand and of its state spaces, the words quoted
// with their document and source, each entry copied onto the syntax blocks of its mnemonic.
#pragma once

#include <string>
#include <vector>

#include "spec/grammar_model.hpp"
#include "spec/yaml_reader.hpp"

namespace ptxcts {

// The state spaces an entry may name: `generic` (read as "") and the spaces the audit asks
// (judge/negative_space_parts.hpp's kStateSpaces).
inline const std::vector<std::string> kAddressStateSpaces = {"generic", ".shared", ".shared::cta", ".shared::cluster",
                                                             ".global",  ".local",  ".const",       ".param"};

// Each entry's mnemonic must begin the syntax of one of `blocks` (this family's), once; each space
// one of kAddressStateSpaces, in `allowed` or `unnamed` but not both. Sets each block's address_words.
void read_address_words(const YamlReader& list, const std::string& family, std::vector<GrammarBlock>& blocks);

}  // namespace ptxcts
