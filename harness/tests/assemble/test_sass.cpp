// What the code becomes: reading cuobjdump's and nvdisasm's listings (fixtures written from real
// listings of cuobjdump 13.5 and nvdisasm 13.5, trimmed), which opcodes match a family's expected
// mnemonics, where a disassembler is found, the catalog disassembled one process per cubin with
// the listing cached, a disassembler that fails or is missing said per kernel and never fatal, the
// manifest's SASS read back, fetching a disassembler beside its release's ptxas, and one test with
// the real toolkit and disassembler (skipped, with the reason, where there is none).
#include <gtest/gtest.h>
#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "assemble/catalog_sass.hpp"
#include "assemble/cubin_functions.hpp"
#include "assemble/raw_disassembly.hpp"
#include "assemble/disassembler.hpp"
#include "assemble/toolchain.hpp"
#include "assemble/toolkits.hpp"
#include "assemble/wheel_fetch.hpp"
#include "util/file_text.hpp"
#include "util/subprocess.hpp"

#include "support/shell_line.hpp"
#include "support/temp_dir.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(PTXCTS_TEST_DATA) / "sass";

// A stand-in cuobjdump of `release`: says its version, counts its runs beside itself, and for
// `-sass FILE` does `body` (by default, prints the two-function listing).
fs::path fake_cuobjdump(const fs::path& dir, const std::string& release, const std::string& body = "") {
  const fs::path p = dir / "cuobjdump";
  write_script(p, "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release " + release + ", V" + release +
                      ".37'; exit 0; fi\necho run >> '" + (dir / "runs").string() + "'\n" +
                      (body.empty() ? "cat '" + (kData / "cuobjdump-two-functions.txt").string() + "'\n" : body));
  return p;
}

