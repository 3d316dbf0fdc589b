#include "kinds/mma/formula_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>

#include "kinds/mma/mma_layout.hpp"
#include "kinds/mma/mma_sparse_spec.hpp"
#include "spec/instance.hpp"

namespace ptxcts {
namespace {

// What the printed text does: cannot be read, or where its layout goes wrong (none: it holds).
std::string printed_fault(const Variant& v, const std::string& operand, const std::string& key, bool row,
                          const MmaFormula& f) {
  ManualFormula printed;
  try {
    printed = ManualFormula::parse(f.manual);
  } catch (const ManualFormulaError& e) {
    return fmt::format("the printed text cannot be read (its line {}): {}", e.line + 1, e.what());
  }
  Variant as_printed = v;
  auto spec = std::make_shared<MmaSpec>(*v.semantics_as<MmaSpec>());
  as_printed.semantics = spec;
  MmaOperand& o = operand == "a" ? spec->a : operand == "b" ? spec->b : spec->c;
  MmaLayout& layout = o.layouts.at(key);
  (row ? layout.row : layout.col).formula = printed;
  for (auto const& inst : expand(as_printed)) {
    try {
      compute_mma_layouts(inst);
    } catch (const std::exception& e) {
      return fmt::format("as printed, {}", e.what());
    }
  }
  return "";
}

}  // namespace

std::vector<FormulaTextCheck> check_formula_texts(const SpecSet& specs) {
  std::vector<FormulaTextCheck> out;
  for (auto const& v : specs.variants) {
    const MmaSpec* spec = v.semantics_as<MmaSpec>();
    // mma.sp's variants: their sections' printed A formulas are the sparse block's statements, their
    // columns of non-zero values and figure-only B the suite's (kinds/mma/mma_sparse.hpp)
    if (!spec || spec->sparse.chunk) continue;
    const std::pair<const char*, const MmaOperand*> operands[] = {{"a", &spec->a}, {"b", &spec->b}, {"c", &spec->c}};
    for (auto const& [name, o] : operands)
      for (auto const& [key, layout] : o->layouts)
        for (bool row : {true, false}) {
          const MmaFormula& f = row ? layout.row : layout.col;
          FormulaTextCheck c{.variant = v.name,
                             .family = v.family,
                             .operand = name,
                             .axis = row ? "row" : "col",
                             .layout = key,
                             .source = layout.source,
                             .manual = f.manual,
                             .reading = f.reading,
                             .why = f.why,
                             .printed_holds = true,
                             .evidence = ""};
          const std::string fault = f.reading.empty() ? "" : printed_fault(v, name, key, row, f);
          c.printed_holds = fault.empty();
          c.evidence = c.printed_holds
                           ? fmt::format("read as printed, it places every element of the {} matrix exactly once on "
                                         "every form of {}",
                                         name, v.name)
                           : fault;
          out.push_back(std::move(c));
        }
  }
  return out;
}

// ---- mma.sp: the sparse sections' A blocks, and what they say of B, C/D and the metadata ----------

namespace {

// The block as the manual prints it, its lines joined as the manual breaks them.
std::string sparse_block_words(const SparseFragmentSection& s) {
  auto indent = [](std::string t) {
    for (std::size_t at = t.find('\n'); at != std::string::npos; at = t.find('\n', at + 2)) t.insert(at + 1, " ");
    return t;
  };
  std::string out;
  for (auto const& [name, f] : s.let) out += fmt::format("{} = {}\n", name, f.text());
  return out + fmt::format("row = {}\ncol = {}\nWhere\nfirstcol = {}\nlastcol = {}", indent(s.row.text()),
                           indent(s.col_note), indent(s.firstcol.text()), indent(s.lastcol.text()));
}

std::string window(const SparseElement& e) { return fmt::format("[{}, {}]", e.firstcol, e.lastcol); }

// (a) every row within the M rows, (b) every window within the K columns.
std::string bounds_fault(const SparseFragmentSection& s, const std::vector<SparseElement>& es) {
  for (auto const& e : es) {
    if (e.row < 0 || e.row >= s.m)
      return fmt::format("lane {} a{}: row {} is outside rows 0-{} (M = {})", e.lane, e.element, e.row, s.m - 1, s.m);
    if (e.firstcol < 0 || e.lastcol < e.firstcol || e.lastcol >= s.k)
      return fmt::format("lane {} a{}: window {} is not within columns 0-{} (K = {})", e.lane, e.element, window(e),
                         s.k - 1, s.k);
  }
  return "";
}

// (c) a register's elements: one row and one window, as wide as the table says, made of whole chunks
// of 9.7.14.6.1's granularity whose non-zeros are exactly the register's elements.
std::string register_fault(const SparseFragmentSection& s, const std::vector<SparseElement>& es) {
  const std::size_t per = static_cast<std::size_t>(s.per_register);
  for (std::size_t at = 0; at < es.size(); at += per) {
    const SparseElement& e = es[at];
    const int reg = e.element / s.per_register, width = e.lastcol - e.firstcol + 1;
    for (std::size_t j = at + 1; j < at + per; ++j)
      if (es[j].row != e.row || es[j].firstcol != e.firstcol || es[j].lastcol != e.lastcol)
        return fmt::format("lane {}: a{} (row {}, window {}) and a{} (row {}, window {}) are both in register {}, but "
                           "the table puts a register's {} elements in one run of {} consecutive elements",
                           e.lane, e.element, e.row, window(e), es[j].element, es[j].row, window(es[j]), reg,
                           s.per_register, s.consecutive);
    if (width != s.consecutive)
      return fmt::format("lane {} register {}: window {} is {} columns wide, but the table says {} non-zero elements "
                         "out of {} consecutive elements",
                         e.lane, reg, window(e), width, s.per_register, s.consecutive);
    if (e.firstcol % s.chunk != 0 || width % s.chunk != 0)
      return fmt::format("lane {} register {}: window {} is not whole chunks of {} (9.7.14.6.1: {}:{})", e.lane, reg,
                         window(e), s.chunk, s.nonzero, s.chunk);
    if (width / s.chunk * s.nonzero != s.per_register)
      return fmt::format("lane {} register {}: window {} holds {} non-zero elements at 9.7.14.6.1's {}:{}, but the "
                         "register holds {}",
                         e.lane, reg, window(e), width / s.chunk * s.nonzero, s.nonzero, s.chunk, s.per_register);
  }
  return "";
}

// (c) each row's columns: in exactly one register's window over the warp.
std::string tiling_fault(const SparseFragmentSection& s, const std::vector<SparseElement>& es) {
  std::vector<std::vector<std::string>> held(static_cast<std::size_t>(s.m * s.k));
  for (std::size_t at = 0; at < es.size(); at += static_cast<std::size_t>(s.per_register)) {
    const SparseElement& e = es[at];
    for (int col = e.firstcol; col <= e.lastcol; ++col)
      held[static_cast<std::size_t>(e.row * s.k + col)].push_back(
          fmt::format("lane {} register {}", e.lane, e.element / s.per_register));
  }
  for (int row = 0; row < s.m; ++row)
    for (int col = 0; col < s.k; ++col) {
      auto const& h = held[static_cast<std::size_t>(row * s.k + col)];
      if (h.size() != 1)
        return fmt::format("row {}, column {} lies in {} windows{}{}; the windows of a row must tile its {} columns",
                           row, col, h.size(), h.empty() ? "" : ": ", fmt::join(h, ", "), s.k);
    }
  return "";
}

SparseFragmentCheck sparse_a_check(const SparseFragmentSection& s) {
  SparseFragmentCheck c{.entry = s.name, .family = s.family, .operand = "a", .what = "formula", .source = s.source,
                        .words = sparse_block_words(s), .checked = true, .holds = true, .evidence = ""};
  std::string fault;
  try {
    const std::vector<SparseElement> es = sparse_elements(s);
    fault = bounds_fault(s, es);
    if (fault.empty()) fault = register_fault(s, es);
    if (fault.empty()) fault = tiling_fault(s, es);
  } catch (const FormulaEvalError& e) {
    fault = e.what();
  }
  c.holds = fault.empty();
  c.evidence =
      !c.holds ? "as printed, " + fault
               : fmt::format("read as printed for 32 lanes x {} elements ({} registers of {}): every row within 0-{} "
                             "(M = {}); every window [firstcol, lastcol] within columns 0-{} (K = {}); each register's "
                             "elements share one row and one {}-wide window, as the table says ({} non-zero out of {} "
                             "consecutive), whole {}:{} chunks whose non-zeros (9.7.14.6.1) are exactly those {}; the "
                             "windows of each row tile its {} columns once ({} windows, {} non-zeros a row: M x K/2 "
                             "over the warp)",
                             s.elements(), s.registers, s.per_register, s.m - 1, s.m, s.k - 1, s.k, s.consecutive,
                             s.per_register, s.consecutive, s.nonzero, s.chunk, s.per_register, s.k,
                             s.k / s.consecutive, s.k * s.nonzero / s.chunk);
  return c;
}

std::string bare(std::string t) { return !t.empty() && t.front() == '.' ? t.substr(1) : t; }

// The element types an operand of a dense variant takes ("f16", "bf16").
std::vector<std::string> operand_types(const Variant& v, const AxisOrFixed& e) {
  if (e.axis.empty()) return {bare(e.fixed)};
  std::vector<std::string> out;
  for (auto const& a : v.axes)
    if (a.name == e.axis)
      for (auto const& o : a.options) out.push_back(bare(o.text));
  return out;
}

// Whether the dense variant's operand could be this sparse section's: its dimensions (B: K x N;
// C/D: M x N) and, for B, an element type of A's.
bool fits(const SparseFragmentSection& s, const std::string& operand, const Variant& v) {
  const MmaSpec& d = *v.semantics_as<MmaSpec>();
  if (operand == "cd") return d.m == s.m && d.n == s.n;
  if (operand != "b") return true;
  if (d.k != s.k || d.n != s.n) return false;
  for (auto const& t : operand_types(v, d.b.element))
    if (std::find(s.types.begin(), s.types.end(), t) != s.types.end()) return true;
  return false;
}

// The dense variants whose operand's layout the specs take from section `number` (9.7.14.5.N).
std::vector<const Variant*> encoding(const SpecSet& specs, const std::string& number, const std::string& operand) {
  std::vector<const Variant*> out;
  for (auto const& v : specs.variants) {
    const MmaSpec* spec = v.semantics_as<MmaSpec>();
    if (!spec || spec->sparse.chunk) continue;  // the dense variants
    const MmaOperand& o = operand == "b" ? spec->b : spec->c;
    for (auto const& [key, layout] : o.layouts)
      if (layout.source.find(", " + number + " ") != std::string::npos) {
        out.push_back(&v);
        break;
      }
  }
  return out;
}

std::string names(const std::vector<const Variant*>& vs) {
  std::vector<std::string> n;
  for (auto const* v : vs) n.push_back(v->name);
  return fmt::format("{}", fmt::join(n, ", "));
}

SparseFragmentCheck deferred_check(const SpecSet& specs, const SparseFragmentSection& s, const std::string& operand,
                                   const SparseOperandText& t) {
  const std::string what = operand == "b" ? "B" : operand == "cd" ? "C/D" : "metadata";
  SparseFragmentCheck c{.entry = s.name, .family = s.family, .operand = operand,
                        .what = t.figures.empty() ? "reference" : "figures",
                        .source = fmt::format("PTX ISA 9.0, {}{}{}", s.section, t.figures.empty() ? "" : ", ",
                                              fmt::join(t.figures, ", ")),
                        .words = t.words, .checked = false, .holds = true, .evidence = ""};
  if (!t.figures.empty()) {
    c.evidence = fmt::format("the manual gives only pictures ({}): not encoded, not checked", fmt::join(t.figures, ", "));
    return c;
  }
  const std::string number = t.same_as.substr(0, t.same_as.find(' '));
  const auto cited = operand == "metadata" ? std::vector<const Variant*>{} : encoding(specs, number, operand);
  std::vector<const Variant*> fit;
  for (auto const* v : cited)
    if (fits(s, operand, *v)) fit.push_back(v);
  const std::string dims = operand == "b" ? fmt::format("K x N = {} x {}", s.k, s.n) : fmt::format("M x N = {} x {}", s.m, s.n);
  if (cited.empty())
    c.evidence = fmt::format("the manual defers to {}, whose {} no variant of the specs encodes; mma.sp is not run: "
                             "not checked", t.same_as, what);
  else if (fit.empty()) {
    c.checked = true, c.holds = false;
    c.evidence = fmt::format("the manual defers to {}, but that section's {} (in the specs: {}) is not of this {} "
                             "({}{}): it cannot be the same",
                             t.same_as, what, names(cited), what, dims,
                             operand == "b" ? fmt::format(", element {}", fmt::join(s.types, "/")) : "");
  } else
    c.evidence = fmt::format("the manual defers to {}; the specs encode that section's {} ({}{}, as here) in {} "
                             "(their cases check it on the GPU); mma.sp is not run, so that its {} is the same is not "
                             "checked",
                             t.same_as, what, dims, operand == "b" ? " and an element type of A's" : "", names(fit), what);
  return c;
}

}  // namespace

std::vector<SparseElement> sparse_elements(const SparseFragmentSection& s) {
  std::vector<SparseElement> out;
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int i = 0; i < s.elements(); ++i) {
      Bindings b;
      b.set("laneid", lane);
      b.set("i", i);
      for (auto const& [name, f] : s.let) b.set(name, f.eval(b));
      const std::int64_t first = s.firstcol.eval(b);
      const std::int64_t row = s.row.eval(b);
      b.set("firstcol", first);
      out.push_back({.lane = lane, .element = i, .row = static_cast<int>(row), .firstcol = static_cast<int>(first),
                     .lastcol = static_cast<int>(s.lastcol.eval(b))});
    }
  return out;
}

std::vector<SparseFragmentCheck> check_sparse_fragments(const SpecSet& specs) {
  std::vector<SparseFragmentCheck> out;
  for (auto const& s : sparse_fragments(specs)) {
    out.push_back(sparse_a_check(s));
    out.push_back(deferred_check(specs, s, "b", s.b));
    out.push_back(deferred_check(specs, s, "cd", s.cd));
    out.push_back(deferred_check(specs, s, "metadata", s.metadata));
  }
  return out;
}

}  // namespace ptxcts
