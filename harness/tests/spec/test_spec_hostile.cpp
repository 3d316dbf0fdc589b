// Spec readers under hostile input: bytes that are not UTF-8, brackets that only look like
// nesting, and what an editor or a careless hand leaves in specs/ (lock files, directories, loops).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "spec/spec_error.hpp"
#include "spec/spec_loader.hpp"
#include "spec/yaml_reader.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const SpecError& e) { return e.what(); }
  return "(no error)";
}

// A copy of the real specs/ to spoil.
struct SpecsCopy {
  fs::path dir = fs::temp_directory_path() / ("ptxcts-specs-" + std::to_string(::getpid()));
  SpecsCopy() {
    fs::remove_all(dir);
    fs::copy(PTXCTS_SOURCE_DIR "/specs", dir, fs::copy_options::recursive);
  }
  ~SpecsCopy() { fs::remove_all(dir); }
};

}  // namespace

TEST(SpecHostile, BytesThatAreNotUtf8AreNamedByLineAndColumn) {
  EXPECT_EQ(error_of([] { parse_yaml("x.yaml", "a: 1\nb: 'caf\xe9'\n"); }),
            "x.yaml:2:8: byte 0xe9 is not UTF-8; expected a spec file in UTF-8");
}

TEST(SpecHostile, BracketsInCommentsStringsAndBlockTextAreNotNesting) {
  // Before: every '[' and '{' counted, so a comment of 65 brackets made a valid file invalid.
  const std::string many(100, '[');
  EXPECT_NO_THROW(parse_yaml("x.yaml", "# " + many + "\na: 1\n"));
  EXPECT_NO_THROW(parse_yaml("x.yaml", "a: \"" + many + "\"\nb: '" + many + "'\n"));
  EXPECT_NO_THROW(parse_yaml("x.yaml", "a: |\n  " + many + "\n  more\nb: 2\n"));
  EXPECT_NO_THROW(parse_yaml("x.yaml", "a: x" + many + "\n"));
  EXPECT_NO_THROW(parse_yaml("x.yaml", "a: [\"" + many + "\", '" + many + "']  # " + many + "\n"));
}

TEST(SpecHostile, RealNestingIsStillRefusedWhereItGoesTooDeep) {
  EXPECT_EQ(error_of([] { parse_yaml("x.yaml", "a:  " + std::string(100, '[') + "\n"); }),
            "x.yaml:1:69: flow collections nested more than 64 deep");
  EXPECT_EQ(error_of([] { parse_yaml("x.yaml", "- " + std::string(30, '{') + std::string(40, '[') + "\n"); }),
            "x.yaml:1:67: flow collections nested more than 64 deep");
}

TEST(SpecHostile, AnEditorsLockFileIsSkippedWithAWord) {
  // Before: "found nothing (null)" from every command while the editor was open.
  SpecsCopy specs;
  fs::create_symlink("user@host.1234:1700000000", specs.dir / ".#ldmatrix.yaml");  // emacs: dangling
  std::ofstream(specs.dir / ".ldmatrix.yaml.swp") << "vim";
  testing::internal::CaptureStderr();
  SpecSet s;
  EXPECT_NO_THROW(s = load_spec_dir(specs.dir));
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(s.variants.empty());
  EXPECT_NE(said.find("specs: skipping " + (specs.dir / ".#ldmatrix.yaml").string() +
                      " (a hidden file: an editor's lock or backup, not a spec)"),
            std::string::npos)
      << said;
}

TEST(SpecHostile, ADirectoryNamedLikeASpecIsNamedAsOne) {
  SpecsCopy specs;
  fs::create_directory(specs.dir / "extra.yaml");
  EXPECT_EQ(error_of([&] { load_spec_dir(specs.dir); }),
            (specs.dir / "extra.yaml").string() +
                ": cannot read this file (a directory); expected every *.yaml in the specs directory to be a readable "
                "spec file");
}

TEST(SpecHostile, ASymlinkLoopIsNamedAsOne) {
  SpecsCopy specs;
  fs::create_symlink("loop.yaml", specs.dir / "loop.yaml");
  EXPECT_EQ(error_of([&] { load_spec_dir(specs.dir); }),
            (specs.dir / "loop.yaml").string() +
                ": cannot read this file (Too many levels of symbolic links); expected every *.yaml in the specs "
                "directory to be a readable spec file");
}

TEST(SpecHostile, ADanglingLinkNamedLikeASpecIsNamedAsOne) {
  // Before: "found nothing (null)". Not hidden, so not an editor's: it is named, with the cause.
  SpecsCopy specs;
  fs::create_symlink("nowhere.yaml", specs.dir / "extra.yaml");
  EXPECT_EQ(error_of([&] { load_spec_dir(specs.dir); }),
            (specs.dir / "extra.yaml").string() +
                ": cannot read this file (a link to nowhere.yaml, which does not exist); expected every *.yaml in "
                "the specs directory to be a readable spec file");
}

TEST(SpecHostile, DeepBlockNestingIsNamedForWhatItIs) {
  // yaml-cpp stops deep block nesting itself, but says only "bad file".
  std::string sequences, mappings;
  for (int i = 0; i < 5000; ++i) sequences += "- ";
  sequences += "x\n";
  for (int i = 0; i < 3000; ++i) mappings += std::string(static_cast<std::size_t>(i), ' ') + "a:\n";
  for (const std::string& text : {sequences, mappings}) {
    const std::string said = error_of([&] { parse_yaml("x.yaml", text); });
    EXPECT_EQ(said.rfind("x.yaml:", 0), 0u) << said;
    EXPECT_NE(said.find(": collections nested too deeply for the YAML parser (its recursion limit); expected a spec "
                        "file, which nests a few levels"),
              std::string::npos)
        << said;
  }
}