int runs(const fs::path& dir) {
  std::ifstream in(dir / "runs");
  int n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

std::string read(const fs::path& p) { return *try_read_file_text(p); }

SassExpectation expect(std::vector<std::string> mnemonics) {
  SassExpectation e;
  e.family = "ldmatrix";
  e.operation_text = "load";
  e.mnemonics = std::move(mnemonics);
  e.source = "a test";
  e.assumed = true;
  return e;
}

// A catalog of three accepted kernels in one cubin (two in the listing, one not) and a rejected one.
Catalog three_in_one_cubin(const fs::path& dir) {
  fs::create_directories(dir / "cache");
  std::ofstream(dir / "cache" / "k.cubin") << "not read by the stand-in";
  Catalog c;
  c.cuda_release = "13.0";
  c.ptxas_version = "13.0.88";
  c.targets = {"sm_90"};
  c.toolkit_ptx = {9, 0};
  for (auto [kernel, entry, accepted] : {std::tuple{"a", "kernel_a", true}, std::tuple{"b", "kernel_b", true},
                                         std::tuple{"gone", "kernel_gone", true}, std::tuple{"r", "", false}}) {
    Assembly a;
    a.kernel = kernel;
    a.target = "sm_90";
    a.ptx = {7, 8};
    a.accepted = accepted;
    a.cubin = accepted ? "cache/k.cubin" : "";
    a.cubin_seal = accepted ? "24 0123456789abcdef0123456789abcdef" : "";
    a.entry = entry;
    c.assemblies.push_back(a);
  }
  return c;
}


// A CUDA-like ELF object of the given functions (each a .text.NAME section, executable), with a
// section that is not code among them, written by hand so that its layout is known to the test.
std::string tiny_cubin(const std::vector<std::pair<std::string, std::string>>& functions) {
  std::string names(1, '\0');
  auto add_name = [&](const std::string& n) {
    const auto at = static_cast<Elf64_Word>(names.size());
    names += n + '\0';
    return at;
  };
  std::vector<Elf64_Shdr> headers(1, Elf64_Shdr{});
  std::string body;
  auto add_section = [&](Elf64_Word name_at, Elf64_Word type, Elf64_Xword flags, const std::string& bytes) {
    Elf64_Shdr h{};
    h.sh_name = name_at;
    h.sh_type = type;
    h.sh_flags = flags;
    h.sh_offset = sizeof(Elf64_Ehdr) + body.size();
    h.sh_size = bytes.size();
    body += bytes;
    headers.push_back(h);
  };
  add_section(add_name(".nv.info"), SHT_PROGBITS, 0, std::string(24, '\x07'));
  for (auto const& [name, code] : functions)
    add_section(add_name(".text." + name), SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, code);
  const Elf64_Word shstrtab_name = add_name(".shstrtab");
  add_section(shstrtab_name, SHT_STRTAB, 0, names);  // the names, its own among them
  Elf64_Ehdr e{};
  std::memcpy(e.e_ident, ELFMAG, SELFMAG);
  e.e_ident[EI_CLASS] = ELFCLASS64;
  e.e_machine = 190;
  e.e_shoff = sizeof(Elf64_Ehdr) + body.size();
  e.e_shentsize = sizeof(Elf64_Shdr);
  e.e_shnum = static_cast<Elf64_Half>(headers.size());
  e.e_shstrndx = static_cast<Elf64_Half>(headers.size() - 1);
  std::string out(reinterpret_cast<const char*>(&e), sizeof e);
  out += body;
  for (auto const& h : headers) out.append(reinterpret_cast<const char*>(&h), sizeof h);
  return out;
}

// Code of `words` 16-byte instructions, word k's first byte `first + k`.
std::string code(int words, unsigned char first) {
  std::string c(static_cast<std::size_t>(words) * 16, '\x01');
  for (int k = 0; k < words; ++k) c[static_cast<std::size_t>(k) * 16] = static_cast<char>(first + k);
  return c;
}

// A stand-in nvdisasm: in raw-binary mode (-b ARCH FILE) one line per 16-byte word, its opcode
// "W" and the word's first byte in hex ("WA1"); `-c FILE` (one cubin) prints `elf_listing`; counts its
// runs and keeps the -b arguments and the raw file's sizes beside itself. `raw_fails`: -b exits 1.
fs::path fake_nvdisasm(const fs::path& dir, const std::string& elf_listing, bool raw_fails = false) {
  const fs::path p = dir / "nvdisasm";
  write_script(p, "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.5, V13.5.37'; exit 0; fi\n"
                  "echo run >> '" + (dir / "runs").string() + "'\n"
                  "if [ \"$1\" = -b ]; then echo \"$2\" >> '" + (dir / "archs").string() + "'; stat -c %s \"$3\" >> '" +
                  (dir / "sizes").string() + "'\n" +
                  (raw_fails ? "echo 'nvdisasm fatal : no raw mode here' >&2; exit 1\n" : "") +
                  "od -An -v -tx1 -w16 \"$3\" | awk '{ printf \"        /*%04x*/                   W%s ;\\n\", (NR-1)*16, toupper($1) }'\n"
                  "exit 0; fi\n"
                  "cat '" + elf_listing + "'\n");
  return p;
}
}  // namespace

TEST(SassListing, CuobjdumpFunctionsWithPredicatesAndEncodingLines) {
  SassListing l = parse_sass_listing(read(kData / "cuobjdump-two-functions.txt"));
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l["kernel_a"], (std::vector<std::string>{"LDC", "LDSM.16.M88.4", "LDSM.16.M88.4", "BRA"}));
  EXPECT_EQ(l["kernel_b"], (std::vector<std::string>{"LDC", "STSM.16.MT88.4", "EXIT"}));
}

TEST(SassListing, NvdisasmSectionsAndLabels) {
  SassListing l = parse_sass_listing(read(kData / "nvdisasm-one-function.txt"));
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l["kernel_c"], (std::vector<std::string>{"LDC", "BRA", "MOVM.16.MT88", "HMMA.16816.F32", "EXIT"}));
}

TEST(SassListing, AnInstructionOutsideAFunctionIsRefusedWithItsLine) {
  try {
    parse_sass_listing("header\n        /*0000*/   LDC R1, c[0x0][0x28] ;\n");
    FAIL() << "an instruction outside any function was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("line 2: an instruction before any function", 0), 0u) << e.what();
  }
}

