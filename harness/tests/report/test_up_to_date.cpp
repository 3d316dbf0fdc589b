// Reports that are up to date are not written again: a stamp vouches for its files only with the
// same inputs' key and while each file keeps the seal it had; anything else (another key, a file
// edited, removed or replaced, a damaged stamp) means writing them again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "report/up_to_date.hpp"
#include "support/temp_dir.hpp"
#include "util/file_text.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

}  // namespace

TEST(UpToDate, AStampVouchesOnlyForTheSameKeyAndUnchangedFiles) {
  TempDir t("stamps");
  const fs::path stamps = t.dir / "stamps", json = t.dir / "audit.json", md = t.dir / "audit.md";
  write_text(json, "{\"findings\": 3}");
  write_text(md, "# Audit\n");
  EXPECT_FALSE(up_to_date(stamps, {json, md}, "k1"));  // never stamped
  stamp_reports(stamps, {json, md}, "k1", {.said = "3 findings", .status = 1});
  auto s = up_to_date(stamps, {json, md}, "k1");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->said, "3 findings");
  EXPECT_EQ(s->status, 1);
  EXPECT_FALSE(up_to_date(stamps, {json, md}, "k2"));  // other inputs
  EXPECT_FALSE(up_to_date(stamps, {json}, "k1"));      // not the files stamped

  write_text(md, "# Audit, edited\n");
  EXPECT_FALSE(up_to_date(stamps, {json, md}, "k1"));
  write_text(md, "# Audit\n");  // as it was: its seal again
  EXPECT_TRUE(up_to_date(stamps, {json, md}, "k1"));
  fs::remove(json);
  EXPECT_FALSE(up_to_date(stamps, {json, md}, "k1"));
  write_text(json, "{\"findings\": 3}");
  ASSERT_TRUE(up_to_date(stamps, {json, md}, "k1"));

  // A damaged stamp is not believed, and is removed.
  ASSERT_EQ(std::distance(fs::directory_iterator(stamps), fs::directory_iterator()), 1);
  const fs::path stamp = fs::directory_iterator(stamps)->path();
  std::string bytes = *try_read_file_text(stamp);
  bytes[bytes.size() - 3] ^= 1;
  write_text(stamp, bytes);
  EXPECT_FALSE(up_to_date(stamps, {json, md}, "k1"));
  EXPECT_FALSE(fs::exists(stamp));
}

TEST(UpToDate, KeysTellPartsApartAndFoldersByEveryFile) {
  EXPECT_NE(inputs_key({"ab", "c"}), inputs_key({"a", "bc"}));
  EXPECT_EQ(inputs_key({"a", "bc"}), inputs_key({"a", "bc"}));
  TempDir t("stamps");
  write_text(t.dir / "a.yaml", "a: 1\n");
  write_text(t.dir / "b.yaml", "b: 2\n");
  const std::string before = folder_identity(t.dir);
  write_text(t.dir / "b.yaml", "b: 3\n");
  EXPECT_NE(folder_identity(t.dir), before);
  write_text(t.dir / "b.yaml", "b: 2\n");
  EXPECT_EQ(folder_identity(t.dir), before);
  write_text(t.dir / "c.yaml", "");
  EXPECT_NE(folder_identity(t.dir), before);
  EXPECT_FALSE(program_identity().empty());
  EXPECT_EQ(file_seal(t.dir / "missing"), "");
}
