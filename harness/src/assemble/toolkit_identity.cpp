#include "assemble/toolkit_identity.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "util/checked_file.hpp"
#include "util/file_text.hpp"
#include "util/private_path.hpp"
#include "util/scratch_file.hpp"
#include "util/sealed_file.hpp"
#include "util/subprocess.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// Whether ptxas accepts an empty module of PTX ISA `v` for its oldest target (exit 0).
bool accepts_version(const Toolchain& tc, PtxVersion v) {
  const fs::path ptx = scratch_file("identity", ".ptx");
  write_file_checked(ptx, ".version " + v.str() + "\n.target " + tc.real_targets.front() + "\n.address_size 64\n");
  const ProcessResult r = run_process({tc.ptxas, "-arch=" + tc.real_targets.front(), "-o", "/dev/null", ptx.string()}, 60);
  std::error_code ec;
  fs::remove(ptx, ec);
  return r.exit_code == 0 && !r.timed_out && r.signal == 0;
}

// The newest of the table's versions after `documented` that ptxas accepts, or nullopt where it
// refuses the next one (as its release's ptxas does).
std::optional<PtxVersion> accepts_beyond(const Toolchain& tc, const TargetCatalog& table, PtxVersion documented) {
  std::optional<PtxVersion> newest;
  for (PtxVersion v : table.ptx_versions) {
    if (!(documented < v)) continue;
    if (!accepts_version(tc, v)) break;
    newest = v;
  }
  return newest;
}

std::string some(const std::vector<std::string>& names) {
  if (names.size() <= 3) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{}, {}, {} and {} more", names[0], names[1], names[2], names.size() - 3);
}

}  // namespace

std::string identity_problem(const Toolchain& tc, const TargetCatalog* table, const std::string& folder_release) {
  const std::string said = fmt::format("CUDA {}", tc.release);
  if (!folder_release.empty() && folder_release != tc.release)
    return fmt::format("{}: the folder cuda-{} says CUDA {} but ptxas says {} (V{}): refused", tc.ptxas,
                       folder_release, folder_release, said, tc.version);
  if (!table || tc.real_targets.empty()) return "";
  auto documented_at = table->toolkits.find(tc.release);
  if (documented_at == table->toolkits.end()) return "";  // a release the table does not know: nothing to hold it to
  const PtxVersion documented = documented_at->second;
  std::vector<std::string> does, unknown;
  if (auto beyond = accepts_beyond(tc, *table, documented))
    does.push_back(fmt::format("accepts PTX ISA {}", beyond->str()));
  else if (tc.ptx_isa != PtxVersion{} && tc.ptx_isa != documented)
    does.push_back(fmt::format("speaks PTX ISA {} ({})", tc.ptx_isa.str(), tc.ptx_isa_read_by));
  for (auto const& t : tc.real_targets)
    if (const TargetInfo* info = table->find(t); info && documented < info->ptx) unknown.push_back(t);
  if (!unknown.empty()) does.push_back(fmt::format("lists {}", some(unknown)));
  if (does.empty()) return "";
  return fmt::format("{}: says {} but {} ({} speaks PTX ISA {}{}): refused", tc.ptxas, said, fmt::join(does, " and "),
                     said, documented.str(), unknown.empty() ? "" : fmt::format(", knows no {}", some(unknown)));
}

fs::path seal_path(const fs::path& ptxas) { return ptxas.parent_path().parent_path() / "ptxas.seal"; }

PtxasSeal seal_of(const fs::path& ptxas, const std::string& sealed_by) {
  struct stat st {};
  if (::stat(ptxas.c_str(), &st) != 0) throw std::runtime_error(fmt::format("{}: cannot stat the file", ptxas.string()));
  const std::optional<std::string> bytes = try_read_file_text(ptxas, kMaxProgramBytes, "a ptxas to seal");
  if (!bytes) throw std::runtime_error(fmt::format("{}: cannot read the file to seal it", ptxas.string()));
  return PtxasSeal{.size = static_cast<std::uintmax_t>(st.st_size),
                   .mtime_ns = std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec,
                   .xxh3 = xxh3_hex(*bytes),
                   .sealed_by = sealed_by,
                   .basis = "",
                   .verdict = std::nullopt};
}

void write_ptxas_seal(const fs::path& ptxas, const PtxasSeal& s) {
  std::string text = fmt::format("size {}\nmtime_ns {}\nxxh3 {}\nsealed_by {}\nbasis {}\n", s.size, s.mtime_ns, s.xxh3,
                                 s.sealed_by, s.basis);
  if (s.verdict) text += "verdict " + (s.verdict->empty() ? std::string("ok") : "refused " + *s.verdict) + "\n";
  write_sealed(seal_path(ptxas), text);
}

