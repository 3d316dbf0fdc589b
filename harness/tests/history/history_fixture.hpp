// What the history's tests share: small run reports with the outcomes a test names, a Database that
// fails (or kills its process) at a chosen statement, and the bytes of a file, to show it untouched.
#pragma once

#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "history/database.hpp"
#include "results/results.hpp"

namespace ptxcts::test {

// A run of "NVIDIA Test GPU" (sm_90) on `driver` with CUDA `cuda`: one ldmatrix result per case, as
// named, and one claim with the verdict given.
inline RunReport small_run(const std::string& driver, const std::vector<std::pair<std::string, Status>>& cases,
                           const std::string& date, Verdict claim = Verdict::Confirmed, const std::string& cuda = "13.0",
                           const std::string& gpu = "NVIDIA Test GPU") {
  RunReport r;
  r.info = {.gpu_name = gpu, .compute_capability = "9.0", .sm = "sm_90", .driver_version = driver,
            .driver_cuda = cuda, .cuda_release = cuda, .ptxas_version = cuda + ".88", .ptx_isa = "9.0",
            .toolchain = cubin_toolchain(cuda + ".88"), .host = "test", .date = date, .suite_version = "0.1.0",
            .suite_commit = "abc1234", .specs = "specs1"};
  for (auto const& [name, status] : cases)
    r.results.push_back({.kernel = "ldmatrix.sync.aligned.m8n8.x1.b16", .family = "ldmatrix",
                         .instruction = "ldmatrix.sync.aligned.m8n8.x1.b16", .case_name = name, .target = "sm_90",
                         .ptx_isa = "9.0", .status = status,
                         .reason = status == Status::Fail ? "3 elements differ" : ""});
  r.claims.push_back({.id = "ldmatrix.rows", .family = "ldmatrix", .text = "each row is a thread's address",
                      .source = "manual", .note = "", .verdict = claim, .evidence = "the cases", .checked = {}});
  return r;
}

inline std::string file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Forwards to `inner`, but, once told (fail_at), at its n-th query from then (counting from 1) throws
// HistoryError, or, with `kill`, ends its process by SIGKILL there: a run killed mid-write.
class FailingDatabase final : public Database {
 public:
  explicit FailingDatabase(std::unique_ptr<Database> inner) : inner_(std::move(inner)) {}
  void fail_at(int n, bool kill = false) {
    queries = 0;
    fail_at_ = n;
    kill_ = kill;
  }
  DbKind kind() const override { return inner_->kind(); }
  const std::string& where() const override { return inner_->where(); }
  void exec(std::string_view sql) override { inner_->exec(sql); }
  std::vector<DbRow> query(std::string_view sql, const std::vector<DbValue>& params) override {
    tick();
    return inner_->query(sql, params);
  }
  void run_many(std::string_view sql, const std::vector<std::vector<DbValue>>& params) override {
    tick();
    inner_->run_many(sql, params);
  }
  void begin() override { inner_->begin(); }
  void commit() override { inner_->commit(); }
  void rollback() noexcept override { inner_->rollback(); }
  std::string_view auto_id() const override { return inner_->auto_id(); }
  std::string_view blob_type() const override { return inner_->blob_type(); }
  bool has_table(std::string_view name) override { return inner_->has_table(name); }
  bool has_any_table() override { return inner_->has_any_table(); }
  int queries = 0;

 private:
  void tick() {
    if (++queries != fail_at_) return;
    if (kill_) std::raise(SIGKILL);
    throw HistoryError("the test's failure at this statement");
  }
  std::unique_ptr<Database> inner_;
  int fail_at_ = 0;
  bool kill_ = false;
};

}  // namespace ptxcts::test
