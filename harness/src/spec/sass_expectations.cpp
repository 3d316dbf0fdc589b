#include "spec/sass_expectations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "spec/variant_reader.hpp"

namespace ptxcts {

std::vector<SassExpectation> read_sass_expectations(const YamlReader& list, const std::string& family,
                                                    const std::vector<Variant>& variants) {
  std::vector<SassExpectation> out;
  static const std::regex mnemonic(R"(^[A-Z][A-Z0-9_]{0,31}$)");
  for (auto item : list.items("'sass'")) {
    item.expect_map({"operation", "mnemonics", "source", "assumed"});
    SassExpectation e;
    e.family = family;
    e.where = item.where();
    e.operation_text = read_operation(item.at("operation")).name;
    const bool used = std::any_of(variants.begin(), variants.end(), [&](const Variant& v) {
      return v.family == family && v.operation == e.operation_text;
    });
    if (!used)
      item.at("operation")
          .fail(fmt::format("no variant of family '{}' has operation '{}'; expected one its variants have", family,
                            e.operation_text));
    for (auto const& prev : out)
      if (prev.operation_text == e.operation_text)
        item.at("operation")
            .fail(fmt::format("operation '{}' is already given at {}", e.operation_text, prev.where.str()));
    for (auto const& m : item.at("mnemonics").items("'mnemonics'")) {
      std::string text = m.str();
      if (!std::regex_match(text, mnemonic))
        m.fail(fmt::format("'{}' is not a SASS mnemonic; expected capitals and digits without modifiers, e.g. LDSM",
                           text));
      e.mnemonics.push_back(text);
    }
    if (e.mnemonics.empty()) item.at("mnemonics").fail("expected at least one SASS mnemonic");
    e.source = item.at("source").str();
    if (item.has("assumed")) e.assumed = item.at("assumed").boolean();
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace ptxcts
