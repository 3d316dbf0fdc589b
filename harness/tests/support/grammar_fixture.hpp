// A small grammar for tests: the manual's first ldmatrix syntax block, two of its rules and one
// example, appended to the frozen base specs (tests/data/specs-base).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "spec/spec_loader.hpp"

namespace ptxcts::test {

inline std::string read_base(const std::string& name) {
  std::ifstream in(std::string(PTXCTS_TEST_DATA) + "/specs-base/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The ldmatrix syntax block of the manual (its first line), two of its rules, one example.
inline const std::string kGrammar = R"yaml(
grammar:
  - block: ldmatrix.shape
    document: manual
    source: "PTX ISA 9.0, ldmatrix, Syntax"
    manual: "ldmatrix.sync.aligned.shape.num{.trans}{.ss}.type r, [p];"
    syntax: "ldmatrix.sync.aligned{shape}{num}{trans}{ss}{type} {regs}, [{addr}];"
    positions:
      shape:
        - {text: .m8n8, set: {per: 1}}
        - {text: .m16n16, set: {per: 2}}
      num:
        - {text: .x1, set: {matrices: 1}}
        - {text: .x2, set: {matrices: 2}}
        - {text: .x4, set: {matrices: 4}}
      trans: ["", .trans]
      ss: ["", .shared, .shared::cta]
      type: [.b16, .b8]
    registers: per * matrices
    register_type: .b32

rules:
  - rule: m16n16-num
    text: "When .shape is .m16n16, only .x1 and .x2 are valid values for .num."
    source: "PTX ISA 9.0, ldmatrix, Description"
    document: manual
    when: {shape: [.m16n16]}
    only: {num: [.x1, .x2]}
  - rule: m8n8-type
    text: ".m8n8 matrices hold 16-bit elements"
    source: "PTX ISA 9.0, ldmatrix, Description (table)"
    document: manual
    when: {shape: [.m8n8]}
    only: {type: [.b16]}

examples:
  - example: ex1
    document: manual
    source: "PTX ISA 9.0, ldmatrix, Examples"
    text: |
      .reg .b64 addr;
      .reg .b32 d;
      ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {d}, [addr];   // one matrix
)yaml";

// specs-base (a frozen copy of the specs: ldmatrix .m8n8 and stmatrix .m8n8 only) with `ldmatrix_tail`
// appended to its ldmatrix.yaml.
inline std::vector<SpecFile> files(const std::string& ldmatrix_tail) {
  return {{.path = "specs/targets.yaml", .text = read_base("targets.yaml")},
          {.path = "specs/cases.yaml", .text = read_base("cases.yaml")},
          {.path = "specs/documents.yaml", .text = read_base("documents.yaml")},  // what `document:` names
          {.path = "specs/ldmatrix.yaml", .text = read_base("ldmatrix.yaml") + ldmatrix_tail},
          {.path = "specs/stmatrix.yaml", .text = read_base("stmatrix.yaml")}};
}

}  // namespace ptxcts::test
