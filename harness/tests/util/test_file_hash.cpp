// A file's hash read a MiB at a time (the program's identity, for reports up to date): the same as
// the hash of its bytes read whole, across chunk edges, and none for a file that cannot be read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/temp_dir.hpp"
#include "util/sealed_file.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

TEST(FileHash, ReadInChunksItIsTheHashOfTheWholeFile) {
  test::TempDir temp("file-hash");
  const fs::path& dir = temp.dir;
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{1} << 20, (std::size_t{5} << 20) / 2 + 7}) {
    std::string bytes(size, '\0');
    for (std::size_t k = 0; k < size; ++k) bytes[k] = static_cast<char>((k * 2654435761u) >> 13);
    const fs::path file = dir / ("f" + std::to_string(size));
    std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    EXPECT_EQ(file_xxh3_hex(file), xxh3_hex(bytes)) << size;
  }
  EXPECT_FALSE(file_xxh3_hex(dir / "missing").has_value());
  EXPECT_FALSE(file_xxh3_hex(dir).has_value());  // a folder
}
