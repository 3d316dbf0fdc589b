// How the audit plan (judge/audit_plan.cpp) finds an example's instruction among the documented
// forms: an instruction line's mnemonic, and its qualifiers as a key that ignores their order.
#pragma once

#include <string>

namespace ptxcts {

// The mnemonic of an instruction line: up to the first blank, a guard (@p) left out.
std::string mnemonic_of(std::string line);

// An instruction's qualifiers as a key that ignores their order but keeps the element types' (a
// dtype before a ctype): the other qualifiers sorted, then the types as written.
std::string qualifier_key(const std::string& opcode);

}  // namespace ptxcts
