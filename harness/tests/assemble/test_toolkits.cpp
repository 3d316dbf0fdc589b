// Toolkits as inputs: what a ptxas says it is (version, targets, newest PTX ISA version, read from
// the binary, with or without --list-version), where toolkits are found and how duplicates and
// broken ones are listed, and fetching through pip into the cache: a wheel unpacked to its ptxas
// alone, and a version that does not exist, no network, a damaged wheel or the wrong release each
// one message with the cache left as it was. Stand-in ptxas and pip scripts; no network.
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "assemble/probe_assembly.hpp"
#include "assemble/toolkits.hpp"
#include "assemble/wheel_fetch.hpp"

#include "support/temp_dir.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

const fs::path kWheels = fs::path(PTXCTS_TEST_DATA) / "wheels";
const std::string kWheel124 = "nvidia_cuda_nvcc_cu12-12.4.131-py3-none-manylinux2014_x86_64.whl";

// A stand-in ptxas of `version` ("12.4.131") that speaks PTX ISA `ptx`, knowing `targets`; with
// --list-version (as ptxas 13 has) or without (then it names its version when refused .version 99.9).
void fake_ptxas(const fs::path& p, const std::string& version, const std::string& ptx, const std::string& targets,
                bool list_version) {
  const std::string release = version.substr(0, version.rfind('.'));
  write_script(p,
               "case \"$1\" in\n"
               "  --version) echo 'Cuda compilation tools, release " +
                   release + ", V" + version +
                   "';;\n"
                   "  --help) echo '--gpu-name <gpu name>'; echo \"        Allowed values for this option: " +
                   targets + ".\"; echo \"        Default value: 'sm_75'.\"" +
                   (list_version ? "; echo '--list-version    Print supported PTX ISA versions.'" : "") + ";;\n" +
                   (list_version ? "  --list-version) printf '6.0\\n7.8\\n" + ptx + "\\n';;\n" : "") +
                   "  *) echo \"ptxas $4, line 1; fatal   : Unsupported .version 99.9; current version is '" + ptx +
                   "'\"; exit 255;;\nesac\n");
}

// The cache's entries, names only: what "the cache is as it was" compares.
std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> out;
  if (!fs::exists(dir)) return out;
  for (auto const& e : fs::recursive_directory_iterator(dir)) out.insert(fs::relative(e.path(), dir).string());
  return out;
}

// A stand-in pip: counts its runs, then does `body` with $dir the -d folder.
FetchTools fake_pip(const fs::path& dir, const std::string& body) {
  write_script(dir / "pip", "echo run >> '" + (dir / "pip-runs").string() +
                                "'\nwhile [ $# -gt 0 ]; do [ \"$1\" = -d ] && dir=$2; shift; done\n" + body);
  FetchTools t;
  t.pip = {(dir / "pip").string()};
  return t;
}

int toolkit_runs(const fs::path& dir) {
  std::ifstream in(dir / "pip-runs");
  int n = 0;
  for (std::string l; std::getline(in, l);) ++n;
  return n;
}

}  // namespace

