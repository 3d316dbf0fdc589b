#include "judge/expectations.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "results/outcome.hpp"
#include "spec/yaml_reader.hpp"
#include "util/file_text.hpp"

namespace ptxcts {

namespace {

bool glob_matches(const std::string& glob, const std::string& text) {
  return fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

Expectation read_expectation(YamlReader r) {
  Expectation e;
  e.where = r.where();
  if (r.has("case") == r.has("claim")) r.fail("expected an expectation of either `case` (a KERNEL/CASE glob) or `claim` (an id)");
  if (r.has("case")) {
    r.expect_map({"case", "outcome", "reason", "link"});
    e.cases = r.at("case").str();
    if (e.cases.find('/') == std::string::npos)
      r.at("case").fail(fmt::format("expected KERNEL/CASE (a glob, e.g. wmma.load.*/fault-*), got '{}'", e.cases));
    YamlReader o = r.at("outcome");
    try {
      e.outcome = token(outcome_from_token(o.str()));
    } catch (const std::invalid_argument& x) { o.fail(x.what()); }
  } else {
    r.expect_map({"claim", "verdict", "reason", "link"});
    e.claim = read_identifier(r.at("claim"), "claim id");
    YamlReader v = r.at("verdict");
    try {
      e.outcome = to_string(verdict_from_string(v.str()));
    } catch (const std::invalid_argument& x) { v.fail(x.what()); }
  }
  e.reason = r.at("reason").str();
  if (e.reason.empty()) r.at("reason").fail("expected why the difference is known, got an empty string");
  e.link = r.at("link").str();
  if (!e.link.starts_with("https://") && !e.link.starts_with("http://"))
    r.at("link").fail(fmt::format("expected a link (https://...) to where the difference is tracked, got '{}'", e.link));
  return e;
}

// Whether a cases expectation names this result: its outcome, and a KERNEL/CASE its glob matches.
bool names(const Expectation& e, const CaseResult& r) {
  return e.claim.empty() && token(outcome_of(r)) == e.outcome && glob_matches(e.cases, r.kernel + "/" + r.case_name);
}

}  // namespace

bool ExpectationFile::speaks_for(const RunInfo& info) const {
  return glob_matches(gpu, info.gpu_name) && glob_matches(driver, info.driver_version);
}

ExpectationFile read_expectation_file(const std::filesystem::path& file) {
  std::optional<std::string> text;
  try {
    text = try_read_file_text(file, kMaxInputFileBytes, "an expectations file (YAML: gpu, driver, expectations)");
  } catch (const std::runtime_error& e) {  // "<file>: why": the file named once, as every SpecError names it
    const std::string why = e.what(), head = file.string() + ": ";
    throw SpecError({.file = file.string()}, why.starts_with(head) ? why.substr(head.size()) : why);
  }
  if (!text)
    throw SpecError({.file = file.string()},
                    fmt::format("cannot read this expectations file ({})", std::strerror(errno)));
  YamlReader root(file.string(), parse_yaml(file.string(), *text), "expectations file");
  root.expect_map({"gpu", "driver", "expectations"});
  ExpectationFile f;
  f.file = file.string();
  f.gpu = root.at("gpu").str();
  f.driver = root.at("driver").str();
  for (auto const& item : root.at("expectations").items("expectation")) f.expectations.push_back(read_expectation(item));
  return f;
}

std::vector<ExpectationFile> read_expectation_dir(const std::filesystem::path& dir) {
  std::vector<ExpectationFile> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return files;
  std::vector<std::filesystem::path> paths;
  for (auto const& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml" && e.path().filename().string().front() != '.') paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  for (auto const& p : paths) files.push_back(read_expectation_file(p));
  return files;
}

std::string known_difference(const std::vector<ExpectationFile>& files, const RunInfo& info, const CaseResult& r) {
  for (auto const& f : files)
    if (f.speaks_for(info))
      for (auto const& e : f.expectations)
        if (names(e, r)) return fmt::format("{} ({})", e.reason, e.link);
  return "";
}

std::vector<std::string> apply_expectations(const std::vector<ExpectationFile>& files, RunReport& report) {
  std::vector<std::string> unmatched;
  for (auto const& f : files) {
    if (!f.speaks_for(report.info)) continue;
    for (auto const& e : f.expectations) {
      const std::string known = fmt::format("{} ({})", e.reason, e.link);
      int matched = 0;
      if (!e.claim.empty()) {
        for (auto& c : report.claims)
          if (c.id == e.claim && to_string(c.verdict) == e.outcome) {
            c.known = known;
            ++matched;
          }
      } else {
        for (auto& r : report.results)
          if (names(e, r)) {
            r.known = known;
            ++matched;
          }
      }
      if (matched == 0)
        unmatched.push_back(fmt::format("{}: expectation {} {} {} matched nothing in this run (fixed? then remove it)",
                                        e.where.str(), e.claim.empty() ? "case" : "claim",
                                        e.claim.empty() ? e.cases : e.claim, e.outcome));
    }
  }
  return unmatched;
}

}  // namespace ptxcts