TEST(SassMatch, DistinctOpcodesInOrderAndThoseOfTheExpectedMnemonics) {
  const std::vector<std::string> ops{"LDC", "LDSM.16.M88.4", "STG.E", "LDSM.16.M88.4", "LDSM.16.MT88.2"};
  SassExpectation ldsm = expect({"LDSM"});
  AssemblySass s = kernel_sass(ops, &ldsm);
  EXPECT_EQ(s.opcodes, (std::vector<std::string>{"LDC", "LDSM.16.M88.4", "STG.E", "LDSM.16.MT88.2"}));
  EXPECT_EQ(s.matched, (std::vector<std::string>{"LDSM.16.M88.4", "LDSM.16.MT88.2"}));
  EXPECT_EQ(s.expectation_source, "assumed: a test");
  // By the mnemonic, not a prefix of the text: LD does not match LDC, LDSM or LDG.
  SassExpectation ld = expect({"LD"});
  EXPECT_TRUE(kernel_sass({"LDC", "LDSM.16.M88.4", "LDG.E"}, &ld).matched.empty());
  EXPECT_EQ(kernel_sass({"LD.E.64"}, &ld).matched, (std::vector<std::string>{"LD.E.64"}));
  // None there: kept as an empty match against a non-empty expectation, never dropped.
  SassExpectation stsm = expect({"STSM"});
  AssemblySass none = kernel_sass(ops, &stsm);
  EXPECT_TRUE(none.matched.empty());
  EXPECT_EQ(none.expected, (std::vector<std::string>{"STSM"}));
  EXPECT_TRUE(kernel_sass(ops, nullptr).expected.empty());
}

TEST(SassDisassembler, OwnFirstThenTheEnvironmentThenTheNewestOtherToolkitElseTheReason) {
  TempDir t("sass");
  write_script(t.dir / "own" / "ptxas", "exit 0\n");
  write_script(t.dir / "bare" / "ptxas", "exit 0\n");
  write_script(t.dir / "old" / "ptxas", "exit 0\n");
  write_script(t.dir / "new" / "ptxas", "exit 0\n");
  fake_cuobjdump(t.dir / "own", "13.0");
  fake_cuobjdump(t.dir / "old", "13.2");
  fake_cuobjdump(t.dir / "new", "13.5");
  const std::string own = (t.dir / "own" / "ptxas").string(), bare = (t.dir / "bare" / "ptxas").string();
  const std::vector<std::string> others{(t.dir / "old" / "ptxas").string(), (t.dir / "new" / "ptxas").string()};

  DisassemblerChoice c = choose_disassembler(own, "13.0", "", others);
  ASSERT_TRUE(c.tool);
  EXPECT_EQ(c.tool->version, "13.0.37");
  EXPECT_EQ(c.tool->describe(), "cuobjdump 13.0.37");

  c = choose_disassembler(bare, "12.9", "", others);
  ASSERT_TRUE(c.tool);
  EXPECT_EQ(c.tool->version, "13.5.37");
  EXPECT_EQ(c.tool->describe(), "cuobjdump 13.5.37 (of CUDA 13.5; CUDA 12.9 has none beside " + bare + ")");

  c = choose_disassembler(bare, "12.9", (t.dir / "old" / "cuobjdump").string(), others);
  ASSERT_TRUE(c.tool);
  EXPECT_EQ(c.tool->version, "13.2.37");

  c = choose_disassembler(bare, "12.9", (t.dir / "nothing").string(), others);
  EXPECT_FALSE(c.tool);
  EXPECT_NE(c.unavailable.find("$PTXCTS_DISASSEMBLER=" + (t.dir / "nothing").string() + " is refused: it is not a file"),
            std::string::npos)
      << c.unavailable;

  c = choose_disassembler(bare, "12.9", "", {bare});
  EXPECT_FALSE(c.tool);
  EXPECT_EQ(c.unavailable.rfind("no disassembler: CUDA 12.9 has none beside " + bare, 0), 0u) << c.unavailable;
}

