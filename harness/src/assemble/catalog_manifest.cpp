#include "assemble/catalog_manifest.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "util/atomic_file.hpp"
#include "util/file_text.hpp"
#include "util/json_text.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

const Assembly* Catalog::find(const std::string& kernel, const std::string& target) const {
  for (auto const& a : assemblies)
    if (a.kernel == kernel && a.target == target) return &a;
  return nullptr;
}

std::vector<std::string> Catalog::errors() const {
  std::vector<std::string> out;
  for (auto const& a : assemblies)
    if (!a.error.empty()) out.push_back(fmt::format("{} on {}: {}", a.kernel, a.target, a.error));
  return out;
}

std::string manifest_text(const Catalog& c) {
  nlohmann::ordered_json j;
  j["schema_version"] = Catalog::kSchemaVersion;
  j["ptxas_version"] = c.ptxas_version;
  j["cuda_release"] = c.cuda_release;
  j["toolkit_ptx_isa"] = c.toolkit_ptx.str();
  j["toolkit_ptx_isa_read_by"] = c.ptx_isa_read_by;
  j["ptxas_targets"] = c.ptxas_targets;
  j["origin"] = {{"suite_version", c.origin.suite_version},
                 {"suite_commit", c.origin.suite_commit},
                 {"specs", c.origin.specs}};
  j["targets"] = c.targets;
  j["disassembler"] = c.disassembler;
  j["sass_unavailable"] = c.sass_unavailable;
  auto& as = j["assemblies"] = nlohmann::ordered_json::array();
  for (auto const& a : c.assemblies) {
    as.push_back({{"kernel", a.kernel},
                  {"target", a.target},
                  {"ptx_isa", a.ptx.str()},
                  {"attempted", a.attempted},
                  {"accepted", a.accepted},
                  {"message", a.message},
                  {"cubin", a.cubin},
                  {"cubin_seal", a.cubin_seal},
                  {"entry", a.entry},
                  {"ptx", a.ptx_file},
                  {"instruction", a.instruction},
                  {"error", a.error}});
    if (a.sass)
      as.back()["sass"] = {{"opcodes", a.sass->opcodes},
                           {"expected", a.sass->expected},
                           {"matched", a.sass->matched},
                           {"unavailable", a.sass->unavailable},
                           {"expectation_source", a.sass->expectation_source}};
  }
  // A message with stray bytes must not cost the catalog: invalid UTF-8 becomes U+FFFD, as in the reports.
  return j.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

void save_catalog(const Catalog& c, const fs::path& dir) {
  write_file_atomically(dir / "manifest.json", manifest_text(c));
}

std::string read_manifest_text(const fs::path& dir) {
  fs::path file = dir / "manifest.json";
  std::optional<std::string> in = try_read_file_text(file, kMaxInputFileBytes);
  if (!in)
    throw std::runtime_error(fmt::format("{}: no catalog here (build one with 'ptxcts catalog')", file.string()));
  return std::move(*in);
}

Catalog load_catalog(const fs::path& dir) {
  const fs::path file = dir / "manifest.json";
  return parse_manifest_text(read_manifest_text(dir), file);
}

namespace {

// An error already whole (another schema: one to rebuild, not a corrupt one; a place in the text),
// passed on as it is.
struct Whole : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The manifest's JSON, of this ptxcts's schema version.
nlohmann::json parse_manifest_json(const std::string& text, const fs::path& file) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {  // placed: e.byte is the 1-based byte it stopped at
    throw Whole(fmt::format("{}:{}: corrupt catalog manifest: invalid JSON ({})", file.string(),
                            json_line_column(text, e.byte == 0 ? 0 : e.byte - 1), e.what()));
  } catch (const nlohmann::json::out_of_range& e) {
    throw Whole(json_number_overflow(text, file.string(), e.what()));
  }
  if (j.at("schema_version") != Catalog::kSchemaVersion)
    throw Whole(fmt::format(
        "{}: catalog manifest of schema_version {}; this ptxcts reads schema_version {} (rebuild the catalog "
        "with 'ptxcts catalog')",
        file.string(), j.at("schema_version").dump(), Catalog::kSchemaVersion));
  return j;
}

PtxVersion manifest_ptx_version(const nlohmann::json& v) {
  auto p = PtxVersion::parse(v.get<std::string>());
  if (!p) throw std::runtime_error("bad PTX ISA version " + v.dump());
  return *p;
}

// One of the manifest's assemblies. Every field by its key and by its member's name: the order of
// neither the JSON nor the struct matters.
Assembly read_assembly(const nlohmann::json& a) {
  Assembly out{.kernel = a.at("kernel"),
               .target = a.at("target"),
               .ptx = manifest_ptx_version(a.at("ptx_isa")),
               .accepted = a.at("accepted"),
               .attempted = a.at("attempted"),
               .message = a.at("message"),
               .cubin = a.at("cubin"),
               .cubin_seal = a.at("cubin_seal"),
               .ptx_file = a.at("ptx"),
               .instruction = a.at("instruction"),
               .entry = a.at("entry"),
               .error = a.at("error")};
  if (a.contains("sass")) {
    auto const& s = a.at("sass");
    out.sass = AssemblySass{.opcodes = s.at("opcodes"),
                            .expected = s.at("expected"),
                            .matched = s.at("matched"),
                            .unavailable = s.at("unavailable"),
                            .expectation_source = s.at("expectation_source")};
  }
  return out;
}

}  // namespace

Catalog parse_manifest_text(const std::string& text, const fs::path& file) {
  if (auto problem = json_nesting_problem(text, file.string())) throw std::runtime_error(*problem);
  Catalog c;
  std::string where;  // the assembly being read, for the message
  try {
    const nlohmann::json j = parse_manifest_json(text, file);
    c.ptxas_version = j.at("ptxas_version");
    c.cuda_release = j.at("cuda_release");
    c.toolkit_ptx = manifest_ptx_version(j.at("toolkit_ptx_isa"));
    c.ptx_isa_read_by = j.at("toolkit_ptx_isa_read_by");
    c.ptxas_targets = j.at("ptxas_targets").get<std::vector<std::string>>();
    c.origin = {.suite_version = j.at("origin").at("suite_version"),
                .suite_commit = j.at("origin").at("suite_commit"),
                .specs = j.at("origin").at("specs")};
    c.targets = j.at("targets").get<std::vector<std::string>>();
    c.disassembler = j.at("disassembler");
    c.sass_unavailable = j.at("sass_unavailable");
    for (auto const& a : j.at("assemblies")) {
      where = fmt::format("assemblies[{}]: ", c.assemblies.size());
      c.assemblies.push_back(read_assembly(a));
    }
  } catch (const Whole&) { throw; } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: corrupt catalog manifest: {}{}", file.string(), where, e.what()));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("{}: corrupt catalog manifest: {}{}", file.string(), where, e.what()));
  }
  return c;
}

}  // namespace ptxcts