namespace {

std::optional<PtxasSeal> read_ptxas_seal(const fs::path& ptxas) {
  const SealedRead r = read_sealed(seal_path(ptxas));
  if (!r.good()) return std::nullopt;  // none yet, or damaged: sealed again as it is now
  PtxasSeal s;
  std::istringstream in(r.content);
  for (std::string line; std::getline(in, line);) {
    const std::string key = line.substr(0, line.find(' ')), value = line.substr(std::min(line.size(), key.size() + 1));
    if (key == "size") s.size = std::stoull(value);
    else if (key == "mtime_ns") s.mtime_ns = std::stoll(value);
    else if (key == "xxh3") s.xxh3 = value;
    else if (key == "sealed_by") s.sealed_by = value;
    else if (key == "basis") s.basis = value;
    else if (key == "verdict") s.verdict = value == "ok" ? "" : value.substr(std::min(value.size(), std::size_t{8}));
  }
  return s;
}

// What a verdict is judged against: the table's lines for this release (a changed table judges again).
std::string verdict_basis(const Toolchain& tc, const TargetCatalog* table) {
  if (!table) return "no-table";
  std::string basis = tc.release + "=";
  if (auto d = table->toolkits.find(tc.release); d != table->toolkits.end()) basis += d->second.str();
  for (PtxVersion v : table->ptx_versions) basis += " " + v.str();
  for (auto const& t : table->targets) basis += " " + t.name + ":" + t.ptx.str();
  return xxh3_hex(basis);
}

// The file still the one sealed: stat first; the hash only where size or mtime moved. Returns the
// seal as it stands (a new one where there was none); throws where the content changed.
PtxasSeal checked_seal(const fs::path& ptxas) {
  std::optional<PtxasSeal> kept = read_ptxas_seal(ptxas);
  if (!kept) {
    PtxasSeal first = seal_of(ptxas, "first use");
    try {
      write_ptxas_seal(ptxas, first);
    } catch (const std::exception&) {}  // a cache that cannot be written is sealed next time
    return first;
  }
  struct stat st {};
  if (::stat(ptxas.c_str(), &st) != 0) throw std::runtime_error(fmt::format("{}: cannot stat the file", ptxas.string()));
  const std::int64_t mtime = std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
  if (static_cast<std::uintmax_t>(st.st_size) == kept->size && mtime == kept->mtime_ns) return *kept;
  const PtxasSeal now = seal_of(ptxas, kept->sealed_by);
  if (now.size != kept->size || now.xxh3 != kept->xxh3)
    throw std::runtime_error(fmt::format(
        "{}: is not the file sealed at its {} ({} bytes, xxh3-128 {}): it is now {} bytes, xxh3-128 {}: refused "
        "(ptxcts toolkits fetch {} --refetch replaces it)",
        ptxas.string(), kept->sealed_by, kept->size, kept->xxh3, now.size, now.xxh3,
        ptxas.parent_path().parent_path().filename().string().substr(5)));
  kept->mtime_ns = now.mtime_ns;  // touched, not changed: the stat is cheap again next time
  try {
    write_ptxas_seal(ptxas, *kept);
  } catch (const std::exception&) {}
  return *kept;
}

}  // namespace

std::string not_run_from_cache(const fs::path& program) {
  const std::string why = writable_by_others(program);
  if (why.empty()) return "";
  return fmt::format("{}: refused, not run: {}, so another user could have put this program there; expected it and "
                     "every folder above it owned by you or root and writable by no one else",
                     program.string(), why);
}

Toolchain discover_cached_ptxas(const fs::path& ptxas, const TargetCatalog* table) {
  if (std::string why = not_run_from_cache(ptxas); !why.empty()) throw std::runtime_error(why);
  PtxasSeal seal = checked_seal(ptxas);
  Toolchain tc = Toolchain::discover(ptxas.string());
  const std::string basis = verdict_basis(tc, table);
  if (!seal.verdict || seal.basis != basis) {
    const std::string folder = ptxas.parent_path().parent_path().filename().string();
    seal.verdict = identity_problem(tc, table, folder.rfind("cuda-", 0) == 0 ? folder.substr(5) : "");
    seal.basis = basis;
    try {
      write_ptxas_seal(ptxas, seal);
    } catch (const std::exception&) {}  // a cache that cannot be written is judged again next time
  }
  if (!seal.verdict->empty()) throw std::runtime_error(*seal.verdict);
  return tc;
}

}  // namespace ptxcts
