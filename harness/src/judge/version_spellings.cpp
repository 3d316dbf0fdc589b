#include "judge/version_spellings.hpp"

#include <fmt/format.h>

#include <string_view>
#include <utility>

namespace ptxcts {
namespace {

// Where the instruction line of a probe body starts: after its last newline (declarations come first).
std::size_t instruction_start(const std::string& body) {
  const std::size_t end = body.find_last_not_of('\n');
  if (end == std::string::npos) return 0;
  const std::size_t nl = body.rfind('\n', end);
  return nl == std::string::npos ? 0 : nl + 1;
}

// The first word of an instruction line, a guard (@p) left out: [begin, end) in the line.
std::pair<std::size_t, std::size_t> opcode_span(const std::string& line, std::size_t from = 0) {
  std::size_t b = line.find_first_not_of(" \t", from);
  if (b == std::string::npos) return {line.size(), line.size()};
  if (line[b] == '@') b = line.find_first_not_of(" \t", line.find_first_of(" \t", b));
  if (b == std::string::npos) return {line.size(), line.size()};
  std::size_t e = line.find_first_of(" \t\n", b);
  return {b, e == std::string::npos ? line.size() : e};
}

// Where the qualifier is in the opcode [b, e) as a whole unit (followed by '.', or the opcode's end), or npos.
std::size_t qualifier_at(const std::string& line, std::size_t b, std::size_t e, const std::string& q) {
  for (std::size_t at = line.find(q, b); at != std::string::npos && at < e; at = line.find(q, at + 1)) {
    const std::size_t after = at + q.size();
    if (after == e || (after < e && line[after] == '.')) return at;
  }
  return std::string::npos;
}

}  // namespace

bool spelling_applies_to(const VersionSpelling& rule, const std::string& line) {
  auto [b, e] = opcode_span(line);
  const std::string_view op(line.data() + b, e - b);
  for (auto const& m : rule.mnemonics)
    if (op.substr(0, m.size()) == m && (op.size() == m.size() || op[m.size()] == '.')) return true;
  return false;
}

std::string without_qualifier(const std::string& line, const std::string& qualifier) {
  auto [b, e] = opcode_span(line);
  std::string out = line;
  if (std::size_t at = qualifier_at(line, b, e, qualifier); at != std::string::npos) out.erase(at, qualifier.size());
  return out;
}

const VersionSpelling* spelling_below(const SpecSet& specs, const std::string& body, PtxVersion v) {
  const std::size_t start = instruction_start(body);
  const std::string line = body.substr(start);
  for (auto const& rule : specs.version_spellings) {
    if (!(v < rule.from) || !spelling_applies_to(rule, line)) continue;
    auto [b, e] = opcode_span(line);
    if (qualifier_at(line, b, e, rule.qualifier) != std::string::npos) return &rule;
  }
  return nullptr;
}

std::string spelled_at(const SpecSet& specs, const std::string& body, PtxVersion v) {
  std::string out = body;
  for (const VersionSpelling* rule = spelling_below(specs, out, v); rule; rule = spelling_below(specs, out, v)) {
    const std::size_t start = instruction_start(out);
    out = out.substr(0, start) + without_qualifier(out.substr(start), rule->qualifier);
  }
  return out;
}

std::vector<SpellingEdge> spelling_edges(const SpecSet& specs, const std::string& body, PtxVersion documented,
                                         PtxVersion toolkit) {
  std::vector<SpellingEdge> out;
  const std::size_t start = instruction_start(body);
  const std::string line = body.substr(start);
  for (auto const& rule : specs.version_spellings) {
    auto [b, e] = opcode_span(line);
    if (!spelling_applies_to(rule, line) || qualifier_at(line, b, e, rule.qualifier) == std::string::npos) continue;
    const std::optional<PtxVersion> last = specs.targets.previous(rule.from);
    if (!(documented < rule.from) || toolkit < rule.from || !last) continue;
    const std::string with = body, without = body.substr(0, start) + without_qualifier(line, rule.qualifier);
    auto edge = [&](PtxVersion v, bool written, DocClass expected, const char* why) {
      out.push_back({.version = v, .body = written ? with : without, .expected = expected,
                     .detail = fmt::format("{} {} at PTX ISA {}: {}", written ? "with" : "without", rule.qualifier,
                                           v.str(), why),
                     .rule = &rule});
    };
    if (documented < *last) edge(*last, false, DocClass::Valid, "the last version the documents spell without it");
    edge(rule.from, false, DocClass::Invalid, "the first version the documents require it at");
    if (rule.from < toolkit) edge(rule.from, true, DocClass::Valid, "the first version the documents spell with it");
    if (documented < *last) edge(*last, true, DocClass::Undocumented, "one below the first version that spells it");
  }
  return out;
}

std::vector<RuleEdge> rule_edges(const SpecSet& specs, const GrammarRule& rule, PtxVersion toolkit) {
  std::vector<RuleEdge> out;
  auto edge = [&](std::optional<PtxVersion> v, bool holds, std::string why) {
    if (!v || !(*v < toolkit)) return;  // the grammar asks every combination at the toolkit's own version
    for (auto const& e : out)
      if (e.version == *v) return;
    out.push_back({.version = *v, .holds = holds, .detail = fmt::format("PTX ISA {}: {}", v->str(), why)});
  };
  if (rule.ptx.from) {
    edge(specs.targets.previous(*rule.ptx.from), false,
         fmt::format("one below the first version the rule holds at ({})", rule.ptx.from->str()));
    edge(rule.ptx.from, true, "the first version the rule holds at");
  }
  if (rule.ptx.below) {
    edge(specs.targets.previous(*rule.ptx.below), true,
         fmt::format("the last version the rule holds at (below {})", rule.ptx.below->str()));
    edge(rule.ptx.below, false, "the first version past the rule (it holds below it)");
  }
  return out;
}

}  // namespace ptxcts
