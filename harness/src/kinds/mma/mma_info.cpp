#include "kinds/mma/mma_info.hpp"

namespace ptxcts {

std::uint64_t MmaOperandInfo::get(const std::uint32_t* w, int e) const {
  const int r = e / per_register, slot = e % per_register;
  if (wide) return w[first_word + 2 * r] | (std::uint64_t{w[first_word + 2 * r + 1]} << 32);
  const std::uint64_t mask = (std::uint64_t{1} << format->bits) - 1;
  return (w[first_word + r] >> (slot * container_bits + shift)) & mask;
}

void MmaOperandInfo::set(std::uint32_t* w, int e, std::uint64_t bits) const {
  const int r = e / per_register, slot = e % per_register;
  if (wide) {
    w[first_word + 2 * r] = static_cast<std::uint32_t>(bits);
    w[first_word + 2 * r + 1] = static_cast<std::uint32_t>(bits >> 32);
    return;
  }
  const int at = slot * container_bits + shift;
  const std::uint32_t mask = static_cast<std::uint32_t>(((std::uint64_t{1} << format->bits) - 1) << at);
  w[first_word + r] = (w[first_word + r] & ~mask) | (static_cast<std::uint32_t>(bits << at) & mask);
}

MmaInfo mma_info(const Instance& inst) {
  const MmaSpec& spec = *inst.variant().semantics_as<MmaSpec>();
  const MmaLayouts layouts = compute_mma_layouts(inst);
  MmaInfo x;
  x.m = layouts.m;
  x.n = layouts.n;
  x.k = layouts.k;
  x.computations = layouts.computations;
  int word = 0;  // a, b, c, then d
  for (auto [info, layout] : {std::pair{&x.a, &layouts.a}, {&x.b, &layouts.b}, {&x.c, &layouts.c}, {&x.d, &layouts.d}}) {
    static_cast<MmaOperandLayout&>(*info) = *layout;
    info->first_word = word;
    word += info->words();
  }
  if (spec.sparse.chunk) {
    const Bindings b = inst.bindings();
    const std::int64_t* selector = b.find(spec.sparse.selector);
    x.sparse = {.chunk = spec.sparse.chunk,
                .selector = selector ? static_cast<int>(*selector) : 0,
                .threads = 4 / spec.sparse.selectors,
                .ordered = inst.option(spec.sparse.ordered).text == ".sp::ordered_metadata",
                .e_word = word++,
                .one_row = spec.sparse.one_row};
  }
  x.words = word;
  x.rule = {.m = x.m,
            .n = x.n,
            .k = x.k,
            .d = x.d.format,
            .satfinite = !spec.saturate.empty() && inst.option(spec.saturate).text == ".satfinite",
            .rounding = spec.rounding.empty() || inst.option(spec.rounding).text.empty()
                            ? "rn"
                            : inst.option(spec.rounding).text.substr(1),
            .product = spec.product.axis.empty()                               ? spec.product.fixed
                       : inst.option(spec.product.axis).text == ".xor.popc" ? "xor"
                                                                              : "and"};
  return x;
}

}  // namespace ptxcts
