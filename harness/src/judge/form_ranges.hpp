// Forms named at their extent: a set of instructions collapsed into ranges, qualifier by
// qualifier ("wmma.load.a.sync.aligned.row.m16n16k16.f16" and "...col.m16n16k16.f16" ->
// "wmma.load.a.sync.aligned.{col,row}.m16n16k16.f16"), so that a finding names every form it holds
// for in a few lines rather than one example and a count.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace ptxcts {

// The mnemonics of `forms` (each up to its first space), collapsed: two patterns that differ in one
// qualifier only are one, with both values in braces, until no two do; in order. Mnemonics with a
// different number of qualifiers stay apart.
std::vector<std::string> form_ranges(const std::set<std::string>& forms);

}  // namespace ptxcts
