// Issue 30: a journal whose last line a full disk (or a kill) cut short, resumed: the resumed run
// appended its records right after the cut bytes, and every later --resume refused the file as
// invalid JSON, forever. Now --resume cuts the record cut short off the file (saying so in one
// line), so that its case runs again; every other bad line is refused as before.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "results/report_parts.hpp"
#include "run/journal.hpp"
#include "support/temp_dir.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

CaseResult resumed_case(const std::string& kernel, Status s = Status::Pass) {
  return CaseResult{.kernel = kernel, .family = "ldmatrix", .case_name = "unique-contiguous", .status = s};
}

std::string journal_line(const std::string& kernel) { return case_result_json_line(resumed_case(kernel)) + "\n"; }

std::string file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// resume_journal, with what it says on stderr.
std::vector<CaseResult> resume_saying(const fs::path& p, std::string& said) {
  std::FILE* say = std::tmpfile();
  std::vector<CaseResult> out;
  try {
    out = resume_journal(p, say);
  } catch (...) {
    std::fclose(say);
    throw;
  }
  std::rewind(say);
  char line[1024] = {};
  said = std::fgets(line, sizeof line, say) ? line : "";
  std::fclose(say);
  return out;
}

std::vector<std::string> kernels_of(const std::vector<CaseResult>& results) {
  std::vector<std::string> out;
  for (auto const& r : results) out.push_back(r.kernel);
  return out;
}

}  // namespace

TEST(JournalResume, ARecordCutShortIsCutOffSoThatTheResumedRunsLinesStayWhole) {
  TempDir t("journal-resume");
  const fs::path p = t.dir / "run.journal.jsonl";
  const std::string whole = journal_line("k1") + journal_line("k2");
  write_text(p, whole + journal_line("k3").substr(0, 40));  // the disk filled 40 bytes into k3
  std::string said;
  EXPECT_EQ(kernels_of(resume_saying(p, said)), (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(said, "journal: " + p.string() +
                      ":3: the last record was cut short (40 bytes, no newline: the run writing it was killed or its "
                      "disk was full); dropped, so its case runs again\n");
  EXPECT_EQ(file_text(p), whole);
  // The resumed run records k3 again, and is cut short in its turn: the journal still resumes.
  Journal(p, false).append(resumed_case("k3"));
  EXPECT_EQ(kernels_of(resume_saying(p, said)), (std::vector<std::string>{"k1", "k2", "k3"}));
  EXPECT_EQ(said, "");
  EXPECT_EQ(kernels_of(read_journal(p)), (std::vector<std::string>{"k1", "k2", "k3"}));
}

TEST(JournalResume, AWholeLastRecordWithoutItsNewlineIsKeptAndGivenOne) {
  TempDir t("journal-resume");
  const fs::path p = t.dir / "run.journal.jsonl";
  const std::string k2 = journal_line("k2");
  write_text(p, journal_line("k1") + k2.substr(0, k2.size() - 1));  // the disk filled at the newline
  std::string said;
  EXPECT_EQ(kernels_of(resume_saying(p, said)), (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(said, "");
  EXPECT_EQ(file_text(p), journal_line("k1") + k2);
  Journal(p, false).append(resumed_case("k3"));
  EXPECT_EQ(kernels_of(read_journal(p)), (std::vector<std::string>{"k1", "k2", "k3"}));
}

TEST(JournalResume, ABadLineThatIsNotACutLastRecordIsStillRefusedAndTheFileLeftAsItIs) {
  TempDir t("journal-resume");
  const fs::path p = t.dir / "run.journal.jsonl";
  const std::string cut = journal_line("k3").substr(0, 40);
  // A record cut short with a whole line after it (as the resumed runs before the fix left it), a
  // whole last line that is no record, and a second record of a case that disagrees with the first
  // before a cut one (one that agrees is the same record: issue 40).
  const std::pair<std::string, std::string> refused[] = {
      {journal_line("k1") + cut + journal_line("k3") + journal_line("k4"), ":2:"},
      {journal_line("k1") + "{\"kernel\": \"k2\"\n", ":2:"},
      {journal_line("k1") + journal_line("k2") + case_result_json_line(resumed_case("k1", Status::Fail)) + "\n" + cut,
       ":3:1: a second record of k1/"},
  };
  for (auto const& [text, where] : refused) {
    write_text(p, text);
    std::string said;
    try {
      resume_saying(p, said);
      ADD_FAILURE() << "resumed: " << text;
    } catch (const ReportError& e) { EXPECT_EQ(std::string(e.what()).rfind(p.string() + where, 0), 0u) << e.what(); }
    EXPECT_EQ(said, "");
    EXPECT_EQ(file_text(p), text);
  }
}

// A disk that fills in the middle of a record (here: a file-size limit, which cuts a write short
// the same way, and then fails it) stops the run with the cause, and leaves a journal that resumes.
TEST(JournalResume, AWriteCutShortByAFullDiskLeavesAJournalThatResumes) {
  TempDir t("journal-resume");
  const fs::path p = t.dir / "run.journal.jsonl";
  Journal j(p, true);
  j.append(resumed_case("k1"));
  j.append(resumed_case("k2"));
  const auto size = fs::file_size(p);
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  rlimit limited = before;
  limited.rlim_cur = size + 30;
  auto* const was = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
  std::string error;
  try {
    j.append(resumed_case("k3"));
  } catch (const std::runtime_error& e) { error = e.what(); }
  setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, was);
  EXPECT_EQ(error.rfind("cannot write the journal " + p.string() + ": File too large (", 0), 0u) << error;
  EXPECT_NE(error.find(" free on its filesystem); the run stops here, and what it wrote before can be resumed with "
                       "--resume"),
            std::string::npos)
      << error;
  EXPECT_EQ(fs::file_size(p), size + 30);
  std::string said;
  EXPECT_EQ(kernels_of(resume_saying(p, said)), (std::vector<std::string>{"k1", "k2"}));
  EXPECT_NE(said.find(":3: the last record was cut short (30 bytes, no newline"), std::string::npos) << said;
  Journal(p, false).append(resumed_case("k3"));
  EXPECT_EQ(kernels_of(read_journal(p)), (std::vector<std::string>{"k1", "k2", "k3"}));
}
