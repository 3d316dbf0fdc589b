// A runner's results file read as the protocol (run/device_protocol.hpp) says it is written, record
// by record, each checked: the magic "PCR1", an outcome of 0 to 3, lengths within the protocol's
// bounds, the id of a job of this line not recorded before, the images of a launch that ran of the
// sizes its job's shape gives (warps x tile bytes; threads x registers words). A record still being written (the bytes
// so far fit the protocol) is waited for; anything else is the runner breaking the protocol, said
// as such, with the record's number, its byte offset and what was expected: a garbage or forged
// record is an `error` of the cases it leaves without a result, never a GPU crash.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>

#include "run/device_protocol.hpp"

namespace ptxcts {

class ResultRecords {
 public:
  // `file`: as named in messages; `is_job`: whether an id is one of this line's jobs; `recorded`:
  // whether a job has its result already; `shape`, if given: a job's launch shape (its images' sizes).
  ResultRecords(std::string file, std::function<bool(std::uint32_t)> is_job,
                std::function<bool(std::uint32_t)> recorded,
                std::function<std::optional<LaunchShape>(std::uint32_t)> shape = {})
      : file_(std::move(file)), is_job_(std::move(is_job)), recorded_(std::move(recorded)), shape_(std::move(shape)) {}

  // The next complete record of `in`, checked; nullopt where there is none yet (or the protocol is
  // broken: then broken() says how, and nothing more is read).
  std::optional<DeviceResult> next(std::istream& in);
  const std::string& broken() const { return broken_; }

 private:
  std::string file_;
  std::function<bool(std::uint32_t)> is_job_, recorded_;
  std::function<std::optional<LaunchShape>(std::uint32_t)> shape_;
  int number_ = 0;              // records read
  std::uint64_t offset_ = 0;    // where the next one starts
  std::string broken_;
};

}  // namespace ptxcts