TEST(Toolkits, NewestPtxVersionIsReadFromTheBinary) {
  EXPECT_EQ(parse_ptxas_version_list("1.0\n6.5\n9.0\n8.8\n")->str(), "9.0");
  EXPECT_FALSE(parse_ptxas_version_list("ptxas fatal   : Unknown option '-list-version'\n"));
  // ptxas 12.4's own words when refused a newer module.
  EXPECT_EQ(parse_ptxas_current_version(
                "ptxas v.ptx, line 1; fatal   : Unsupported .version 99.9; current version is '8.4'\n")
                ->str(),
            "8.4");
  EXPECT_FALSE(parse_ptxas_current_version("ptxas fatal   : Ptx assembly aborted due to errors"));

  TempDir t("toolkits");
  fake_ptxas(t.dir / "a" / "ptxas", "12.4.131", "8.4", "'compute_75','sm_75','sm_80','sm_90'", false);
  Toolchain a = Toolchain::discover((t.dir / "a" / "ptxas").string());
  EXPECT_EQ(a.version, "12.4.131");
  EXPECT_EQ(a.release, "12.4");
  EXPECT_EQ(a.real_targets, (std::vector<std::string>{"sm_75", "sm_80", "sm_90"}));
  EXPECT_EQ(a.ptx_isa.str(), "8.4");
  EXPECT_EQ(a.ptx_isa_read_by, "ptxas on a .version 99.9 module");

  fake_ptxas(t.dir / "b" / "ptxas", "13.5.37", "9.5", "'sm_75','sm_100a'", true);
  Toolchain b = Toolchain::discover((t.dir / "b" / "ptxas").string());
  EXPECT_EQ(b.ptx_isa.str(), "9.5");
  EXPECT_EQ(b.ptx_isa_read_by, "ptxas --list-version");

  // One that names no version of its own is an error that says so.
  write_script(t.dir / "c" / "ptxas",
               "case \"$1\" in --version) echo 'Cuda compilation tools, release 12.4, V12.4.1';;"
               " --help) echo \"--gpu-name x Allowed values for this option: 'sm_75'. Default "
               "value\";; *) exit 1;; esac\n");
  try {
    Toolchain::discover((t.dir / "c" / "ptxas").string());
    FAIL() << "a ptxas that names no PTX ISA version was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("names no PTX ISA version of its own"), std::string::npos) << e.what();
  }
}

TEST(Toolkits, FoundEverywhereOncePerFileAndVersionOldestFirst) {
  TempDir t("toolkits");
  fake_ptxas(t.dir / "explicit" / "ptxas", "13.5.37", "9.5", "'sm_75'", true);
  fake_ptxas(t.dir / "env" / "ptxas", "11.8.89", "7.8", "'sm_75'", false);
  fake_ptxas(t.dir / "local" / "cuda-12.4" / "bin" / "ptxas", "12.4.131", "8.4", "'sm_75'", false);
  fs::create_directory_symlink(t.dir / "local" / "cuda-12.4", t.dir / "local" / "cuda");  // the same file twice
  fake_ptxas(t.dir / "path" / "ptxas", "12.4.131", "8.4", "'sm_75'", false);              // another file, same version
  fake_ptxas(t.dir / "cache" / "cuda-12.0" / "bin" / "ptxas", "12.0.140", "8.0", "'sm_75'", false);
  write_script(t.dir / "broken" / "ptxas", "exit 1\n");
  ToolkitSearch s{.explicit_ptxas = {(t.dir / "explicit" / "ptxas").string(), (t.dir / "broken" / "ptxas").string()},
                  .env = (t.dir / "env" / "ptxas").string(),
                  .installed_root = t.dir / "local",
                  .path = "/nonexistent:" + (t.dir / "path").string(),
                  .cache = t.dir / "cache"};
  auto c = toolkit_candidates(s);
  ASSERT_EQ(c.size(), 7u);  // explicit x2, env, installed cuda and cuda-12.4, PATH, cache
  EXPECT_EQ(c[0].found_by, "--ptxas");
  EXPECT_EQ(c[2].found_by, "PTXCTS_TOOLKITS");
  EXPECT_EQ(c[3].found_by, "installed");
  EXPECT_EQ(c[5].found_by, "PATH");
  EXPECT_EQ(c[6].found_by, "cache");

  auto found = find_toolkits(s);
  std::vector<std::string> versions;
  for (auto const& f : found) versions.push_back(f.tc ? f.tc->version : "broken");
  EXPECT_EQ(versions, (std::vector<std::string>{"11.8.89", "12.0.140", "12.4.131", "13.5.37", "broken"}));
  EXPECT_EQ(found[2].also.size(), 2u);  // the same file by another name, and another file of that version
  EXPECT_NE(found[4].problem.find("cannot run ptxas"), std::string::npos) << found[4].problem;

  EXPECT_EQ(select_toolkit(found, "12.0").version, "12.0.140");
  EXPECT_EQ(select_toolkit(found, "13.5.37").release, "13.5");
  try {
    select_toolkit(found, "12.9");
    FAIL() << "a toolkit that is not there was selected";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "no toolkit '12.9' found; found 11.8, 12.0, 12.4, 13.5 (ptxcts toolkits lists them; ptxcts toolkits "
              "fetch 12.9 fetches one)");
  }
}

