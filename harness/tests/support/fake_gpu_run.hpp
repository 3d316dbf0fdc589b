// A device run of some families on one fake sm_90 GPU ("Fake GPU", driver 0.0, CUDA 13.0) through
// a runner (the fake device runner, or a test's script), its job and result files in `dir`: the run
// the run/ tests about the device protocol make again and again.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "run/runner.hpp"

namespace ptxcts::test {

inline DeviceRun run_on_fake_gpu(const Suite& suite, const Catalog& catalog, const std::string& runner,
                                 const std::filesystem::path& dir, std::set<std::string> families,
                                 Journal* journal = nullptr,
                                 std::map<std::pair<std::string, std::string>, CaseResult> done = {}) {
  RunOptions opt{.runner = runner,
                 .catalog_dir = dir,
                 .work_dir = dir,
                 .families = std::move(families),
                 .progress = {},
                 .journal = journal,
                 .done = std::move(done)};
  return run_on_device(suite, catalog, {0, "Fake GPU", 9, 0, "13.0", "0.0"}, opt);
}

}  // namespace ptxcts::test
