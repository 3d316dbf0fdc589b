// Many kernels in one PTX module, so that one ptxas process assembles them all: splitting a
// single-kernel module into its header and its entry, composing a batch module, and attributing
// ptxas's messages about a batch back to its kernels by line. Text only: no processes here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxcts {

// The entry every skeleton declares; in a batch each kernel's is renamed.
inline constexpr const char* kSkeletonEntry = "ptxcts_kernel";

// A single-kernel module: the header (everything before the entry line, comment lines dropped)
// and the entry (from the line starting ".visible .entry ptxcts_kernel(" to the end), which is
// left in the module's text (an offset) to keep tens of thousands of them cheap.
struct ModuleParts {
  std::string header;
  std::size_t entry_offset = 0;
  int entry_line = 0;  // 1-based line of the entry's first line in the module
};

// nullopt when the module has no such entry line or more than one: it cannot share a module.
std::optional<ModuleParts> split_module(const std::string& ptx);

// A PTX identifier for a kernel's entry, readable and unique: the name with every character
// outside [A-Za-z0-9_] made '_', then '_' and 8 hex digits of the name's hash (so that names
// differing only in punctuation still differ).
std::string entry_name(const std::string& kernel_name);

struct BatchMember {
  std::string_view entry;  // the entry's text, as split_module found it
  int entry_line = 0;      // its first line in the kernel's own module
  std::string name;        // its entry name in the batch
};

// The batch module: the header once, then each member's entry, renamed. `first_line[k]`: the
// line of member k's entry in it; member k runs to first_line[k + 1] - 1 (the last to the end).
struct BatchModule {
  std::string text;
  std::vector<int> first_line;
  int line_count = 0;
};
BatchModule compose_batch(const std::string& header, const std::vector<BatchMember>& members);

// What one ptxas run on a batch module says about each member.
struct BatchVerdict {
  // Rejected: the members with errors carry them, and the others are assembled again without them.
  // Accepted: every member is. Fallback: the messages cannot be pinned on members (a line in the
  // header, a message without a line, or no member with an error), so assemble them one by one.
  enum class Kind { Accepted, Rejected, Fallback } kind = Kind::Fallback;
  std::vector<bool> rejected;         // per member
  std::vector<std::string> messages;  // per member: its lines (renumbered to its own module)
};

// `output` is ptxas's output with the module's file name already replaced (see assemble());
// message lines with a line number read "ptxas <file>, line N; <severity> : <text>". Each line
// attributed to member k is renumbered to its line in k's own module (from entry_line) and
// otherwise kept as ptxas wrote it. A rejected member's message ends with ptxas's closing
// "ptxas fatal   : Ptx assembly aborted due to errors", as when it is assembled alone. Lines
// without a number on an accepted batch go to every member.
BatchVerdict judge_batch(const BatchModule& module, const std::vector<BatchMember>& members, bool accepted,
                         const std::string& output);

}  // namespace ptxcts
