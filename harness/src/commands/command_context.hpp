// What every command shares: this program's identity (version, commit, the build's layout), where
// the suite's files are (Paths, from the command line over program_home's defaults), the exit
// statuses, and the small facts every report records (host, date).
#pragma once

#include <chrono>
#include <future>
#include <string>

#include "assemble/catalog.hpp"
#include "assemble/toolchain.hpp"
#include "commands/program_home.hpp"
#include "report/audit/audit_report.hpp"

namespace ptxcts {

// What main knows from the build (compile definitions and the generated commit), given once; and
// stdout made line-buffered where it is not a terminal (a killed run keeps what it printed).
struct ProgramFacts {
  std::string version, commit;
  BuildLayout layout;
  std::string catalog_targets = "native";  // the build's catalog's targets (PTXCTS_CATALOG_TARGETS)
};
void init_program(const ProgramFacts& facts);
const ProgramFacts& program();
// The suite's own files: a release package's (bin/ beside share/ptxcts/) or the build tree's.
const ProgramHome& home();

// Exit statuses (README.md lists them): 0 all well; 1 something found (a case failed, a report
// regressed, the audit found a contradiction); 2 trouble (a bad command line, an unreadable input, a
// harness error); 3 ptxas failed on some assembly (no verdict); 77 skipped (CTest's SKIP_RETURN_CODE).
constexpr int kExitFound = 1;
constexpr int kExitTrouble = 2;
constexpr int kExitPtxasFailed = 3;
constexpr int kExitSkipped = 77;

// Wrong use of the command line found after parsing: said on stderr, exit 2 (as for bad specs).
int usage_error(const std::string& message);

// The suite's folders and toolkit as the command line leaves them (options shared by the commands).
struct Paths {
  std::string specs = home().specs.string();
  std::string kernels = home().kernels.string();
  std::string catalog = home().catalog.string();
  std::string reports = home().reports.string();
  std::string runner = home().runner.string();
  std::string ptxas;
  std::string targets = "all";  // the catalog's: all, native (the GPUs here), or a list such as sm_90,sm_100a
  bool sass = true;             // disassemble the catalog's cubins (--no-sass: not)
  std::string toolkit_cache;    // other toolkits (ptxcts toolkits fetch), and their disassemblers
  int jobs = 1;
  Paths();
};

// What a command is handed besides its own options: the paths, and (in a release) the check that
// the package is whole, running beside the command's start (commands/release_manifest).
struct CommandContext {
  Paths paths;
  std::shared_future<void> release_check;  // valid in a release: throws ReleaseError if not whole
};

// The toolkit the command line names (--ptxas), else $PTXCTS_PTXAS, the build's own, PATH's.
Toolchain find_toolchain(const Paths& p);
// Where a release assembles another toolkit's catalog (its own is read-only): the user's cache.
std::string user_catalog(const std::string& release);
// What the specs and skeletons of this run are, to know a catalog made from them.
CatalogOrigin this_suite(const Paths& p);
// Who wrote a report, and when: this host, now, this suite.
AuditRun report_writer();

std::string utc_now();
std::string host_name();

// When this process started: a run's wall time and its first launch are counted from here.
std::chrono::steady_clock::time_point process_start();
double seconds_since(std::chrono::steady_clock::time_point t);
int peak_rss_mib();

}  // namespace ptxcts
