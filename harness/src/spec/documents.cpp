#include "spec/documents.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>

#include "spec/spec_error.hpp"

namespace ptxcts {
namespace {

Document read_document(YamlReader item) {
  item.expect_map({"id", "title", "author", "address", "language", "what", "translation_of", "copy", "copy_note"});
  Document d{.id = read_identifier(item.at("id"), "a document id (a slug of its public identity)"),
             .title = item.at("title").str(),
             .author = item.at("author").str(),
             .address = item.at("address").str(),
             .language = item.at("language").str(),
             .what = item.at("what").str(),
             .where = item.at("id").where()};
  if (d.id.rfind("seed-", 0) == 0)
    item.at("id").fail(fmt::format("'{}' is a number of ours; expected a slug of the document's public identity "
                                   "(author, year, subject), e.g. veitner-2025-load-store-matrices",
                                   d.id));
  if (d.address != "address not found" && d.address.rfind("https://", 0) != 0 && d.address.rfind("http://", 0) != 0)
    item.at("address").fail(
        fmt::format("'{}' is not an address; expected http(s)://... or 'address not found'", d.address));
  if (item.has("translation_of")) d.translation_of = item.at("translation_of").str();
  return d;
}

// What the error of an unknown id offers instead.
std::string known_ids(const SpecSet& specs) {
  if (specs.documents.empty()) return "an id of documents.yaml, and no documents.yaml is among the spec files";
  std::vector<std::string> ids;
  for (auto const& d : specs.documents) ids.push_back(d.id);
  return fmt::format("an id of documents.yaml ({})", fmt::join(ids, ", "));
}

void check_cite(const SpecSet& specs, const Citation& c) {
  if (!specs.find_document(c.document))
    throw SpecError(c.document_at, fmt::format("unknown document '{}'; expected {}", c.document, known_ids(specs)));
}

}  // namespace

std::vector<Document> read_documents(YamlReader r) {
  r.expect_map({"documents"});
  std::vector<Document> out;
  std::vector<YamlReader> items = r.at("documents").items("'documents'");
  for (auto const& item : items) {
    Document d = read_document(item);
    for (auto const& prev : out)
      if (prev.id == d.id)
        item.at("id").fail(fmt::format("duplicate document '{}' (first defined at {})", d.id, prev.where.str()));
    out.push_back(std::move(d));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::string& original = out[i].translation_of;
    bool found = original.empty();
    for (auto const& d : out) found = found || (d.id == original && &d != &out[i]);
    if (!found)
      items[i].at("translation_of").fail(fmt::format("unknown document '{}'; expected another id of documents.yaml",
                                                     original));
  }
  return out;
}

void check_documents(const SpecSet& specs) {
  for (auto const& b : specs.grammar) check_cite(specs, b.cite);
  for (auto const& r : specs.rules) check_cite(specs, r.cite);
  for (auto const& e : specs.examples) check_cite(specs, e.cite);
  for (auto const& c : specs.register_claims) check_cite(specs, c.cite);
  for (auto const& m : specs.register_minimums) check_cite(specs, m.cite);
  for (auto const& v : specs.version_spellings) check_cite(specs, v.cite);
  for (auto const& c : specs.claims)  // a claim without `document:` quotes the manual, citing nothing to check
    if (c.cite.document_at.line != 0) check_cite(specs, c.cite);
}

}  // namespace ptxcts
