#include "spec/spec_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace ptxcts {

const char* to_string(Expect e) {
  switch (e) {
    case Expect::Pass: return "pass";
    case Expect::Fail: return "fail";
    case Expect::Fault: return "fault";
    case Expect::Observe: return "observe";
  }
  return "pass";
}

Expect expect_from_string(const std::string& s) {
  for (Expect e : {Expect::Pass, Expect::Fail, Expect::Fault, Expect::Observe})
    if (s == to_string(e)) return e;
  throw std::invalid_argument("expected 'pass', 'fail', 'fault' or 'observe' but found '" + s + "'");
}

std::string SourceLocation::str() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

const TargetInfo* TargetCatalog::find(const std::string& name) const {
  for (auto const& t : targets)
    if (t.name == name) return &t;
  return nullptr;
}

bool TargetCatalog::contains(const TargetSet& set, const TargetInfo& t) const {
  for (auto const& item : set.items) {
    switch (item.kind) {
      case TargetSetItem::Kind::AtLeast:
        if (t.arch >= item.arch) return true;
        break;
      case TargetSetItem::Kind::AtMost:
        if (t.arch <= item.arch) return true;
        break;
      case TargetSetItem::Kind::Exact:
        if (t.name == item.name) return true;
        break;
      case TargetSetItem::Kind::FamilyFrom: {
        const TargetInfo* base = find(item.name);
        if (base && base->family != 0 && t.family == base->family && t.arch >= base->arch &&
            (t.suffix == "f" || t.suffix == "a"))
          return true;
        break;
      }
    }
  }
  return false;
}

const UndefinedOn* undefined_on(const TargetCatalog& targets, const CaseSpec& c, const std::string& family,
                                const TargetInfo& t) {
  for (auto const& u : c.undefined)
    if ((u.families.empty() || std::find(u.families.begin(), u.families.end(), family) != u.families.end()) &&
        targets.contains(u.targets, t))
      return &u;
  return nullptr;
}

std::optional<PtxVersion> TargetCatalog::previous(PtxVersion v) const {
  auto it = std::find(ptx_versions.begin(), ptx_versions.end(), v);
  if (it == ptx_versions.end() || it == ptx_versions.begin()) return std::nullopt;
  return *(it - 1);
}

const Variant* SpecSet::find_variant(const std::string& name) const {
  for (auto const& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

const SassExpectation* SpecSet::find_sass(const std::string& family, const std::string& op) const {
  for (auto const& e : sass)
    if (e.family == family && e.operation_text == op) return &e;
  return nullptr;
}

const Document* SpecSet::find_document(const std::string& id) const {
  for (auto const& d : documents)
    if (d.id == id) return &d;
  return nullptr;
}

const DiagnosticClass* SpecSet::find_diagnostic(const std::string& name) const {
  for (auto const& d : diagnostics)
    if (d.name == name) return &d;
  return nullptr;
}

const CaseSpec* SpecSet::find_case(const std::string& name) const {
  for (auto const& c : cases.cases)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace ptxcts
