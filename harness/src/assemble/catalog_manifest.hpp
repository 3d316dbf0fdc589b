// What a catalog holds, as its manifest.json says: each kernel's assembly per target (verdict,
// message, cubin and its seal). Written by the catalog build, read by every run, and readable
// alone (a copied catalog needs nothing else; the fuzzer links only this).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "spec/ptx_version.hpp"

namespace ptxcts {

// What an accepted kernel became (assemble/catalog_sass): its SASS opcodes and those that the
// specs expect to implement its instruction under test.
struct AssemblySass {
  std::vector<std::string> opcodes;   // the function's distinct opcodes, in order of first appearance
  std::vector<std::string> expected;  // the mnemonics the specs expect (family `sass:`); empty: no expectation
  std::vector<std::string> matched;   // the opcodes whose mnemonic is expected; empty: none is there
  std::string unavailable;            // non-empty: no SASS, and why (no disassembler, it failed, ...)
  std::string expectation_source;     // where the expectation comes from ("assumed: ..." for the suite's own)
};

struct Assembly {
  std::string kernel, target;
  PtxVersion ptx;
  bool accepted = false;
  bool attempted = true;     // false: the toolkit's PTX ISA version cannot express this target/form
  std::string message;       // ptxas's output, or why it was not attempted
  std::string cubin;         // relative to the catalog directory (accepted only)
  std::string cubin_seal{};  // its "<size> <xxh3-128>" (accepted only): a run checks the cubin against it
  std::string ptx_file;      // relative to the catalog directory: the kernel's own module, which
                             // the line numbers in `message` refer to
  std::string instruction;   // the instruction text(s) under test, as emitted
  std::string entry;         // the kernel's entry in `cubin` (accepted only)
  std::string error{};       // non-empty: ptxas failed and gave no verdict (accepted is false): how, and what it said
  std::optional<AssemblySass> sass{};  // accepted kernels, once the catalog is disassembled
};

// What assembled a catalog: the suite (version and commit) and the identity of its specs and kernel
// skeletons (their files' names and content seals, report/up_to_date's folder_identity). A run of a
// catalog as it is (a release's, one copied from elsewhere) refuses one made from other specs or by
// another suite: its kernels would not be this suite's. Empty where the maker did not say (tests).
struct CatalogOrigin {
  std::string suite_version{}, suite_commit{}, specs{};
  bool operator==(const CatalogOrigin&) const = default;
  bool known() const { return !specs.empty(); }
};

struct Catalog {
  // 7: the toolkit's own target list and how its PTX ISA was read, and the catalog's origin (so that
  // a catalog is audited and checked with no ptxas at hand); 6: each accepted kernel's SASS and the
  // disassembler; 5: each cubin's seal; 4: kernels only
  static constexpr int kSchemaVersion = 7;
  std::string ptxas_version, cuda_release;
  std::vector<std::string> ptxas_targets{};  // every real target the ptxas knows, in its order (the audit's)
  std::string ptx_isa_read_by{};             // how toolkit_ptx was read ("ptxas --list-version", ...)
  CatalogOrigin origin{};
  std::string disassembler{};      // the one that made the SASS ("cuobjdump 13.5.37 (of CUDA 13.5; ...)")
  std::string sass_unavailable{};  // none: why ("no disassembler: ...", "not asked for")
  PtxVersion toolkit_ptx;
  std::vector<std::string> targets;  // the real targets used, in ptxas's order
  std::vector<Assembly> assemblies;

  const Assembly* find(const std::string& kernel, const std::string& target) const;
  // "<kernel> on <target>: <error>" for every assembly ptxas failed on (no verdict).
  std::vector<std::string> errors() const;
};

Catalog load_catalog(const std::filesystem::path& dir);  // throws std::runtime_error naming the file
void save_catalog(const Catalog& c, const std::filesystem::path& dir);
// The pieces of both, for the manifest's index (catalog_index): the manifest's text for a catalog;
// dir/manifest.json's text (throws std::runtime_error if there is none); a manifest's text parsed
// (errors name `file`).
std::string manifest_text(const Catalog& c);
std::string read_manifest_text(const std::filesystem::path& dir);
Catalog parse_manifest_text(const std::string& text, const std::filesystem::path& file);

}  // namespace ptxcts