TEST(WheelFetch, RequirementsByMajorVersion) {
  EXPECT_EQ(pip_requirement("11.8"), "nvidia-cuda-nvcc-cu11==11.8.*");
  EXPECT_EQ(pip_requirement("12.4"), "nvidia-cuda-nvcc-cu12==12.4.*");
  EXPECT_EQ(pip_requirement("12.4.131"), "nvidia-cuda-nvcc-cu12==12.4.131");
  EXPECT_EQ(pip_requirement("13.5"), "nvidia-cuda-nvcc==13.5.*");
  for (const char* bad : {"12", "12.x", "12.4;rm -rf /", "", "10.2", "12.4.1.1"})
    EXPECT_THROW(pip_requirement(bad), std::invalid_argument) << bad;
}

TEST(WheelFetch, OnlyPtxasIsUnpackedAndASecondFetchRunsNoPip) {
  TempDir t("toolkits");
  FetchTools pip = fake_pip(t.dir, "cp '" + (kWheels / kWheel124).string() + "' \"$dir/\"\n");
  FetchResult r = fetch_toolkit("12.4", t.dir / "cache", pip);
  ASSERT_EQ(r.outcome, FetchOutcome::Fetched) << r.message;
  EXPECT_EQ(r.binary, (t.dir / "cache" / "cuda-12.4" / "bin" / "ptxas").string());
  // No nvcc, no wheel, no scratch; the seal of the ptxas fetched, which every later use checks.
  EXPECT_EQ(listing(t.dir / "cache"), (std::set<std::string>{"cuda-12.4", "cuda-12.4/bin", "cuda-12.4/bin/ptxas",
                                                             "cuda-12.4/ptxas.seal", "cuda-12.4/wheel.txt"}));
  ProcessResult v = run_process({r.binary, "--version"});
  EXPECT_NE(v.output.find("V12.4.131"), std::string::npos);
  EXPECT_EQ(r.message.rfind("CUDA 12.4: ptxas 12.4.131 from " + kWheel124 + " -> ", 0), 0u) << r.message;

  FetchResult again = fetch_toolkit("12.4", t.dir / "cache", pip);
  EXPECT_EQ(again.outcome, FetchOutcome::AlreadyThere);
  EXPECT_EQ(toolkit_runs(t.dir), 1);

  // A 13.x wheel keeps ptxas under nvidia/cu13/bin.
  FetchTools pip13 =
      fake_pip(t.dir, "cp '" + (kWheels / "nvidia_cuda_nvcc-13.5.37-py3-none-manylinux2014_x86_64.whl").string() +
                          "' \"$dir/\"\n");
  FetchResult r13 = fetch_toolkit("13.5", t.dir / "cache", pip13);
  EXPECT_EQ(r13.outcome, FetchOutcome::Fetched) << r13.message;
}

