// A shell line for a test that needs one (mounts in a namespace of its own, a redirection): its
// paths go to the shell as arguments ($1, $2, ... after $0), never into the line's text, so that a
// path with spaces, quotes or letters beyond ASCII (a clone, a $TMPDIR anywhere) is the path it is.
// The line itself is a constant; house.shell-lines (harness/tests/util/check_shell_lines.py) fails
// on a `sh -c` whose line is built from anything else.
#pragma once

#include <string>
#include <vector>

namespace ptxcts::test {

// {"sh", "-c", line, "sh", args...}: $0 is "sh", $1 the first of args.
inline std::vector<std::string> shell_line(const char* line, std::vector<std::string> args = {}) {
  std::vector<std::string> v{"sh", "-c", line, "sh"};
  v.insert(v.end(), args.begin(), args.end());
  return v;
}

// The same in a user and mount namespace of its own (unshare -rm), where it may mount.
inline std::vector<std::string> unshared_shell_line(const char* line, std::vector<std::string> args = {}) {
  std::vector<std::string> v = shell_line(line, std::move(args));
  v.insert(v.begin(), {"unshare", "-rm"});
  return v;
}

}  // namespace ptxcts::test
