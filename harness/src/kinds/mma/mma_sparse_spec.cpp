#include "kinds/mma/mma_sparse_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <any>
#include <regex>
#include <set>
#include <utility>

#include "kinds/mma/mma_spec.hpp"
#include "spec/element_format.hpp"

namespace ptxcts {
namespace {

// B, C/D or the metadata: {same_as: "9.7.14.5.N Title", words} or {pictures_only: [Figure NN], words}.
SparseOperandText read_operand_text(YamlReader o) {
  o.expect_map({"same_as", "pictures_only", "words", "paraphrase"});
  SparseOperandText t;
  t.where = o.where();
  t.words = o.at("words").str();
  if (o.has("same_as") == o.has("pictures_only"))
    o.fail("expected either 'same_as' (the dense section the manual defers to) or 'pictures_only' (its figures)");
  if (o.has("same_as")) {
    t.same_as = o.at("same_as").str();
    static const std::regex dense(R"(9\.7\.14\.5\.\d{1,2} \S.*)");
    if (!std::regex_match(t.same_as, dense))
      o.at("same_as").fail(fmt::format(
          "expected a dense fragment section, like '9.7.14.5.8 Matrix Fragments for ...', but found '{}'", t.same_as));
    return t;
  }
  static const std::regex figure(R"(Figure \d{1,4})");
  for (auto const& f : o.at("pictures_only").items("'pictures_only'")) {
    if (!std::regex_match(f.str(), figure)) f.fail(fmt::format("expected 'Figure NN' but found '{}'", f.str()));
    t.figures.push_back(f.str());
  }
  if (t.figures.empty()) o.at("pictures_only").fail("expected at least one figure");
  return t;
}

// 9.7.14.6.1's granularity: "N:M" (N non-zero elements of each M consecutive ones) and where it says so.
void read_granularity(YamlReader g, SparseFragmentSection& s) {
  g.expect_map({"ratio", "source"});
  static const std::regex ratio(R"((\d{1,2}):(\d{1,2}))");
  const std::string text = g.at("ratio").str();
  std::smatch m;
  if (std::regex_match(text, m, ratio)) s.nonzero = std::stoi(m[1].str()), s.chunk = std::stoi(m[2].str());
  if (s.nonzero < 1 || s.chunk <= s.nonzero)
    g.at("ratio").fail(fmt::format("expected a granularity N:M with 0 < N < M, like \"2:4\", but found '{}'", text));
  s.granularity_source = g.at("source").str();
}

// A: the table (element types, registers, "N non-zero elements out of W consecutive") and the
// formula block (let, row, the col's text, firstcol, lastcol).
void read_sparse_a(YamlReader a, SparseFragmentSection& s) {
  a.expect_map({"source", "element", "registers", "per_register", "words", "let", "row", "col_note", "firstcol",
                "lastcol", "paraphrase"});
  s.source = a.at("source").str();
  for (auto const& e : a.at("element").items("A's element types")) {
    if (!find_element_format(e.str()))
      e.fail(fmt::format("expected an element type ({}) but found '{}'", fmt::join(element_format_names(), ", "),
                         e.str()));
    s.types.push_back(e.str());
  }
  if (s.types.empty()) a.at("element").fail("expected at least one element type");
  s.registers = static_cast<int>(a.at("registers").integer(1, 8));
  YamlReader per = a.at("per_register");
  per.expect_map({"nonzero", "consecutive"});
  s.per_register = static_cast<int>(per.at("nonzero").integer(1, 32));
  s.consecutive = static_cast<int>(per.at("consecutive").integer(1, 64));
  if (s.consecutive < s.per_register)
    per.fail(fmt::format("{} non-zero elements cannot lie in {} consecutive ones", s.per_register, s.consecutive));
  s.register_words = a.at("words").str();
  std::set<std::string> vars{"laneid", "i"};
  for (auto& [k, f] : a.at("let").entries("'let'")) {
    const std::string name = read_identifier(k, "a name the formulas use");
    s.let.emplace_back(name, read_manual(f, vars, fmt::format("'{}' of {}", name, s.name)));
    vars.insert(name);
  }
  s.row = read_manual(a.at("row"), vars, s.name + " row");
  s.firstcol = read_manual(a.at("firstcol"), vars, s.name + " firstcol");
  vars.insert("firstcol");
  s.lastcol = read_manual(a.at("lastcol"), vars, s.name + " lastcol");
  s.col_note = a.at("col_note").str();
  if (s.col_note.rfind("[firstcol ... lastcol]", 0) != 0)
    a.at("col_note").fail("expected the manual's text after 'col = ', which begins '[firstcol ... lastcol]'");
}

}  // namespace

std::vector<SparseFragmentSection> read_sparse_fragments(const YamlReader& r, const std::string& family,
                                                         const std::vector<SparseFragmentSection>& taken) {
  std::vector<SparseFragmentSection> out;
  for (auto item : r.items("'sparse_fragments'")) {
    item.expect_map({"name", "section", "shape", "granularity", "a", "b", "cd", "metadata"});
    SparseFragmentSection s;
    s.family = family;
    s.where = item.where();
    s.name = read_identifier(item.at("name"), "a sparse fragment section's name");
    for (const std::vector<SparseFragmentSection>* list : {&taken, &std::as_const(out)})
      for (auto const& prev : *list)
        if (prev.name == s.name)
          item.at("name").fail(
              fmt::format("duplicate sparse fragment section '{}' (first defined at {})", s.name, prev.where.str()));
    s.section = item.at("section").str();
    static const std::regex sparse(R"(9\.7\.14\.6\.2\.\d{1,2} \S.*)");
    if (!std::regex_match(s.section, sparse))
      item.at("section").fail(fmt::format(
          "expected a sparse fragment section, like '9.7.14.6.2.1 Matrix Fragments for ...', but found '{}'",
          s.section));
    YamlReader shape = item.at("shape");
    shape.expect_map({"m", "n", "k"});
    s.m = static_cast<int>(shape.at("m").integer(1, 64));
    s.n = static_cast<int>(shape.at("n").integer(1, 64));
    s.k = static_cast<int>(shape.at("k").integer(1, 256));
    read_granularity(item.at("granularity"), s);
    read_sparse_a(item.at("a"), s);
    s.b = read_operand_text(item.at("b"));
    s.cd = read_operand_text(item.at("cd"));
    s.metadata = read_operand_text(item.at("metadata"));
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

constexpr const char* kSparseFragments = "sparse_fragments";

void read_sparse_block(const YamlReader& block, const std::string& family, SpecSet& specs) {
  std::any& stored = specs.family_blocks[kSparseFragments];
  if (!stored.has_value()) stored = std::vector<SparseFragmentSection>{};
  auto& sections = std::any_cast<std::vector<SparseFragmentSection>&>(stored);
  for (auto& s : read_sparse_fragments(block, family, sections)) sections.push_back(std::move(s));
}

}  // namespace

const std::vector<SparseFragmentSection>& sparse_fragments(const SpecSet& specs) {
  static const std::vector<SparseFragmentSection> none;
  auto it = specs.family_blocks.find(kSparseFragments);
  return it == specs.family_blocks.end() ? none : std::any_cast<const std::vector<SparseFragmentSection>&>(it->second);
}

KindFamilyBlock sparse_fragments_block() { return {.key = kSparseFragments, .read = read_sparse_block, .check = {}}; }

}  // namespace ptxcts
