#include "spec/spec_loader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <regex>
#include <set>
#include <stdexcept>

#include "spec/address_words_reader.hpp"
#include "spec/documents.hpp"
#include "spec/sentences.hpp"
#include "spec/grammar.hpp"
#include "spec/grammar_reader.hpp"
#include "spec/kind_blocks.hpp"
#include "spec/sass_expectations.hpp"
#include "spec/spec_checks.hpp"
#include "spec/spec_fields.hpp"
#include "spec/spec_limits.hpp"
#include "spec/variant_reader.hpp"
#include "spec/yaml_reader.hpp"
#include "util/file_text.hpp"

namespace ptxcts {
namespace {

// A fault case breaks a documented rule on purpose; the wmma cases at the edge of a rule
// (MinimalAlignment*) keep it, and are isolated only in case a GPU wants more.
bool breaks_a_rule(Fault f) {
  return f != Fault::None && f != Fault::MinimalAlignmentAddress && f != Fault::MinimalAlignmentStride;
}

// A case named in a claim check, or none (an unknown case: check_claim_refs says so).
const CaseSpec* find_case(const CaseSet& cases, const std::string& name) {
  auto cs = std::find_if(cases.cases.begin(), cases.cases.end(), [&](auto const& x) { return x.name == name; });
  return cs == cases.cases.end() ? nullptr : &*cs;
}

// What a claim predicts must fit its cases: a fault only where a case breaks a rule, and no
// pass or fail where one does (a claim without 'cases' judges every case that is not a fault case).
void check_expect_fits_cases(const YamlReader& ck, const std::string& id, Expect expect,
                             const std::vector<YamlReader>& case_items, const CaseSet& cases) {
  if (expect == Expect::Fault && case_items.empty())
    ck.at("expect").fail(
        fmt::format("claim '{}' expects a fault but names no cases, so it would judge only cases that are not fault "
                    "cases; expected 'cases' naming fault cases",
                    id));
  for (auto const& item : case_items) {
    const CaseSpec* cs = find_case(cases, item.str());
    if (!cs) continue;  // an unknown case: check_claim_refs says so
    if (expect == Expect::Fault && cs->fault == Fault::None)
      ck.at("expect").fail(
          fmt::format("claim '{}' expects a fault, but case '{}' is not a fault case (no 'fault:' in cases.yaml); "
                      "expected only fault cases, or expect: pass, fail or observe",
                      id, cs->name));
    if ((expect == Expect::Pass || expect == Expect::Fail) && breaks_a_rule(cs->fault))
      item.fail(fmt::format(
          "claim '{}' expects '{}', but case '{}' is a fault case (it breaks a documented rule on purpose); "
          "expected expect: fault or observe",
          id, to_string(expect), cs->name));
  }
}

// The control cases of a claim that predicts a failure or a fault (and only of such a claim).
void read_controls(const YamlReader& ck, const CaseSet& cases, ClaimCheck& check) {
  const Expect expect = check.expect;
  if (ck.has("controls")) {
    if (expect != Expect::Fail && expect != Expect::Fault)
      ck.at("controls").fail("controls belong to claims that predict a failure or a fault (expect: fail or fault)");
    for (auto const& v : ck.at("controls").items("'controls' of a claim check")) {
      const CaseSpec* cs = find_case(cases, v.str());
      if (cs && cs->fault != Fault::None)
        v.fail(fmt::format("control case '{}' is a fault case; expected a case that keeps every documented rule",
                           cs->name));
      check.controls.push_back(v.str());
    }
  } else if (expect == Expect::Fail || expect == Expect::Fault) {
    ck.at("expect").fail(
        fmt::format("a claim that predicts a {} needs 'controls': cases of the same kernels that must pass, so that "
                    "a device that "
                    "fails everything does not confirm it",
                    expect == Expect::Fail ? "failure" : "fault"));
  }
}

// A check of kind 'cases': which cases of a variant (where its qualifiers have these values) are
// expected to do what.
ClaimCheck read_cases_check(YamlReader ck, const std::string& id, const CaseSet& cases) {
  ck.expect_map({"kind", "variant", "where", "cases", "expect", "controls"});
  ClaimCheck check;
  check.kind = ClaimCheckKind::Cases;
  check.variant = ck.at("variant").str();
  if (ck.has("where"))
    for (auto& [k, vals] : ck.at("where").entries("'where' of a claim check")) {
      auto items = vals.items("qualifier values");
      if (items.empty()) vals.fail(fmt::format("claim '{}' selects no value of qualifier '{}'", id, k.str()));
      for (auto const& v : items) check.where[k.str()].push_back(v.str());
    }
  std::vector<YamlReader> case_items;
  if (ck.has("cases")) case_items = ck.at("cases").items("'cases' of a claim check");
  for (auto const& v : case_items) check.cases.push_back(v.str());
  try {
    check.expect = expect_from_string(ck.at("expect").str());
  } catch (const std::invalid_argument& e) { ck.at("expect").fail(e.what()); }
  check_expect_fits_cases(ck, id, check.expect, case_items, cases);
  read_controls(ck, cases, check);
  return check;
}

// A claim's check: how its words are put to the GPU (cases, roundtrip, composition or requirements).
ClaimCheck read_check(YamlReader ck, const std::string& id, const CaseSet& cases) {
  const std::string kind = ck.at("kind").str();
  if (kind == "cases") return read_cases_check(ck, id, cases);
  ClaimCheck check;
  if (kind == "roundtrip") {
    ck.expect_map({"kind", "load", "store"});
    check.kind = ClaimCheckKind::Roundtrip;
    check.load = ck.at("load").str();
    check.store = ck.at("store").str();
  } else if (kind == "composition") {
    ck.expect_map({"kind", "steps"});
    check.kind = ClaimCheckKind::Composition;
    for (auto const& s : ck.at("steps").items("'steps' of a composition")) check.steps.push_back(s.str());
    if (check.steps.size() < 2) ck.at("steps").fail("a composition needs at least two instructions");
  } else if (kind == "requirements") {
    ck.expect_map({"kind", "variant"});
    check.kind = ClaimCheckKind::Requirements;
    check.variant = ck.at("variant").str();
  } else {
    ck.at("kind").fail(fmt::format("unknown claim check kind '{}'; expected cases, roundtrip, composition or requirements", kind));
  }
  return check;
}

Claim read_claim(YamlReader r, const std::string& family, const CaseSet& cases) {
  r.expect_map({"id", "text", "source", "document", "paraphrase", "note", "hypothesis", "check"});
  Claim c;
  c.family = family;
  c.where = r.where();
  c.id = read_identifier(r.at("id"), "a claim id");
  c.text = r.at("text").str();
  c.source = r.at("source").str();
  // The text is quoted from `document` (the manual unless it says otherwise; an id of documents.yaml,
  // which check_documents checks), or `paraphrase` says why not: test_quoted_words checks the words
  // against the reference text, as the grammar's.
  c.cite = {.document = "manual", .source = c.source};
  if (r.has("document")) {
    c.cite.document = read_identifier(r.at("document"), "a document (an id of documents.yaml)");
    c.cite.document_at = r.at("document").where();
  }
  if (r.has("paraphrase") && r.at("paraphrase").str().empty())
    r.at("paraphrase").fail(
        "expected why the words are not checked verbatim ('paraphrase: <why>'), not an empty text");
  if (r.has("note")) c.note = r.at("note").str();
  c.check = read_check(r.at("check"), c.id, cases);
  if (r.has("hypothesis")) c.hypothesis = r.at("hypothesis").boolean();
  if (c.hypothesis && (c.check.kind != ClaimCheckKind::Cases || c.check.expect != Expect::Pass))
    r.at("hypothesis").fail("a hypothesis is judged by cases that must pass: expected 'check: {kind: cases, ..., expect: pass}'");
  return c;
}

// A multiply's registers per operand (d, a, b and c, each named once).
std::map<std::string, int> read_operand_registers(const YamlReader& r) {
  std::map<std::string, int> out;
  for (auto& [k, n] : r.entries("'registers' of a multiply form (d, a, b, c)")) {
    std::string op = k.str();
    if (op != "d" && op != "a" && op != "b" && op != "c")
      k.fail(fmt::format("expected an operand d, a, b or c but found '{}'", op));
    out[op] = static_cast<int>(n.integer(1, 16));
  }
  for (const char* op : {"d", "a", "b", "c"})
    if (!out.count(op)) r.fail(fmt::format("registers of operand '{}' missing", op));
  return out;
}

// The diagnostic class an invalid form is rejected with: one of diagnostics.yaml's.
std::string read_diagnostic_name(const YamlReader& r, const SpecSet& specs) {
  std::string name = r.str();
  if (!specs.find_diagnostic(name)) {
    std::vector<std::string> names;
    for (auto const& d : specs.diagnostics) names.push_back(d.name);
    r.fail(fmt::format("unknown diagnostic class '{}'; expected one of: {}", name, fmt::join(names, ", ")));
  }
  return name;
}

AuditForm read_form(YamlReader r, const std::string& family, AuditForm::Kind kind, const SpecSet& specs) {
  const bool invalid = kind == AuditForm::Kind::Invalid;
  if (invalid)
    r.expect_map({"name", "text", "registers", "address_width", "target", "ptx", "diagnostic", "reason", "source"});
  else r.expect_map({"name", "text", "registers", "address_width", "target", "ptx", "source"});
  AuditForm f;
  f.kind = kind;
  f.family = family;
  f.where = r.where();
  f.name = read_identifier(r.at("name"), "a form name");
  f.text = r.at("text").str();
  bool regs = f.text.find("{regs}") != std::string::npos && f.text.find("{addr}") != std::string::npos;
  bool move = f.text.find("{dst}") != std::string::npos && f.text.find("{src}") != std::string::npos;
  bool multiply = f.text.find("{d}") != std::string::npos && f.text.find("{c}") != std::string::npos;
  if (!regs && !move && !multiply)
    r.at("text").fail(
        "expected the instruction with {regs} and {addr} (or {dst} and {src}; or {d}, {a}, {b}, {c}) for its operands");
  // The operands the probe fills: a multiply's; a load's or store's with a stride operand where the
  // family's variants have one (wmma); else a load's, store's or move's.
  bool stride = false;
  for (auto const& v : specs.variants)
    for (auto const& a : v.axes)
      for (auto const& o : a.options) stride = stride || (v.family == family && o.text == ", {stride}");
  const std::set<std::string> known = multiply ? std::set<std::string>{"d", "a", "b", "c"}
                                      : stride ? std::set<std::string>{"regs", "addr", "stride"}
                                               : std::set<std::string>{"regs", "addr", "dst", "src"};
  read_placeholders(r.at("text"), f.text, "the form's text", known,
                    multiply ? "{d}, {a}, {b} or {c}"
                    : stride ? "{regs}, {addr} or {stride}"
                             : "{regs}, {addr}, {dst} or {src}");
  if (multiply) f.operand_registers = read_operand_registers(r.at("registers"));  // wmma.mma, mma
  else f.registers = static_cast<int>(r.at("registers").integer(1, 16));
  if (r.has("address_width")) {
    f.address_width = static_cast<int>(r.at("address_width").integer(32, 64));
    if (f.address_width != 32 && f.address_width != 64)
      r.at("address_width").fail(fmt::format("expected an address width of 32 or 64 but found {}", f.address_width));
  }
  f.target = r.at("target").str();
  if (!specs.targets.find(f.target))
    r.at("target").fail(fmt::format("unknown target '{}'; expected a name from targets.yaml", f.target));
  if (r.has("ptx")) f.ptx = read_ptx(r.at("ptx"), &specs.targets);
  if (invalid) {
    f.diagnostic = read_diagnostic_name(r.at("diagnostic"), specs);
    f.reason = r.at("reason").str();
  }
  f.source = r.at("source").str();
  return f;
}

std::vector<DiagnosticClass> read_diagnostics(YamlReader r) {
  r.expect_map({"classes"});
  std::vector<DiagnosticClass> out;
  for (auto item : r.at("classes").items("'classes'")) {
    item.expect_map({"name", "description", "patterns"});
    DiagnosticClass d;
    d.name = read_identifier(item.at("name"), "a diagnostic class name");
    for (auto const& prev : out)
      if (prev.name == d.name) item.at("name").fail(fmt::format("duplicate diagnostic class '{}'", d.name));
    d.description = item.at("description").str();
    for (auto const& p : item.at("patterns").items("'patterns'")) {
      std::string pattern = p.str();
      try {
        std::regex check(pattern);
      } catch (const std::regex_error& e) {
        p.fail(fmt::format("malformed regular expression '{}': {}", pattern, e.what()));
      }
      d.patterns.push_back(pattern);
    }
    if (d.patterns.empty()) item.at("patterns").fail("expected at least one pattern");
    out.push_back(std::move(d));
  }
  return out;
}

TargetCatalog read_targets(YamlReader r) {
  r.expect_map({"ptx_isa_versions", "toolkits", "targets"});
  TargetCatalog t;
  for (auto const& v : r.at("ptx_isa_versions").items("'ptx_isa_versions'")) {
    PtxVersion p = read_ptx(v, nullptr);
    if (!t.ptx_versions.empty() && !(t.ptx_versions.back() < p))
      v.fail(fmt::format("ptx_isa_versions must be in increasing order; {} comes after {}", p.str(),
                         t.ptx_versions.back().str()));
    t.ptx_versions.push_back(p);
  }
  for (auto& [k, v] : r.at("toolkits").entries("'toolkits'")) {
    std::string release = k.str();
    static const std::regex cuda_release(R"(\d{1,2}\.\d{1,2})");
    if (!std::regex_match(release, cuda_release))
      k.fail(fmt::format("expected a CUDA release like \"12.0\" but found '{}'", release));
    t.toolkits[release] = read_ptx(v, &t);
  }
  std::set<std::string> names;
  for (auto item : r.at("targets").items("'targets'")) {
    item.expect_map({"name", "arch", "ptx", "suffix", "family"});
    TargetInfo info;
    info.name = item.at("name").str();
    info.arch = static_cast<int>(item.at("arch").integer(10, 999));
    info.ptx = read_ptx(item.at("ptx"), &t);
    if (item.has("suffix")) {
      info.suffix = item.at("suffix").str();
      if (info.suffix != "" && info.suffix != "a" && info.suffix != "f")
        item.at("suffix").fail(
            fmt::format("unknown target suffix '{}'; expected \"\" (portable), a or f", info.suffix));
    }
    if (item.has("family")) info.family = static_cast<int>(item.at("family").integer(10, 999));
    std::string expected_name = fmt::format("sm_{}{}", info.arch, info.suffix);
    if (info.name != expected_name)
      item.at("name").fail(fmt::format("target name '{}' does not match arch {} and suffix '{}' (expected '{}')",
                                       info.name, info.arch, info.suffix, expected_name));
    if (!names.insert(info.name).second) item.fail(fmt::format("duplicate target '{}'", info.name));
    t.targets.push_back(info);
  }
  return t;
}

// cases.yaml 'mutants': the wrong devices, and what each may pass (with why).
void read_mutants(YamlReader r, CaseSet& s) {
  r.expect_map({"devices", "may_pass"});
  static const std::set<std::string> known{"echo", "zero", "shuffled", "off-by-one", "stale"};
  for (auto d : r.at("devices").items("'devices'")) {
    if (!known.count(d.str()))
      d.fail(fmt::format("unknown device '{}'; expected echo, zero, shuffled, off-by-one or stale", d.str()));
    s.mutants.push_back(d.str());
  }
  if (!r.has("may_pass")) return;
  for (auto item : r.at("may_pass").items("'may_pass'")) {
    item.expect_map({"mutant", "variants", "alone", "cases", "reason"});
    MutantException e;
    e.where = item.where();
    e.mutant = item.at("mutant").str();
    if (std::find(s.mutants.begin(), s.mutants.end(), e.mutant) == s.mutants.end())
      item.at("mutant").fail(fmt::format("'{}' is not one of the devices listed above", e.mutant));
    for (auto v : item.at("variants").items("'variants'")) e.variants.push_back(v.str());
    if (item.has("alone")) e.alone = item.at("alone").boolean();
    if (item.has("cases"))
      for (auto c : item.at("cases").items("'cases'")) e.cases.push_back(c.str());
    e.reason = item.at("reason").str();
    s.mutant_exceptions.push_back(std::move(e));
  }
}

CaseSet read_cases(YamlReader r, const TargetCatalog& targets) {
  std::vector<std::string> keys = {"warps", "tile_bytes", "regions", "cases"};
  for (auto const& b : kind_case_blocks()) keys.push_back(b.key);
  keys.push_back("mutants");
  r.expect_map(keys);
  CaseSet s;
  s.warps = static_cast<int>(r.at("warps").integer(1, 32));
  s.tile_bytes = static_cast<int>(r.at("tile_bytes").integer(256, 16384));
  s.regions = static_cast<int>(r.at("regions").integer(1, 4));
  if (s.tile_bytes % (16 * s.regions) != 0)
    r.at("tile_bytes").fail("tile_bytes must split into 16-byte aligned regions");
  if (s.warps * s.tile_bytes > 48 * 1024) r.fail("warps x tile_bytes must fit in 48 KiB of shared memory");
  std::set<std::string> names;
  for (auto item : r.at("cases").items("'cases'")) {
    item.expect_map({"name", "description", "data", "rows", "seed", "unused_lanes", "fault", "where", "undefined"});
    CaseSpec c = read_case_basics(item, names);
    YamlReader rows = item.at("rows");
    c.where = rows.where();
    if (rows.node().IsMap()) {
      rows.expect_map({"pitch"});
      c.rows = RowPlacement::Pitch;
      c.pitch = static_cast<int>(rows.at("pitch").integer(16, 1024));
      if (c.pitch % 16 != 0)
        rows.at("pitch").fail(
            fmt::format("a pitch must keep rows 16-byte aligned; {} is not a multiple of 16", c.pitch));
    } else {
      std::string p = rows.str();
      if (p == "contiguous") c.rows = RowPlacement::Contiguous;
      else if (p == "scattered") c.rows = RowPlacement::Scattered;
      else rows.fail(fmt::format("unknown row placement '{}'; expected contiguous, scattered or {{pitch: N}}", p));
    }
    if (item.has("seed")) c.seed = static_cast<std::uint64_t>(item.at("seed").integer(0, 999999999999));
    else if (c.data == DataKind::Random || c.rows == RowPlacement::Scattered)
      item.fail("random data and scattered rows need a 'seed', so that runs are repeatable");
    if (item.has("unused_lanes")) {
      std::string u = item.at("unused_lanes").str();
      if (u == "poison") c.poison_unused = true;
      else if (u != "repeat")
        item.at("unused_lanes").fail(fmt::format("unknown unused_lanes '{}'; expected poison or repeat", u));
    }
    if (item.has("fault")) {
      std::string f = item.at("fault").str();
      if (f == "misaligned") c.fault = Fault::Misaligned;
      else if (f == "outside-shared") c.fault = Fault::OutsideShared;
      else item.at("fault").fail(fmt::format("unknown fault '{}'; expected misaligned or outside-shared", f));
    }
    read_case_where(item, c);
    read_case_undefined(item, c, targets);
    s.cases.push_back(c);
  }
  for (auto const& b : kind_case_blocks())
    if (r.has(b.key.c_str())) b.read(r.at(b.key.c_str()), s, names, targets);
  if (r.has("mutants")) read_mutants(r.at("mutants"), s);
  return s;
}

}  // namespace

namespace {

// A known discrepancy: a finding of the audit by its id, a hand-listed form, or a variant on a target.
KnownDiscrepancy read_known_discrepancy(YamlReader item, const SpecSet& specs) {
  item.expect_map({"variant", "target", "form", "finding", "observed", "source", "note"});
  KnownDiscrepancy k;
  k.where = item.where();
  if (item.has("finding")) {
    // A finding of the audit, by its id: it stays in the report's Findings, annotated.
    k.finding = item.at("finding").str();
    if (item.has("variant") || item.has("target") || item.has("form") || item.has("observed"))
      item.fail("a known discrepancy names a finding, a form, or a variant and a target; not several");
    k.source = item.at("source").str();
    if (item.has("note")) k.note = item.at("note").str();
    return k;
  }
  if (item.has("form")) {
    k.form = item.at("form").str();
    if (item.has("variant") || item.has("target"))
      item.fail("a known discrepancy names a form, or a variant and a target, not both");
  } else {
    k.variant = item.at("variant").str();
    k.target = item.at("target").str();
    if (!specs.targets.find(k.target))
      item.at("target").fail(fmt::format("unknown target '{}'; expected a name from targets.yaml", k.target));
  }
  std::string observed = item.at("observed").str();
  if (observed != "accepted" && observed != "rejected")
    item.at("observed").fail(fmt::format("expected accepted or rejected but found '{}'", observed));
  k.observed_accepted = observed == "accepted";
  k.source = item.at("source").str();
  if (item.has("note")) k.note = item.at("note").str();
  return k;
}

using InstanceSyntax = std::map<std::string, std::pair<std::string, SourceLocation>>;  // id -> variant, its syntax

// A family's variants (their instances distinct from every family's so far) and their SASS expectations.
void read_family_variants(const YamlReader& doc, const std::string& family, SpecSet& specs, InstanceSyntax& instances) {
  for (auto const& item : doc.at("variants").items("'variants'")) {
    Variant v = read_variant(item, family, specs.targets);
    std::size_t forms_before = 0;
    for (auto const& prev : specs.variants) forms_before += variant_forms(prev);
    check_suite_size(specs, forms_before, v, item.at("qualifiers"));
    if (const Variant* prev = specs.find_variant(v.name))
      item.at("name").fail(fmt::format("duplicate variant '{}' (first defined at {})", v.name, prev->where.str()));
    check_distinct_instances(v, item.at("syntax"), instances);
    specs.variants.push_back(std::move(v));
  }
  if (doc.has("sass"))
    for (auto& e : read_sass_expectations(doc.at("sass"), family, specs.variants)) specs.sass.push_back(std::move(e));
}

// What a family's documents state: its claims, grammar and rules, examples, sparse fragments and
// register counts.
void read_family_statements(const YamlReader& doc, const std::string& family, SpecSet& specs) {
  if (doc.has("claims"))
    for (auto const& item : doc.at("claims").items("'claims'")) {
      Claim c = read_claim(item, family, specs.cases);
      for (auto const& prev : specs.claims)
        if (prev.id == c.id)
          item.at("id").fail(fmt::format("duplicate claim '{}' (first defined at {})", c.id, prev.where.str()));
      specs.claims.push_back(std::move(c));
    }
  std::vector<GrammarBlock> blocks;
  if (doc.has("grammar")) blocks = read_grammar(doc.at("grammar"), family);
  if (doc.has("rules"))
    for (auto& r : read_rules(doc.at("rules"), family, blocks, specs.targets)) specs.rules.push_back(std::move(r));
  if (doc.has("version_spellings"))
    for (auto& v : read_version_spellings(doc.at("version_spellings"), family, blocks, specs.variants,
                                               specs.targets))
      specs.version_spellings.push_back(std::move(v));
  if (doc.has("address_words")) read_address_words(doc.at("address_words"), family, blocks);
  for (auto& b : blocks) specs.grammar.push_back(std::move(b));
  if (doc.has("examples"))
    for (auto& e : read_examples(doc.at("examples"), family)) specs.examples.push_back(std::move(e));
  for (auto const& block : kind_family_blocks())  // the kinds' own blocks, read in their rooms
    if (doc.has(block.key.c_str())) block.read(doc.at(block.key.c_str()), family, specs);
  if (doc.has("register_claims"))
    for (auto& c : read_register_claims(doc.at("register_claims"), family))
      specs.register_claims.push_back(std::move(c));
  if (doc.has("register_minimums"))
    for (auto& m : read_register_minimums(doc.at("register_minimums"), family, specs.variants))
      specs.register_minimums.push_back(std::move(m));
}

// A family's hand-listed forms: invalid ones and spellings, each name once among all families.
void read_family_forms(const YamlReader& doc, const std::string& family, SpecSet& specs) {
  for (auto [key, kind] :
       {std::pair{"invalid", AuditForm::Kind::Invalid}, std::pair{"spellings", AuditForm::Kind::Spelling}})
    if (doc.has(key))
      for (auto const& item : doc.at(key).items(fmt::format("'{}'", key))) {
        AuditForm form = read_form(item, family, kind, specs);
        for (auto const& prev : specs.forms)
          if (prev.name == form.name)
            item.at("name").fail(fmt::format("duplicate form '{}' (first defined at {})", form.name, prev.where.str()));
        specs.forms.push_back(std::move(form));
      }
}

// One family's spec file, into the set; each family name once.
void read_family_file(const SpecFile& f, SpecSet& specs, std::map<std::string, SourceLocation>& families,
                      InstanceSyntax& instances) {
  YamlReader doc(f.path, parse_yaml(f.path, f.text), "a family spec");
  // 'definitions' holds YAML anchors that the rest of the file refers to; nothing reads it directly.
  std::vector<std::string> keys = {"family",          "definitions",         "variants", "claims", "invalid",
                                   "spellings",       "known_discrepancies", "grammar",  "rules",  "examples",
                                   "register_claims", "version_spellings",   "sass"};
  for (auto const& block : kind_family_blocks()) keys.push_back(block.key);
  keys.push_back("address_words");
  keys.push_back("register_minimums");
  doc.expect_map(keys);
  std::string family = read_identifier(doc.at("family"), "a family name");
  if (auto it = families.find(family); it != families.end())
    doc.at("family").fail(fmt::format("family '{}' is already defined at {}", family, it->second.str()));
  families[family] = doc.at("family").where();
  specs.families.push_back(family);
  read_family_variants(doc, family, specs, instances);
  read_family_statements(doc, family, specs);
  if (doc.has("known_discrepancies"))
    for (auto const& item : doc.at("known_discrepancies").items("'known_discrepancies'"))
      specs.known_discrepancies.push_back(read_known_discrepancy(item, specs));
  read_family_forms(doc, family, specs);
}

// The spec files with a role of their own (by name); every other file is a family's.
struct SharedSpecFiles {
  const SpecFile* targets = nullptr;
  const SpecFile* cases = nullptr;
  const SpecFile* diagnostics = nullptr;  // optional
  const SpecFile* documents = nullptr;    // optional: without it, a `document:` names nothing
  const SpecFile* sentences = nullptr;    // optional: the sentence inventory
  bool holds(const SpecFile& f) const {
    return &f == targets || &f == cases || &f == diagnostics || &f == documents || &f == sentences;
  }
};

SharedSpecFiles shared_spec_files(const std::vector<SpecFile>& files) {
  SharedSpecFiles shared;
  for (auto const& f : files) {
    std::string base = std::filesystem::path(f.path).filename().string();
    if (base == "targets.yaml") shared.targets = &f;
    if (base == "cases.yaml") shared.cases = &f;
    if (base == "diagnostics.yaml") shared.diagnostics = &f;
    if (base == "documents.yaml") shared.documents = &f;
    if (base == "sentences.yaml") shared.sentences = &f;
  }
  if (!shared.targets) throw SpecError({.file = "specs"}, "no targets.yaml among the spec files");
  if (!shared.cases) throw SpecError({.file = "specs"}, "no cases.yaml among the spec files");
  return shared;
}

}  // namespace

SpecSet load_specs(const std::vector<SpecFile>& files) {
  SpecSet specs;
  const SharedSpecFiles shared = shared_spec_files(files);
  const SpecFile &targets = *shared.targets, &cases = *shared.cases;
  specs.targets = read_targets(YamlReader(targets.path, parse_yaml(targets.path, targets.text), "targets.yaml"));
  specs.cases =
      read_cases(YamlReader(cases.path, parse_yaml(cases.path, cases.text), "cases.yaml"), specs.targets);
  if (const SpecFile* diagnostics = shared.diagnostics)  // without it, no documented-invalid form can be declared
    specs.diagnostics = read_diagnostics(
        YamlReader(diagnostics->path, parse_yaml(diagnostics->path, diagnostics->text), "diagnostics.yaml"));
  if (const SpecFile* documents = shared.documents)
    specs.documents =
        read_documents(YamlReader(documents->path, parse_yaml(documents->path, documents->text), "documents.yaml"));
  std::map<std::string, SourceLocation> families;
  InstanceSyntax instances;
  for (auto const& f : files)
    if (!shared.holds(f)) read_family_file(f, specs, families, instances);
  if (const SpecFile* sentences = shared.sentences)
    specs.sentences =
        read_sentences(YamlReader(sentences->path, parse_yaml(sentences->path, sentences->text), "sentences.yaml"));
  check_documents(specs);
  check_sentences(specs);
  check_spec_set(specs);
  check_grammar(specs);
  return specs;
}

TargetCatalog load_target_table(const std::filesystem::path& dir) {
  const std::string path = (dir / "targets.yaml").string();
  const std::optional<std::string> text = try_read_file_text(path, kMaxInputFileBytes);
  if (!text) throw SpecError({.file = path}, "cannot read the file; expected the suite's targets.yaml");
  return read_targets(YamlReader(path, parse_yaml(path, *text), "targets.yaml"));
}

SpecSet load_spec_dir(const std::filesystem::path& dir) {
  std::vector<SpecFile> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw SpecError({.file = dir.string()}, "expected a directory of spec files (*.yaml)");
  // Spec files end in ".yaml". Any other name with .yaml or .yml in it (stmatrix.yml,
  // LDMATRIX.YAML, ldmatrix.yaml.bak, an editor's backup) looks like a spec but would not be read:
  // refuse it rather than run without it.
  std::vector<std::filesystem::path> paths, misnamed;
  for (auto const& e : std::filesystem::directory_iterator(dir)) {
    // Hidden files are an editor's (a lock file .#ldmatrix.yaml, often a dangling link; a swap
    // file): skipped with a word, so that an open editor breaks nothing.
    if (e.path().filename().string().front() == '.') {
      if (e.path().filename().string().find(".yaml") != std::string::npos)
        fmt::print(stderr, "specs: skipping {} (a hidden file: an editor's lock or backup, not a spec)\n",
                   e.path().string());
      continue;
    }
    std::string lower = e.path().filename().string();
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (e.path().extension() == ".yaml") paths.push_back(e.path());
    else if (lower.find(".yaml") != std::string::npos || lower.find(".yml") != std::string::npos)
      misnamed.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  std::sort(misnamed.begin(), misnamed.end());
  for (const char* needed : {"targets.yaml", "cases.yaml"})  // named here with the folder: an empty one, another
    if (std::none_of(paths.begin(), paths.end(), [&](auto const& p) { return p.filename() == needed; }))
      throw SpecError({.file = dir.string()},
                      fmt::format("no {} here; expected a directory of the suite's spec files (targets.yaml, "
                                  "cases.yaml and a file per family)",
                                  needed));
  if (!misnamed.empty())
    throw SpecError(
        {.file = misnamed.front().string()},
        "this file would not be read: spec files end in '.yaml' (lower case, nothing after it); expected it renamed, "
        "or moved out of the specs directory");
  for (auto const& p : paths) {
    std::optional<std::string> text;
    const bool regular = std::filesystem::is_regular_file(p, ec);
    if (regular) text = try_read_file_text(p, kMaxInputFileBytes);
    if (!text) {  // a directory, a broken link, a link loop, no permission
      std::error_code link_ec;
      const bool dangling = ec == std::errc::no_such_file_or_directory && std::filesystem::is_symlink(p, link_ec);
      const std::string why =
          dangling ? "a link to " + std::filesystem::read_symlink(p, link_ec).string() + ", which does not exist"
          : ec     ? ec.message()
          : std::filesystem::is_directory(p, ec) ? "a directory"
          : !regular                             ? "not a regular file"
                                                 : std::strerror(errno);
      throw SpecError({.file = p.string()},
                      "cannot read this file (" + why +
                          "); expected every *.yaml in the specs directory to be a readable spec file");
    }
    files.push_back({.path = p.string(), .text = std::move(*text)});
  }
  return load_specs(files);
}

}  // namespace ptxcts
