// A runner's results file read as the protocol (run/device_protocol.hpp) says it is written, record
// by record, each checked: the magic "PCR1", an outcome of 0 to 3, lengths within the protocol's
// bounds, the id of a job of this line not recorded before, the images of a launch that ran of the
// sizes its job's shape gives (warps x tile bytes; threads x registers words). A record still being written (the bytes
// so far fit the protocol) is waited for; anything else is the runner breaking the protocol, said
// as such, with the record's number, its byte offset and what was expected. The reading goes on at
// the next record found whole and valid after it (see resync), so that a garbled record costs its
// own case alone: an `error` naming the break, never a GPU crash, and the records after it stand.
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

  // The next complete record of `in`, checked; nullopt where there is none yet. After a record that
  // breaks the protocol, the next one found whole and valid (resync).
  std::optional<DeviceResult> next(std::istream& in);
  // The break the record next() just gave was found after: the records between it and the one before
  // it could not be read ("" where none was lost).
  const std::string& lost_before() const { return lost_before_; }
  // A break no record has been found after yet: "device runner broke the protocol at results record
  // N (byte B of FILE): expected ...".
  const std::string& broken() const { return broken_; }
  // The runner has ended (the file is written to no more until the next one starts): a break no
  // record was found after is final, and the file's bytes from it on are skipped. Gives that break
  // ("" where there is none).
  std::string settle(std::istream& in);

 private:
  std::string file_;
  std::function<bool(std::uint32_t)> is_job_, recorded_;
  std::function<std::optional<LaunchShape>(std::uint32_t)> shape_;
  std::optional<DeviceResult> resync(std::istream& in);

  int number_ = 0;            // records read
  std::uint64_t offset_ = 0;  // where the next one starts
  std::string broken_;
  std::uint64_t scan_from_ = 0;  // after a break: where the search for the next record goes on
  std::string lost_before_;
};

}  // namespace ptxcts
