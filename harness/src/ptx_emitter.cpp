#include "ptx_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace ptxcts {
namespace {

std::string register_list(int count) {
  std::string out = "{";
  for (int r = 0; r < count; ++r) out += fmt::format("{}%frag{}", r ? ", " : "", r);
  return out + "}";
}

// Per step: read this thread's offset, add the tile address, widen or convert as the form needs.
std::string address_code(const Instance& inst, int step) {
  std::string code = fmt::format(
      "    ld.global.u32       %t10, [%q5];\n"
      "    add.u64             %q5, %q5, %q7;\n"
      "    add.u32             %addr32_{0}, %t9, %t10;\n", step);
  if (inst.space() == "generic") {
    code += fmt::format(
        "    cvt.u64.u32         %addr64_{0}, %addr32_{0};\n"
        "    cvta.shared.u64     %addr64_{0}, %addr64_{0};   // generic address of the row\n", step);
    if (inst.address_width() == 32) code += fmt::format("    cvt.u32.u64         %addr32_{0}, %addr64_{0};\n", step);
  } else if (inst.address_width() == 64) {
    code += fmt::format("    cvt.u64.u32         %addr64_{0}, %addr32_{0};\n", step);
  }
  return code;
}

}  // namespace

std::string emit_ptx(const std::string& skeleton, const KernelPlan& kernel, const std::string& target, PtxVersion ptx) {
  int regs = 0;
  for (auto const* s : kernel.steps) regs = std::max(regs, s->registers());
  std::string load, store, addresses, body;
  for (int r = 0; r < regs; ++r) {
    load += fmt::format("    ld.global.u32       %frag{0}, [%q3+{1}];\n", r, 4 * r);
    store += fmt::format("    st.global.u32       [%q8+{1}], %frag{0};\n", r, 4 * r);
  }
  for (std::size_t k = 0; k < kernel.steps.size(); ++k) {
    const Instance& inst = *kernel.steps[k];
    addresses += address_code(inst, static_cast<int>(k));
    std::string addr = fmt::format("%addr{}_{}", inst.address_width(), k);
    body += "    " + inst.instruction(register_list(inst.registers()), addr) + "\n";
  }
  const std::map<std::string, std::string> fields = {
      {"KERNEL_NAME", kernel.name},
      {"PTX_VERSION", ptx.str()},
      {"TARGET", target},
      {"REGS", std::to_string(regs)},
      {"REGS_BYTES", std::to_string(4 * regs)},
      {"STEPS", std::to_string(kernel.steps.size())},
      {"LOAD_FRAGMENT", load},
      {"STORE_FRAGMENT", store},
      {"ADDRESSES", addresses},
      {"BODY", body},
  };
  std::string out;
  std::size_t pos = 0;
  std::set<std::string> used;
  while (pos < skeleton.size()) {
    std::size_t open = skeleton.find("{{", pos);
    if (open == std::string::npos) { out.append(skeleton, pos); break; }
    std::size_t close = skeleton.find("}}", open);
    if (close == std::string::npos) throw std::runtime_error("kernel skeleton: unclosed '{{'");
    std::string name = skeleton.substr(open + 2, close - open - 2);
    auto it = fields.find(name);
    if (it == fields.end()) throw std::runtime_error(fmt::format("kernel skeleton: unknown field {{{{{}}}}}", name));
    out.append(skeleton, pos, open - pos);
    // Multi-line fields end in a newline; the skeleton puts each on its own line.
    std::string value = it->second;
    if (!value.empty() && value.back() == '\n' && close + 2 < skeleton.size() && skeleton[close + 2] == '\n') value.pop_back();
    out += value;
    used.insert(name);
    pos = close + 2;
  }
  for (auto const& [name, value] : fields)
    if (!used.count(name)) throw std::runtime_error(fmt::format("kernel skeleton: field {{{{{}}}}} is missing", name));
  return out;
}

}  // namespace ptxcts