// Issue 30: one that printed garbage was dropped silently ("no disassembler"), the reason nowhere.
TEST(SassDisassembler, ARefusedDisassemblerSaysWhyOnStderrOnce) {
  TempDir t("sass");
  write_script(t.dir / "bare" / "ptxas", "exit 0\n");
  write_script(t.dir / "garbage", "echo 'hello, I am a disassembler'\n");
  const std::string bare = (t.dir / "bare" / "ptxas").string(), garbage = (t.dir / "garbage").string();
  testing::internal::CaptureStderr();
  DisassemblerChoice c = choose_disassembler(bare, "12.9", garbage, {});
  choose_disassembler(bare, "12.9", garbage, {});
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(c.tool);
  const std::string why = "its --version said \"hello, I am a disassembler\", which names no release; expected "
                          "\"release X.Y, VX.Y.Z\" as NVIDIA's tools say it";
  EXPECT_NE(c.unavailable.find("$PTXCTS_DISASSEMBLER=" + garbage + " is refused: " + why), std::string::npos)
      << c.unavailable;
  EXPECT_EQ(err, "$PTXCTS_DISASSEMBLER=" + garbage + " is refused: " + why + "\n");  // once, not per call
  write_script(t.dir / "fails", "echo 'cannot start'; exit 3\n");
  EXPECT_NE(choose_disassembler(bare, "12.9", (t.dir / "fails").string(), {})
                .unavailable.find("is refused: its --version exited with 3 (\"cannot start\")"),
            std::string::npos);
}

TEST(SassCatalog, OneProcessPerCubinCachedAndEveryKernelSaysWhatItGot) {
  TempDir t("sass");
  fs::path tools = t.dir / "tools";
  DisassemblerChoice choice{.tool = probe_disassembler(fake_cuobjdump(tools, "13.5")), .unavailable = ""};
  ASSERT_TRUE(choice.tool);
  Catalog cat = three_in_one_cubin(t.dir / "catalog");
  Suite suite;  // no kernels: no expectation, the opcodes alone
  SassStats st;
  add_sass(cat, suite, t.dir / "catalog", choice, 2, &st);
  EXPECT_EQ(runs(tools), 1);  // three kernels, one cubin, one process
  EXPECT_EQ(st.cubins, 1);
  EXPECT_EQ(st.processes, 1);
  EXPECT_EQ(st.kernels, 2);
  EXPECT_EQ(cat.disassembler, "cuobjdump 13.5.37");
  ASSERT_TRUE(cat.assemblies[0].sass);
  EXPECT_EQ(cat.assemblies[0].sass->opcodes, (std::vector<std::string>{"LDC", "LDSM.16.M88.4", "BRA"}));
  EXPECT_EQ(cat.assemblies[1].sass->opcodes, (std::vector<std::string>{"LDC", "STSM.16.MT88.4", "EXIT"}));
  EXPECT_EQ(cat.assemblies[2].sass->unavailable, "cuobjdump lists no function kernel_gone in cache/k.cubin");
  EXPECT_FALSE(cat.assemblies[3].sass);  // rejected: no cubin, no SASS

  // Again: the listing is in the cache, no process; the manifest keeps the SASS.
  Catalog again = three_in_one_cubin(t.dir / "catalog");
  add_sass(again, suite, t.dir / "catalog", choice, 1, &st);
  EXPECT_EQ(runs(tools), 1);
  EXPECT_EQ(st.cached, 1);
  EXPECT_EQ(again.assemblies[1].sass->opcodes, cat.assemblies[1].sass->opcodes);
  save_catalog(again, t.dir / "catalog");
  Catalog read_back = load_catalog(t.dir / "catalog");
  EXPECT_EQ(read_back.disassembler, "cuobjdump 13.5.37");
  ASSERT_TRUE(read_back.assemblies[0].sass);
  EXPECT_EQ(read_back.assemblies[0].sass->opcodes, cat.assemblies[0].sass->opcodes);
  EXPECT_EQ(read_back.assemblies[2].sass->unavailable, cat.assemblies[2].sass->unavailable);
  EXPECT_FALSE(read_back.assemblies[3].sass);
}

TEST(CubinFunctions, EachTextSectionsNameAndBytesInOrderAndABadFileSaysWhy) {
  const std::string elf = tiny_cubin({{"kernel_a", code(2, 0xA1)}, {"kernel_b", code(3, 0xB1)}});
  auto f = cubin_functions(elf);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].name, "kernel_a");
  EXPECT_EQ(f[0].code, code(2, 0xA1));
  EXPECT_EQ(f[1].name, "kernel_b");
  EXPECT_EQ(f[1].code, code(3, 0xB1));
  auto why = [](std::string_view bytes) {
    try {
      cubin_functions(bytes);
    } catch (const std::runtime_error& e) { return std::string(e.what()); }
    return std::string("no error");
  };
  EXPECT_EQ(why("not an elf, but long enough to hold an ELF header: 64 bytes and some more"), "not an ELF file");
  EXPECT_EQ(why(elf.substr(0, 10)), "the ELF header at byte 0 lies past the end of the file (10 bytes)");
  EXPECT_NE(why(elf.substr(0, elf.size() - 8)).find("a section header at byte"), std::string::npos);
}