TEST(WheelFetch, EachFailureIsOneMessageAndTheCacheIsAsItWas) {
  TempDir t("toolkits");
  const fs::path cache = t.dir / "cache";
  // A toolkit already there, which a failed refetch must leave in place.
  ASSERT_TRUE(
      fetch_toolkit("12.4", cache, fake_pip(t.dir, "cp '" + (kWheels / kWheel124).string() + "' \"$dir/\"\n")).ok());
  const auto before = listing(cache);

  struct Case {
    const char* name;
    std::string pip;
    FetchOutcome outcome;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"no such version",
       "echo 'ERROR: Could not find a version that satisfies the requirement nvidia-cuda-nvcc-cu12==12.4.* (from "
       "versions: 12.1.105)'\necho 'ERROR: No matching distribution found for nvidia-cuda-nvcc-cu12==12.4.*'\nexit 1\n",
       FetchOutcome::NoSuchVersion,
       "CUDA 12.4: the package registry has no nvidia-cuda-nvcc-cu12==12.4.* (pip: ERROR: Could not find a version "
       "that satisfies the requirement nvidia-cuda-nvcc-cu12==12.4.* (from versions: 12.1.105)); nothing fetched, the "
       "cache is as it was"},
      {"no network",
       "echo \"WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError(': Failed to "
       "establish a new connection: [Errno -3] Temporary failure in name resolution')': "
       "/simple/nvidia-cuda-nvcc-cu12/\"\n"
       "echo 'ERROR: Could not find a version that satisfies the requirement nvidia-cuda-nvcc-cu12==12.4.*'\nexit 1\n",
       FetchOutcome::RegistryUnreachable,
       "CUDA 12.4: cannot reach the package registry for nvidia-cuda-nvcc-cu12==12.4.* (pip: WARNING: Retrying "
       "(Retry(total=4)) after connection broken by 'NewConnectionError(': Failed to establish a new connection: "
       "[Errno -3] Temporary failure in name resolution')': /simple/nvidia-cuda-nvcc-cu12/); nothing fetched, the "
       "cache is as it was"},
      {"damaged wheel", "cp '" + (kWheels / "damaged.whl").string() + "' \"$dir/" + kWheel124 + "\"\n",
       FetchOutcome::BadWheel,
       "CUDA 12.4: the wheel " + kWheel124 +
           " is damaged (unzip -t, exit 2: nvidia/cuda_nvcc/bin/nvcc  bad CRC be5695c2  (should be a969eebf)); nothing "
           "fetched, the cache is as it was"},
      {"another release",
       "cp '" + (kWheels / "nvidia_cuda_nvcc-13.5.37-py3-none-manylinux2014_x86_64.whl").string() + "' \"$dir/\"\n",
       FetchOutcome::BadWheel,
       "CUDA 12.4: the ptxas in the wheel nvidia_cuda_nvcc-13.5.37-py3-none-manylinux2014_x86_64.whl is version "
       "13.5.37, not 12.4; nothing fetched, the cache is as it was"},
      {"pip itself fails", "echo 'Traceback: something else'\nexit 3\n", FetchOutcome::Failed,
       "CUDA 12.4: pip download nvidia-cuda-nvcc-cu12==12.4.* failed (exit 3): Traceback: something else; nothing "
       "fetched, the cache is as it was"},
  };
  for (auto const& c : cases) {
    FetchResult r = fetch_toolkit("12.4", cache, fake_pip(t.dir, c.pip), /*refetch=*/true);
    EXPECT_EQ(r.outcome, c.outcome) << c.name << ": " << r.message;
    EXPECT_EQ(r.message, c.message) << c.name;
    EXPECT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(listing(cache), before) << c.name;
  }
  // And a version that does not exist leaves no folder for it.
  FetchResult r = fetch_toolkit("12.99", cache, fake_pip(t.dir, cases[0].pip));
  EXPECT_EQ(r.outcome, FetchOutcome::NoSuchVersion);
  EXPECT_EQ(listing(cache), before);
}

TEST(Toolkits, AnArchPtxasRefusesForParsingIsJudgedByAFullAssembly) {
  // ptxas 12.4 lists compute_90a but refuses it as -arch: that says nothing about the PTX.
  TempDir t("toolkits");
  write_script(t.dir / "ptxas", "arch=$(echo \"$*\" | grep -o '\\(compute\\|sm\\)_90a')\necho $arch >> '" +
                                    (t.dir / "archs").string() +
                                    "'\n[ \"$arch\" = compute_90a ] && { echo \"ptxas fatal   : Unsupported gpu "
                                    "architecture 'compute_90a'\"; exit 255; }\nexit 0\n");
  Toolchain tc;
  tc.ptxas = (t.dir / "ptxas").string();
  tc.version = "12.4.131";
  tc.release = "12.4";
  tc.real_targets = {"sm_90a"};
  std::vector<Probe> probes(3, Probe{.target = "sm_90a", .ptx = {8, 4}, .body = "ret;"});
  auto v = assemble_probes(tc, probes, t.dir / "probes", 1);
  for (auto const& p : v) {
    EXPECT_TRUE(p.accepted) << p.message;
    EXPECT_TRUE(p.error.empty()) << p.error;
  }
  std::ifstream in(t.dir / "archs");
  std::string first, second;
  in >> first >> second;
  EXPECT_EQ(first, "compute_90a");
  EXPECT_EQ(second, "sm_90a");
}

namespace {

// The variable's value (nullopt: unset), put back as it was when this goes.
struct UnsetForATest {
  const char* name;
  std::optional<std::string> was;
  explicit UnsetForATest(const char* n) : name(n) {
    if (const char* v = std::getenv(n)) was = v;
    ::unsetenv(n);
  }
  ~UnsetForATest() {
    if (was) ::setenv(name, was->c_str(), 1);
  }
};

}  // namespace

