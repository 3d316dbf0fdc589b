// Where something was written: for messages that point the user at file:line:column.
#pragma once

#include <string>

namespace ptxcts {

struct SourceLocation {
  std::string file;
  int line = 0, column = 0;  // 1-based
  std::string str() const;
};

}  // namespace ptxcts