// nvdisasm: the cubins of one target in one raw-binary process, each cubin's functions cut back out
// of the listing by address (the zeros between functions dropped), cached like a cubin's own
// listing; where that process fails, one process per cubin, as before.
TEST(SassCatalog, NvdisasmTakesATargetsCubinsInOneRawProcessElseOnePerCubin) {
  TempDir t("sass");
  const fs::path dir = t.dir / "catalog";
  fs::create_directories(dir / "cache");
  std::ofstream(dir / "cache" / "one.cubin") << tiny_cubin({{"kernel_a", code(2, 0xA1)}, {"kernel_b", code(9, 0xB1)}});
  std::ofstream(dir / "cache" / "two.cubin")
      << tiny_cubin({{"kernel_c", code(1, 0xC1)}, {"kernel_a_again", code(2, 0xA1)}});
  std::ofstream(dir / "cache" / "three.cubin") << tiny_cubin({{"kernel_d", code(3, 0xD1)}});
  auto catalog = [] {
    Catalog c;
    c.cuda_release = "13.5";
    c.targets = {"sm_90a", "sm_100f"};
    for (auto [entry, cubin, target] :
         {std::tuple{"kernel_a", "one", "sm_90a"}, std::tuple{"kernel_b", "one", "sm_90a"},
          std::tuple{"kernel_c", "two", "sm_90a"}, std::tuple{"kernel_d", "three", "sm_100f"}}) {
      Assembly a;
      a.kernel = std::string("k") + entry;
      a.entry = entry;
      a.target = target;
      a.accepted = true;
      a.cubin = std::string("cache/") + cubin + ".cubin";
      a.cubin_seal = std::string("1 ") + cubin;
      c.assemblies.push_back(a);
    }
    return c;
  };
  fs::path tools = t.dir / "tools";
  DisassemblerChoice choice{
      .tool = probe_disassembler(fake_nvdisasm(tools, (kData / "nvdisasm-one-function.txt").string())),
      .unavailable = ""};
  ASSERT_TRUE(choice.tool);
  Catalog cat = catalog();
  SassStats st;
  add_sass(cat, Suite{}, dir, choice, 1, &st);
  EXPECT_EQ(runs(tools), 2);  // a process per target
  EXPECT_EQ(st.processes, 2);
  EXPECT_EQ(read(tools / "archs"), "SM100f\nSM90a\n");
  // Each distinct 16-byte word once: kernel_a_again's two are kernel_a's.
  EXPECT_EQ(read(tools / "sizes"), "48\n192\n");
  using ops = std::vector<std::string>;
  EXPECT_EQ(cat.assemblies[0].sass->opcodes, (ops{"WA1", "WA2"}));
  EXPECT_EQ(cat.assemblies[1].sass->opcodes, (ops{"WB1", "WB2", "WB3", "WB4", "WB5", "WB6", "WB7", "WB8", "WB9"}));
  EXPECT_EQ(cat.assemblies[2].sass->opcodes, (ops{"WC1"}));
  EXPECT_EQ(cat.assemblies[3].sass->opcodes, (ops{"WD1", "WD2", "WD3"}));
  Catalog again = catalog();
  add_sass(again, Suite{}, dir, choice, 2, &st);
  EXPECT_EQ(runs(tools), 2);
  EXPECT_EQ(st.cached, 3);
  EXPECT_EQ(again.assemblies[1].sass->opcodes, cat.assemblies[1].sass->opcodes);

  // Two workers and one target: two processes, each half of the target's cubins.
  for (auto const& e : fs::directory_iterator(dir / "cache"))
    if (e.path().extension() == ".sass") fs::remove(e.path());
  Catalog one_target = catalog();
  one_target.assemblies.pop_back();
  add_sass(one_target, Suite{}, dir, choice, 2, &st);
  EXPECT_EQ(st.processes, 2);
  EXPECT_EQ(one_target.assemblies[2].sass->opcodes, (ops{"WC1"}));

  // Before Volta: the functions end to end, each from a 128-byte boundary, the zeros between dropped.
  auto pascal = disassemble_cubins_raw(*choice.tool, "sm_61", {dir / "cache" / "one.cubin", dir / "cache" / "two.cubin"});
  ASSERT_EQ(pascal.size(), 2u);
  EXPECT_EQ(pascal[0].functions["kernel_b"], (ops{"WB1", "WB2", "WB3", "WB4", "WB5", "WB6", "WB7", "WB8", "WB9"}));
  EXPECT_EQ(pascal[1].functions["kernel_a_again"], (ops{"WA1", "WA2"}));
  EXPECT_EQ(read(tools / "sizes").substr(read(tools / "sizes").rfind('\n', read(tools / "sizes").size() - 2) + 1), "640\n");

  // Raw mode failing: each cubin alone (the stand-in's listing of one function, ldsm_kernel).
  fs::path failing_tools = t.dir / "failing";
  DisassemblerChoice failing{
      .tool = probe_disassembler(fake_nvdisasm(failing_tools, (kData / "nvdisasm-one-function.txt").string(), true)),
      .unavailable = ""};
  for (auto const& e : fs::directory_iterator(dir / "cache"))
    if (e.path().extension() == ".sass") fs::remove(e.path());
  Catalog fallback = catalog();
  add_sass(fallback, Suite{}, dir, failing, 1, &st);
  EXPECT_EQ(runs(failing_tools), 2 + 3);  // two raw processes, then the three cubins one by one
  EXPECT_EQ(st.failed, 0);
  EXPECT_EQ(fallback.assemblies[0].sass->unavailable, "nvdisasm lists no function kernel_a in cache/one.cubin");
}

