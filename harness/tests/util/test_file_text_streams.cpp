// The one bounded reader (util/file_text) given a stream rather than a file: a FIFO that no program
// writes is read as empty at once (fifo(7): a read end opened without blocking, with no writer, reads
// end of file), never waited on; a pipe a program writes (`--cases @/dev/stdin`, `<(...)`) is read to
// its end.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>

#include "support/temp_dir.hpp"
#include "util/file_text.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

TEST(FileTextStreams, AFifoNoProgramWritesIsReadAsEmptyNotWaitedFor) {
  // Before: open(2) waited for a writer forever: `ptxcts run --cases @FIFO`, `--expectations FIFO` and
  // `ptxcts diff FIFO x.json` never ended (the chaos soak's cases-list and expectations kinds).
  test::TempDir t("fifo");
  const fs::path fifo = t.dir / "cases.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  auto read = std::async(std::launch::async, [&] { return try_read_file_text(fifo, 1 << 20, "a case list"); });
  const bool ended = read.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
  if (!ended) ::close(::open(fifo.c_str(), O_WRONLY));  // a writer, so that the waiting open returns
  ASSERT_TRUE(ended) << "the read of a FIFO no program writes waited for a writer";
  auto text = read.get();
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text, "");
}

TEST(FileTextStreams, APipeAProgramWritesIsReadToItsEnd) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string lines = "ldmatrix_x1/identity\nmovmatrix_trans/identity\n";
  ASSERT_EQ(::write(fds[1], lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
  ::close(fds[1]);
  auto text = try_read_file_text("/dev/fd/" + std::to_string(fds[0]), 1 << 20, "a case list");
  ::close(fds[0]);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text, lines);
}