// Issue 40: with $HOME unset (`env -i`, some cron and CI set-ups) the cache of fetched toolkits was
// /tmp/.cache/ptxcts/toolkits, which any user can make: a ptxas planted there ran as root. Now the
// password database's home, else none; never a shared folder.
TEST(Toolkits, WithHomeUnsetTheCacheIsNeverASharedFolder) {
  UnsetForATest home("HOME"), xdg("XDG_CACHE_HOME"), cache("PTXCTS_TOOLKIT_CACHE");
  const struct passwd* pw = ::getpwuid(::getuid());
  const fs::path expected =
      pw && pw->pw_dir && pw->pw_dir[0] == '/' ? fs::path(pw->pw_dir) / ".cache" / "ptxcts" / "toolkits" : fs::path();
  EXPECT_EQ(default_toolkit_cache(), expected);
  EXPECT_FALSE(default_toolkit_cache().string().starts_with("/tmp")) << default_toolkit_cache();
}

// A ptxas in the cache that another user could have put there (its folder writable by others, or
// its file another user's) is listed as refused and never run; a fetch into a folder others can write
// is refused before pip runs, and a cache it makes is the user's alone (mode 0700).
TEST(Toolkits, ACachedPtxasOthersCouldHavePlantedIsNeverRun) {
  TempDir t("planted");
  const fs::path cache = t.dir / "cache", folder = cache / "cuda-12.0", ptxas = folder / "bin" / "ptxas";
  fake_ptxas(folder / "bin" / "ptxas.real", "12.0.140", "8.0", "'sm_75'", false);
  write_script(ptxas, "echo ran >> '" + (t.dir / "ran").string() + "'\nexec \"$0.real\" \"$@\"\n");
  ::chmod(folder.c_str(), 0777);
  const ToolkitSearch s{.explicit_ptxas = {}, .env = "", .installed_root = t.dir / "none", .path = "", .cache = cache};
  std::vector<FoundToolkit> found = find_toolkits(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].tc.has_value());
  EXPECT_EQ(found[0].problem, ptxas.string() + ": refused, not run: " + folder.string() +
                                  " is writable by every user (mode 0777), so another user could have put this "
                                  "program there; expected it and every folder above it owned by you or root and "
                                  "writable by no one else");
  if (::geteuid() == 0) {  // another user's file, where this test may give it away
    ::chmod(folder.c_str(), 0755);
    ASSERT_EQ(::chown(ptxas.c_str(), 65534, 65534), 0);
    found = find_toolkits(s);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NE(found[0].problem.find(ptxas.string() + " belongs to uid 65534, neither you (uid 0) nor root"),
              std::string::npos)
        << found[0].problem;
  }
  EXPECT_FALSE(fs::exists(t.dir / "ran")) << "a planted ptxas was run";
  // The same file, the user's alone: run.
  ::chmod(folder.c_str(), 0755);
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(ptxas.c_str(), 0, 0), 0);
  }
  found = find_toolkits(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].tc.has_value()) << found[0].problem;
  EXPECT_TRUE(fs::exists(t.dir / "ran"));

  // Fetching: into a folder others can write, refused before pip runs; a cache made is 0700.
  const fs::path shared = t.dir / "shared";
  fs::create_directories(shared);
  ::chmod(shared.c_str(), 0777);
  FetchTools pip = fake_pip(t.dir, "cp '" + (kWheels / kWheel124).string() + "' \"$dir/\"\n");
  EXPECT_THROW(fetch_toolkit("12.4", shared / "toolkits", pip), std::runtime_error);
  EXPECT_EQ(toolkit_runs(t.dir), 0);
  const fs::path made = t.dir / "home" / ".cache" / "ptxcts" / "toolkits";
  EXPECT_EQ(fetch_toolkit("12.4", made, pip).outcome, FetchOutcome::Fetched);
  for (const fs::path& f : {made, made.parent_path(), made.parent_path().parent_path()})
    EXPECT_EQ(fs::status(f).permissions() & fs::perms::all, fs::perms::owner_all) << f;
}
