#include "assemble/raw_disassembly.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "assemble/cubin_functions.hpp"
#include "util/atomic_file.hpp"
#include "util/file_text.hpp"
#include "util/scratch_file.hpp"
#include "util/subprocess.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kWord = 16;  // an instruction, Volta on

struct Function {
  std::size_t cubin;
  std::string name;
  std::string code;
  std::vector<std::size_t> words;  // distinct-word layout: the index of each of its words
  std::uint64_t start = 0;         // end-to-end layout: where it starts
};

// The functions of every cubin that can be read; each one that cannot has its error in `out`.
std::vector<Function> read_functions(const std::vector<fs::path>& cubins, std::vector<DisassemblyResult>& out) {
  std::vector<Function> functions;
  for (std::size_t k = 0; k < cubins.size(); ++k) {
    std::optional<std::string> bytes = try_read_file_text(cubins[k]);
    try {
      if (!bytes) throw std::runtime_error("cannot be read");
      for (auto& f : cubin_functions(*bytes)) functions.push_back({.cubin = k, .name = f.name, .code = std::move(f.code), .words = {}});
    } catch (const std::exception& e) { out[k].error = fmt::format("{}: {}", cubins[k].filename().string(), e.what()); }
  }
  return functions;
}

// The raw binary handed to the disassembler: each distinct instruction word once (where every
// function is whole words; each function notes its words' indices), or the functions end to end,
// each at a 128-byte boundary (each notes where it starts).
std::string lay_out(std::vector<Function>& functions, bool distinct_words) {
  std::string raw;
  if (distinct_words) {
    std::unordered_map<std::string_view, std::size_t> index;
    for (auto& f : functions)
      for (std::size_t at = 0; at < f.code.size(); at += kWord) {
        auto [it, added] = index.try_emplace(std::string_view(f.code).substr(at, kWord), index.size());
        if (added) raw += it->first;
        f.words.push_back(it->second);
      }
  } else {
    for (auto& f : functions) {
      f.start = raw.size();
      raw += f.code;
      raw.resize((raw.size() + 127) / 128 * 128, '\0');
    }
  }
  return raw;
}

}  // namespace

std::string raw_binary_arch(const std::string& target) { return "SM" + target.substr(target.rfind('_') + 1); }

std::vector<std::pair<std::uint64_t, std::string>> parse_raw_listing(const std::string& text) {
  std::vector<std::pair<std::uint64_t, std::string>> out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (auto found = sass_instruction(text.substr(at, end - at))) out.push_back(std::move(*found));
    at = end + 1;
  }
  return out;
}

std::vector<DisassemblyResult> disassemble_cubins_raw(const Disassembler& d, const std::string& target,
                                                      const std::vector<fs::path>& cubins, double timeout_seconds) {
  std::vector<DisassemblyResult> out(cubins.size());
  auto fail_all = [&](const std::string& why) {
    for (auto& r : out)
      if (r.error.empty()) r.error = why;
    return out;
  };
  if (d.tool != "nvdisasm") return fail_all(d.tool + " has no raw-binary mode");
  std::vector<Function> functions = read_functions(cubins, out);
  if (functions.empty()) return fail_all("no function to disassemble");

  const int sm = std::atoi(target.c_str() + target.rfind('_') + 1);
  bool distinct_words = sm >= 70;
  for (auto const& f : functions) distinct_words = distinct_words && f.code.size() % kWord == 0;
  const std::string raw = lay_out(functions, distinct_words);

  const fs::path file = scratch_file("raw", ".bin");  // in the process's own folder: a SIGKILL's is swept
  write_file_atomically(file, raw);
  const std::string arch = raw_binary_arch(target);
  ProcessResult p = run_process({d.path, "-b", arch, file.string()}, timeout_seconds);
  std::error_code ec;
  fs::remove(file, ec);
  if (p.timed_out) return fail_all(fmt::format("{} ran past {} s and was killed", d.tool, timeout_seconds));
  if (p.signal) return fail_all(fmt::format("{} killed by signal {}", d.tool, p.signal));
  if (p.exit_code != 0) return fail_all(fmt::format("{} -b {} exit {}: {}", d.tool, arch, p.exit_code, last_line(p.output)));
  // The opcode at each listed address (an instruction the disassembler prints no line for has none,
  // as in its ELF listing).
  std::map<std::uint64_t, std::string> at;
  for (auto& [address, opcode] : parse_raw_listing(p.output)) at.emplace(address, std::move(opcode));
  if (at.empty()) return fail_all(fmt::format("{} listed no instruction: {}", d.tool, last_line(p.output)));
  for (auto const& f : functions) {
    std::vector<std::string>& opcodes = out[f.cubin].functions[f.name];  // named even with no instruction listed
    if (distinct_words) {
      for (auto word : f.words)
        if (auto o = at.find(word * kWord); o != at.end()) opcodes.push_back(o->second);
    } else {
      for (auto o = at.lower_bound(f.start); o != at.end() && o->first < f.start + f.code.size(); ++o)
        opcodes.push_back(o->second);
    }
  }
  return out;
}

}  // namespace ptxcts
