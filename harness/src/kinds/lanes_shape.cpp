#include "kinds/lanes_shape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace ptxcts {

const char* lanes_shape_name(LanesShape lanes) {
  switch (lanes) {
    case LanesShape::UpperExited: return "upper-exited";
    case LanesShape::UpperPredicatedOff: return "upper-predicated-off";
    case LanesShape::UpperOtherForm: return "upper-other-form";
    case LanesShape::All: break;
  }
  return "";
}

LanesCase read_lanes_case(const YamlReader& item) {
  LanesCase out;
  if (item.has("lanes")) {
    const std::string l = item.at("lanes").str();
    for (auto s : {LanesShape::UpperExited, LanesShape::UpperPredicatedOff, LanesShape::UpperOtherForm})
      if (l == lanes_shape_name(s)) out.lanes = s;
    if (out.lanes == LanesShape::All)
      item.at("lanes").fail(
          fmt::format("unknown lanes '{}'; expected upper-exited, upper-predicated-off or upper-other-form", l));
  }
  if ((out.lanes == LanesShape::UpperOtherForm) != item.has("other_form"))
    item.fail(
        "'other_form' (the qualifier values lanes 16 to 31 run) goes with lanes upper-other-form, and only there");
  if (item.has("other_form"))
    for (auto& [k, v] : item.at("other_form").entries("'other_form' of a case")) out.other_form[k.str()] = v.str();
  return out;
}

bool lanes_admits(const Instance& inst, const std::map<std::string, std::vector<std::string>>& only) {
  for (auto const& [axis, texts] : only) {
    const bool has = std::any_of(inst.variant().axes.begin(), inst.variant().axes.end(),
                                 [&axis = axis](auto const& a) { return a.name == axis; });
    if (!has || std::find(texts.begin(), texts.end(), inst.option(axis).text) == texts.end()) return false;
  }
  return true;
}

const Instance* lanes_other_form(const std::deque<Instance>& instances, const Instance& inst,
                                 const std::map<std::string, std::string>& other_form) {
  if (other_form.empty()) return nullptr;
  for (auto const& cand : instances) {
    if (&cand.variant() != &inst.variant() || cand.address_width() != inst.address_width()) continue;
    bool same = true;
    for (auto const& axis : inst.variant().axes) {
      auto it = other_form.find(axis.name);
      same = same && cand.option(axis.name).text == (it == other_form.end() ? inst.option(axis.name).text : it->second);
    }
    if (same) return &cand;
  }
  throw std::runtime_error("no form of " + inst.variant().name + " has the case's other_form beside " + inst.id());
}

LanesCode lanes_code(LanesShape lanes, const std::string& scratch, const std::string& other_instruction) {
  LanesCode code;
  if (lanes == LanesShape::All) return code;
  code.before = fmt::format(
      "    mov.u32             {0}, %laneid;\n    setp.lt.u32         %p0, {0}, 16;   // lanes 0 to 15\n", scratch);
  if (lanes == LanesShape::UpperExited) {
    code.before += "    @!%p0 exit;                          // lanes 16 to 31 exit\n";
  } else if (lanes == LanesShape::UpperPredicatedOff) {
    code.predicate = "@%p0 ";
  } else {
    code.before += "    @%p0 bra            LANES_LOW;\n    " + other_instruction +
                   "   // lanes 16 to 31: another form\n    bra                 LANES_DONE;\nLANES_LOW:\n";
    code.after = "LANES_DONE:\n";
  }
  return code;
}

}  // namespace ptxcts
