# cmake -DSRC=<file> -DOUT=<file> -P clang_compat.cmake
# Copies a harness source for a clang that cannot capture a structured binding in a lambda (C++20,
# P1091/P1381: clang 16 on; Debian 12's clang 14 refuses it, gcc accepts it), rewriting the known
# captures into init-captures of the same name: the same code for every compiler that accepts both.
# A capture no longer in the file (fixed, or moved) is skipped: the copy is then the file itself,
# and a new one shows as a compile error naming the line. FINDINGS.md lists them.
file(READ "${SRC}" _text)
# results/report_json.cpp, Node::object: for (auto const& [k, v] : j_.items())
string(REPLACE "[&](const char* key) { return k == key; }" "[&k = k](const char* key) { return k == key; }"
       _text "${_text}")
# kinds/wmma/wmma_planner.cpp, wmma_takes: for (auto const& [axis, texts] : c.only)
string(REPLACE "[&](auto const& a) { return a.name == axis; }"
       "[&axis = axis](auto const& a) { return a.name == axis; }" _text "${_text}")
file(WRITE "${OUT}.tmp" "${_text}")
file(RENAME "${OUT}.tmp" "${OUT}")
