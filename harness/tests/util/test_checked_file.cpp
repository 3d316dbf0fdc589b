// Every byte accounted for (issue 30): a write that fails, or writes less than asked, is an error
// naming the path and the free space on its filesystem, and a file being written anew that fails is
// removed, never left cut short.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <regex>
#include <string>

#include "run/case_stream.hpp"
#include "support/temp_dir.hpp"
#include "util/atomic_file.hpp"
#include "util/checked_file.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {

std::string error_of(const std::function<void()>& write) {
  try {
    write();
  } catch (const std::exception& e) { return e.what(); }
  return "(no error)";
}

const std::regex kFullDisk(
    "cannot write /dev/full: No space left on device \\([0-9.]+ (bytes|KiB|MiB|GiB|TiB) free on its filesystem\\)");

// Runs `body` in a child whose files may not grow past `limit` bytes (RLIMIT_FSIZE: the write that
// crosses it is cut short, the next fails with EFBIG), so that a short write needs no small disk;
// the child's exit status is body's.
int with_file_size_limit(rlim_t limit, const std::function<int()>& body) {
  const pid_t child = ::fork();
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit r{.rlim_cur = limit, .rlim_max = limit};
    ::setrlimit(RLIMIT_FSIZE, &r);
    std::_Exit(body());
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

}  // namespace

TEST(CheckedFile, AFullDiskIsAnErrorNamingThePathAndTheFreeSpace) {
  EXPECT_TRUE(std::regex_match(error_of([] { write_file_checked("/dev/full", "x"); }), kFullDisk));
  // Buffered bytes are checked too: at close, not lost when the stream goes.
  EXPECT_TRUE(std::regex_match(error_of([] {
                                 CheckedFile out("/dev/full", CheckedFile::Open::Append);
                                 out << "a line\n";
                                 out.close();
                               }),
                               kFullDisk));
  EXPECT_TRUE(fs::is_character_file("/dev/full")) << "a device is never removed as a file cut short";
}

TEST(CheckedFile, AJobFileOnAFullDiskIsAnErrorNotHalfAFile) {
  // Before: "/dev/full: cannot write the job file", with neither why nor the free space.
  const std::string said = error_of([] {
    write_line_jobs("/dev/full", 1, [](std::size_t) { return std::optional<DeviceJob>(DeviceJob{.id = 7}); });
  });
  EXPECT_TRUE(std::regex_match(said, kFullDisk)) << said;
}

TEST(CheckedFile, AShortWriteIsCarriedOnThenAFailureRemovesTheFile) {
  ptxcts::test::TempDir t("checked-file");
  const fs::path file = t.dir / "big.bin";
  // 100 KiB allowed: the file's writes get 64 KiB, then a short write of 36 KiB, then EFBIG.
  const int exit = with_file_size_limit(100 << 10, [&] {
    const std::string said = error_of([&] {
      CheckedFile out(file);
      const std::string block(40 << 10, 'x');
      for (int k = 0; k < 5; ++k) out << block;
      out.close();
    });
    if (said.find("cannot write " + file.string() + ": File too large (") != 0) return 1;
    return fs::exists(file) ? 2 : 0;  // removed, not left cut short
  });
  EXPECT_EQ(exit, 0) << "1: not the error expected; 2: the file was left cut short";
  // Within the limit, every byte arrives.
  EXPECT_EQ(with_file_size_limit(100 << 10,
                                 [&] {
                                   write_file_checked(file, std::string(100 << 10, 'y'));
                                   return fs::file_size(file) == (100 << 10) ? 0 : 1;
                                 }),
            0);
}

TEST(CheckedFile, AnAtomicFileOnAFullDiskNamesTheFreeSpace) {
  ptxcts::test::TempDir t("atomic-file");
  const fs::path file = t.dir / "report.json";
  const int exit = with_file_size_limit(1000, [&] {
    const std::string said = error_of([&] { write_file_atomically(file, std::string(5000, 'z')); });
    if (said.find("cannot write " + file.string() + ": File too large (") != 0) return 1;
    if (said.find(" free on its filesystem)") == std::string::npos) return 2;
    return fs::is_empty(t.dir) ? 0 : 3;  // neither the file nor its temporary
  });
  EXPECT_EQ(exit, 0);
}