TEST(SassCatalog, AFailingOrMissingDisassemblerIsSaidPerKernelAndNothingFails) {
  TempDir t("sass");
  fs::path tools = t.dir / "tools";
  DisassemblerChoice failing{
      .tool = probe_disassembler(fake_cuobjdump(tools, "13.5", "echo 'cuobjdump fatal : bad ELF' >&2; exit 1\n")),
      .unavailable = ""};
  Catalog cat = three_in_one_cubin(t.dir / "catalog");
  SassStats st;
  add_sass(cat, Suite{}, t.dir / "catalog", failing, 1, &st);
  EXPECT_EQ(st.failed, 1);
  ASSERT_TRUE(cat.assemblies[0].sass);
  EXPECT_EQ(cat.assemblies[0].sass->unavailable,
            "cuobjdump failed on cache/k.cubin: cuobjdump exit 1: cuobjdump fatal : bad ELF");
  // A failure is not cached: the next build asks again.
  add_sass(cat, Suite{}, t.dir / "catalog", failing, 1, &st);
  EXPECT_EQ(runs(tools), 2);

  DisassemblerChoice none{.tool = std::nullopt, .unavailable = "no disassembler: none here"};
  Catalog c2 = three_in_one_cubin(t.dir / "catalog2");
  add_sass(c2, Suite{}, t.dir / "catalog2", none, 1, &st);
  EXPECT_EQ(c2.sass_unavailable, "no disassembler: none here");
  EXPECT_EQ(c2.assemblies[0].sass->unavailable, "no disassembler: none here");
  EXPECT_EQ(st.processes, 0);
}

TEST(SassFetch, DisassemblerRequirementsByMajorVersion) {
  EXPECT_EQ(pip_requirement("13.5", "cuobjdump"), "nvidia-cuda-cuobjdump==13.5.*");
  EXPECT_EQ(pip_requirement("12.9", "nvdisasm"), "nvidia-cuda-nvdisasm-cu12==12.9.*");
  EXPECT_EQ(pip_requirement("13.5"), "nvidia-cuda-nvcc==13.5.*");
  EXPECT_THROW(pip_requirement("13.5", "nvcc"), std::invalid_argument);
}

