// What the process's environment says: a variable with a fallback, the user's home, and the program a
// command line would find on a PATH.
#pragma once

#include <string>

namespace ptxcts {

// $name, or `otherwise` where it is unset or empty.
std::string getenv_or(const char* name, const std::string& otherwise = "");

// The user's home: $HOME, else the one the password database gives this process's user (cron and
// `env -i` unset $HOME), else "" (never a shared place such as /tmp).
std::string user_home();

// The first executable regular file called `name` in the folders of `path` (':'-separated, as
// $PATH), or "" where none has one.
std::string find_on_path(const std::string& name, const std::string& path);

}  // namespace ptxcts
