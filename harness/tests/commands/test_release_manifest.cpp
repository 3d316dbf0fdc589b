// A release package's own manifest (commands/release_manifest): a package as it was made passes;
// each way a package stops being whole (a file missing, cut short or changed, the list itself
// missing, the catalog left out, the files of another version) is one message naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "assemble/catalog_manifest.hpp"
#include "commands/program_home.hpp"
#include "commands/release_manifest.hpp"
#include "support/temp_dir.hpp"

namespace ptxcts {
namespace {
namespace fs = std::filesystem;

// A small package: two programs, a spec, a catalog of one cubin and one probe file, and its
// documentation as the real one lies (share/doc/ptxcts/README.md and docs/).
struct SmallPackage {
  test::TempDir t{"release"};
  fs::path prefix = t.dir / "ptxcts-0.1.0-Linux-x86_64";
  SmallPackage() {
    auto put = [&](const std::string& path, const std::string& text) {
      fs::create_directories((prefix / path).parent_path());
      std::ofstream(prefix / path, std::ios::binary) << text;
    };
    put("bin/ptxcts", "program bytes");
    put("bin/ptxcts-device", "runner bytes");
    put("share/ptxcts/specs/ldmatrix.yaml", "variants: []\n");
    put("share/ptxcts/catalog/cache/0123.cubin", std::string(1000, 'c'));
    put("share/ptxcts/catalog/probes/4567.probes", "verdicts");
    put("share/doc/ptxcts/README.md", "# ptxcts\n");
    put("share/doc/ptxcts/docs/running.md", "# Running\n");
    Catalog c;
    c.ptxas_version = "13.0.88";
    c.cuda_release = "13.0";
    c.toolkit_ptx = {9, 0};
    c.targets = {"sm_90", "sm_100a"};
    save_catalog(c, prefix / "share/ptxcts/catalog");
    EXPECT_EQ(write_release_manifest(prefix, "0.1.0", "abc1234"), 9u);  // with the manifest.index its catalog read wrote
  }
  std::string problem() const {
    try {
      check_release(prefix, "0.1.0", "abc1234");
      return "";
    } catch (const ReleaseError& e) { return e.what(); }
  }
};

TEST(ReleaseManifest, APackageAsMadeIsWholeAndNamesItsCatalogsToolkit) {
  SmallPackage p;
  EXPECT_EQ(p.problem(), "");
  const ReleaseManifest m = check_release(p.prefix, "0.1.0", "abc1234");
  EXPECT_EQ(m.files, 9u);
  EXPECT_EQ(m.documentation, 2u);
  EXPECT_EQ(describe_release_documentation(m), "");
  EXPECT_EQ(describe_release_catalog(m),
            "catalog precompiled by CUDA 13.0 (ptxas 13.0.88, PTX ISA 9.0) for sm_90...sm_100a (2 targets)");
  // It is found as a release from its program's place, with its own folders, and reports go to the
  // working folder (the package's may be read-only).
  const ProgramHome h = find_program_home(p.prefix / "bin/ptxcts", {});
  EXPECT_TRUE(h.release());
  EXPECT_EQ(h.specs, p.prefix / "share/ptxcts/specs");
  EXPECT_EQ(h.catalog, p.prefix / "share/ptxcts/catalog");
  EXPECT_EQ(h.runner, p.prefix / "bin/ptxcts-device");
  EXPECT_EQ(h.reports, fs::current_path() / "ptxcts-reports");
}

TEST(ReleaseManifest, AMissingFileIsNamed) {
  SmallPackage p;
  fs::remove(p.prefix / "share/ptxcts/catalog/cache/0123.cubin");
  EXPECT_NE(p.problem().find("of its 9 files, 1 missing and 0 cut short or changed (first: "
                             "share/ptxcts/catalog/cache/0123.cubin: missing); nothing was run"),
            std::string::npos)
      << p.problem();
}

TEST(ReleaseManifest, APackageWithoutItsDocumentationRuns) {
  // Before: a .deb installed in a minimized Ubuntu (dpkg.cfg.d: path-exclude=/usr/share/doc/*) was
  // refused by every command, "7 missing (first: share/doc/ptxcts/README.md)".
  SmallPackage p;
  fs::remove_all(p.prefix / "share/doc/ptxcts");
  EXPECT_EQ(p.problem(), "");
  const ReleaseManifest m = check_release(p.prefix, "0.1.0", "abc1234");
  EXPECT_EQ(m.documentation, 2u);
  EXPECT_EQ(m.documentation_absent, 2u);
  EXPECT_EQ(describe_release_documentation(m),
            "documentation: not installed (2 of its 2 files of share/doc/ptxcts absent: left out at install, as a "
            "minimized image's dpkg does with /usr/share/doc); no command needs it");
}

TEST(ReleaseManifest, WhatACommandNeedsMissingIsStillRefused) {
  // Only the documentation may be absent: a spec, a program or the catalog's files may not, with
  // the documentation gone or not.
  for (const char* needed : {"share/ptxcts/specs/ldmatrix.yaml", "bin/ptxcts-device", "share/ptxcts/catalog/manifest.json"}) {
    SmallPackage p;
    fs::remove_all(p.prefix / "share/doc");
    fs::remove(p.prefix / needed);
    EXPECT_NE(p.problem().find(std::string("of its 9 files, 1 missing and 0 cut short or changed (first: ") + needed +
                               ": missing); nothing was run"),
              std::string::npos)
        << p.problem();
  }
  EXPECT_TRUE(is_release_documentation("share/doc/ptxcts/README.md"));
  EXPECT_TRUE(is_release_documentation("share/man/man1/ptxcts.1"));
  EXPECT_FALSE(is_release_documentation("share/ptxcts/specs/ldmatrix.yaml"));
  EXPECT_FALSE(is_release_documentation("share/docs/x"));
}

TEST(ReleaseManifest, AFileCutShortIsNamed) {
  SmallPackage p;
  fs::resize_file(p.prefix / "share/ptxcts/catalog/cache/0123.cubin", 600);
  EXPECT_NE(p.problem().find("0 missing and 1 cut short or changed (first: share/ptxcts/catalog/cache/0123.cubin: "
                             "600 bytes where the package had 1000)"),
            std::string::npos)
      << p.problem();
}

TEST(ReleaseManifest, AProgramOrSpecChangedInPlaceIsNamed) {
  SmallPackage p;
  std::ofstream(p.prefix / "share/ptxcts/specs/ldmatrix.yaml", std::ios::binary) << "variants: {}\n";  // same size
  EXPECT_NE(p.problem().find("(first: share/ptxcts/specs/ldmatrix.yaml: its content differs from the package's)"),
            std::string::npos)
      << p.problem();
}

TEST(ReleaseManifest, NoListNoCatalogOrAnotherVersionIsSaidSo) {
  {
    SmallPackage p;
    fs::remove(p.prefix / "share/ptxcts/release.json");
    EXPECT_NE(p.problem().find("share/ptxcts/release.json is missing: this release package is incomplete"),
              std::string::npos)
        << p.problem();
  }
  {
    SmallPackage p;
    fs::remove_all(p.prefix / "share/ptxcts/catalog");
    EXPECT_NE(p.problem().find("the package's catalog is missing"), std::string::npos) << p.problem();
  }
  {
    SmallPackage p;
    try {
      check_release(p.prefix, "0.2.0", "def5678");
      ADD_FAILURE() << "another version's files were taken";
    } catch (const ReleaseError& e) {
      EXPECT_NE(std::string(e.what()).find("holds the files of ptxcts 0.1.0 (commit abc1234), but this program is "
                                           "ptxcts 0.2.0 (commit def5678)"),
                std::string::npos)
          << e.what();
    }
  }
  {
    SmallPackage p;
    std::ofstream(p.prefix / "share/ptxcts/release.json") << "{\"kind\": \"ptxcts-release\", \"sch";
    EXPECT_NE(p.problem().find("release.json is damaged"), std::string::npos) << p.problem();
  }
}

TEST(ReleaseManifest, ABuildTreeIsNoRelease) {
  test::TempDir t{"build-home"};
  fs::create_directories(t.dir / "build/harness");
  std::ofstream(t.dir / "build/harness/build-toolkit.txt") << "/opt/cuda/bin/ptxas\n";
  const ProgramHome h = find_program_home(t.dir / "build/harness/ptxcts",
                                          {.source_dir = "../..",
                                           .catalog_dir = "../catalog",
                                           .reports_dir = "../reports",
                                           .device_runner = "ptxcts-device"});
  EXPECT_FALSE(h.release());
  EXPECT_EQ(h.specs, t.dir / "specs");
  EXPECT_EQ(h.catalog, t.dir / "build/catalog");
  EXPECT_EQ(h.build_ptxas, "/opt/cuda/bin/ptxas");
}

}  // namespace
}  // namespace ptxcts