TEST(SassFetch, ADisassemblerJoinsItsReleasesPtxasAndIsFoundBesideIt) {
  TempDir t("sass");
  // A wheel as PyPI's nvidia-cuda-cuobjdump 13.5 lays it out (nvidia/cu13/bin/cuobjdump), the binary a stand-in.
  fs::path stage = t.dir / "stage" / "nvidia" / "cu13" / "bin";
  fake_cuobjdump(stage, "13.5", "echo listing\n");
  fs::remove(stage / "runs");
  const fs::path wheel = t.dir / "nvidia_cuda_cuobjdump-13.5.37-py3-none-manylinux2014_x86_64.whl";
  ProcessResult zip = run_process(
      shell_line("cd \"$1\" && python3 -m zipfile -c \"$2\" nvidia", {(t.dir / "stage").string(), wheel.string()}));
  ASSERT_EQ(zip.exit_code, 0) << zip.output;
  fs::path cache = t.dir / "cache";
  write_script(cache / "cuda-13.5" / "bin" / "ptxas", "exit 0\n");  // the release's ptxas, fetched before
  write_script(t.dir / "pip", "while [ $# -gt 1 ]; do [ \"$1\" = -d ] && dir=$2; shift; done\ncp '" + wheel.string() +
                                  "' \"$dir/\"\n");
  FetchTools tools;
  tools.pip = {(t.dir / "pip").string()};
  FetchResult r = fetch_toolkit("13.5", cache, tools, false, "cuobjdump");
  ASSERT_EQ(r.outcome, FetchOutcome::Fetched) << r.message;
  EXPECT_EQ(r.binary, (cache / "cuda-13.5" / "bin" / "cuobjdump").string());
  EXPECT_TRUE(fs::exists(cache / "cuda-13.5" / "bin" / "ptxas"));  // joined, not replaced
  EXPECT_TRUE(fs::exists(cache / "cuda-13.5" / "wheel-cuobjdump.txt"));
  EXPECT_EQ(r.message.rfind("CUDA 13.5: cuobjdump 13.5.37 from ", 0), 0u) << r.message;
  auto d = disassembler_beside(cache / "cuda-13.5" / "bin" / "ptxas");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->version, "13.5.37");
  EXPECT_EQ(fetch_toolkit("13.5", cache, tools, false, "cuobjdump").outcome, FetchOutcome::AlreadyThere);
}

// `ptxcts sass --no-assemble`: a copied catalog disassembled and its table written; with no
// disassembler the table says why and the command still succeeds.
TEST(SassCommand, ACatalogAsItIsBecomesATableWithOrWithoutADisassembler) {
  TempDir t("sass");
  fs::path tools = t.dir / "tools";
  fake_cuobjdump(tools, "13.5");
  save_catalog(three_in_one_cubin(t.dir / "catalog"), t.dir / "catalog");
  ::setenv("PTXCTS_DISASSEMBLER", (tools / "cuobjdump").c_str(), 1);
  ProcessResult r = run_process({PTXCTS_COMMAND, "--specs", PTXCTS_SOURCE_DIR "/specs", "sass", "--no-assemble",
                                 "--catalog", (t.dir / "catalog").string(), "--reports", (t.dir / "out").string()},
                                120);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sass: 2 kernels of 1 cubins by cuobjdump 13.5.37 ($PTXCTS_DISASSEMBLER;"), std::string::npos)
      << r.output;
  const std::string md = read(t.dir / "out" / "sass-cuda13.0.md");
  // Kernels these specs do not have: their opcodes are in the manifest, with no expectation.
  EXPECT_NE(md.find("| `b` | 1 | no expectation |"), std::string::npos) << md;
  EXPECT_NE(load_catalog(t.dir / "catalog").assemblies[1].sass->opcodes.size(), 0u);

  save_catalog(three_in_one_cubin(t.dir / "bare"), t.dir / "bare");
  ::setenv("PTXCTS_DISASSEMBLER", (t.dir / "none").c_str(), 1);
  r = run_process({PTXCTS_COMMAND, "--specs", PTXCTS_SOURCE_DIR "/specs", "sass", "--no-assemble", "--catalog",
                   (t.dir / "bare").string(), "--reports", (t.dir / "out2").string()},
                  120);
  ::unsetenv("PTXCTS_DISASSEMBLER");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sass: no disassembler: "), std::string::npos) << r.output;
  EXPECT_NE(read(t.dir / "out2" / "sass-cuda13.0.md").find("**no disassembler: "), std::string::npos);
}

// The real toolkit and disassembler: an ldmatrix kernel assembled by ptxas becomes LDSM; nvdisasm's
// raw-binary mode gives what its ELF listing gives.
TEST(SassReal, AnLdmatrixKernelBecomesLdsm) {
  Toolchain tc;
  try {
    tc = Toolchain::discover();
  } catch (const std::exception& e) { GTEST_SKIP() << "no ptxas: " << e.what(); }
  std::vector<std::string> others;
  for (auto const& c : toolkit_candidates(default_toolkit_search({}, default_toolkit_cache())))
    others.push_back(c.ptxas);
  const char* env = std::getenv("PTXCTS_DISASSEMBLER");
  DisassemblerChoice choice = choose_disassembler(tc.ptxas, tc.release, env ? env : "", others);
  if (!choice.tool) GTEST_SKIP() << choice.unavailable;
  TempDir t("sass");
  std::ofstream(t.dir / "k.ptx")
      << ".version 7.8\n.target sm_90\n.address_size 64\n"
         ".visible .entry ldsm_kernel(.param .u64 out) {\n"
         "  .reg .b32 %r<6>; .reg .b64 %rd<3>;\n"
         "  .shared .align 16 .b8 tile[512];\n"
         "  mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 4; mov.u32 %r3, tile; add.u32 %r2, %r2, %r3;\n"
         "  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r4}, [%r2];\n"
         "  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1;\n"
         "  mul.wide.u32 %rd2, %r1, 4; add.s64 %rd1, %rd1, %rd2; st.global.u32 [%rd1], %r4;\n"
         "  ret;\n}\n";
  AssemblyOutcome o = assemble(tc, t.dir / "k.ptx", "sm_90", t.dir / "k.cubin");
  ASSERT_TRUE(o.accepted()) << o.message;
  DisassemblyResult r = disassemble_cubin(*choice.tool, t.dir / "k.cubin");
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.functions.count("ldsm_kernel")) << choice.tool->describe();
  SassExpectation ldsm = expect({"LDSM"});
  AssemblySass s = kernel_sass(r.functions["ldsm_kernel"], &ldsm);
  EXPECT_EQ(s.matched, (std::vector<std::string>{"LDSM.16.M88"})) << choice.tool->describe();
  // nvdisasm's raw-binary mode over this cubin and one of three more kernels: each cubin's listing
  // as nvdisasm gives it alone, from the ELF.
  if (choice.tool->tool == "nvdisasm") {
    std::ofstream(t.dir / "m.ptx") << ".version 7.8\n.target sm_90\n.address_size 64\n"
                                      ".visible .entry st(.param .u64 p) { .reg .b32 %r<3>; .reg .b64 %a;\n"
                                      "  ld.param.u64 %a, [p]; mov.u32 %r1, %tid.x; st.global.u32 [%a], %r1; ret; }\n"
                                      ".visible .entry empty() { ret; }\n"
                                      ".visible .entry mov(.param .u64 p) { .reg .b32 %r<3>; .reg .b64 %a;\n"
                                      "  ld.param.u64 %a, [p]; mov.u32 %r1, %tid.x;\n"
                                      "  movmatrix.sync.aligned.m8n8.trans.b16 %r2, %r1; st.global.u32 [%a], %r2; ret; }\n";
    ASSERT_TRUE(assemble(tc, t.dir / "m.ptx", "sm_90", t.dir / "m.cubin").accepted());
    auto raw = disassemble_cubins_raw(*choice.tool, "sm_90", {t.dir / "k.cubin", t.dir / "m.cubin"});
    ASSERT_EQ(raw.size(), 2u);
    ASSERT_TRUE(raw[0].error.empty() && raw[1].error.empty()) << raw[0].error << raw[1].error;
    EXPECT_EQ(raw[0].functions, r.functions);
    DisassemblyResult m = disassemble_cubin(*choice.tool, t.dir / "m.cubin");
    EXPECT_EQ(raw[1].functions, m.functions);
    EXPECT_EQ(m.functions.size(), 3u);
  }
  // The naive way (cuobjdump -fun NAME, where there is a cuobjdump beside it) says the same.
  auto cuobjdump = probe_disassembler(fs::path(choice.tool->path).parent_path() / "cuobjdump");
  if (!cuobjdump) return;
  DisassemblyResult one = disassemble_function(*cuobjdump, t.dir / "k.cubin", "ldsm_kernel");
  ASSERT_TRUE(one.error.empty()) << one.error;
  EXPECT_EQ(one.functions["ldsm_kernel"], r.functions["ldsm_kernel"]);
}
