#include "commands/terminal_progress.hpp"

#include <fmt/format.h>

#include "results/outcome.hpp"

namespace ptxcts {

// A line of at most 120 columns: the rest goes on further lines, indented.
std::string fold(const std::string& line, std::size_t indent) {
  constexpr std::size_t kWidth = 120;
  std::string out;
  std::size_t at = 0;
  while (line.size() - at > kWidth - (at ? indent : 0)) {
    const std::size_t room = kWidth - (at ? indent : 0);
    std::size_t cut = line.rfind(' ', at + room);
    if (cut == std::string::npos || cut <= at) cut = at + room;
    out += (at ? std::string(indent, ' ') : "") + line.substr(at, cut - at) + "\n";
    at = line[cut] == ' ' ? cut + 1 : cut;
  }
  return out + (at ? std::string(indent, ' ') : "") + line.substr(at);
}

std::string failure_text(const CaseResult& r, bool with_diff) {
  std::string text = fold(fmt::format("  {:<9} {}/{}: {}", label(outcome_of(r)), r.kernel, r.case_name, r.reason), 12);
  if (with_diff)
    for (auto const& d : r.diff) text += "\n" + fold("            " + d, 14);
  return text;
}

TerminalProgress::TerminalProgress(std::FILE* out, bool tty, Verbosity verbosity, std::string prefix,
                                   std::chrono::milliseconds every)
    : out_(out), tty_(tty), verbosity_(verbosity), prefix_(std::move(prefix)), every_(every) {}

std::string TerminalProgress::line(std::size_t done, std::size_t total, std::size_t failures, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  std::string left = rate > 0 && done < total ? fmt::format(", ~{:.0f} s left", (total - done) / rate) : "";
  return fmt::format("{}/{} cases, {} failed, {:.0f} cases/s{}", done, total, failures, rate, left);
}

void TerminalProgress::print_above(const std::string& text) {
  if (tty_ && drawn_) std::fputs("\r\x1b[K", out_);  // the in-place line gives way, and is drawn again below
  std::fprintf(out_, "%s\n", text.c_str());
  drawn_ = false;
}

void TerminalProgress::draw(bool force) {
  if (verbosity_ == Verbosity::Quiet) return;
  const auto now = std::chrono::steady_clock::now();
  const auto gap = tty_ ? std::chrono::milliseconds(100) : every_;
  if (!force && now - last_draw_ < gap) return;
  if (!tty_ && !force && last_draw_ == std::chrono::steady_clock::time_point{}) {
    last_draw_ = now;  // not on a terminal: the first line after `every`, so short runs print none
    return;
  }
  last_draw_ = now;
  const std::string text =
      prefix_ + line(done_, total_, failures_, std::chrono::duration<double>(now - start_).count());
  if (tty_) {
    std::fprintf(out_, "\r\x1b[K%s", text.c_str());
    drawn_ = true;
  } else {
    std::fprintf(out_, "%s\n", text.c_str());
  }
  std::fflush(out_);
}

void TerminalProgress::case_done(const CaseResult& r, std::size_t done, std::size_t total) {
  std::lock_guard<std::mutex> hold(mutex_);
  done_ = done;
  total_ = total;
  if (needs_action(r)) {
    // A run where everything fails must not bury its end: the first failures in full, then a line
    // each, then only the count (the reports have every one).
    ++failures_;
    if (failures_ <= kFailuresInFull) print_above(prefix_ + failure_text(r, true));
    else if (failures_ <= kFailuresListed) print_above(prefix_ + failure_text(r, false));
    else if (failures_ == kFailuresListed + 1)
      print_above(prefix_ + fmt::format("  ... further failures are not printed; the reports have every one"));
  }
  draw(false);
}

void TerminalProgress::kernel_line(const std::string& text) {
  if (verbosity_ != Verbosity::Verbose) return;
  std::lock_guard<std::mutex> hold(mutex_);
  print_above(prefix_ + text);
  draw(false);
}

void TerminalProgress::finish() {
  std::lock_guard<std::mutex> hold(mutex_);
  if (verbosity_ == Verbosity::Quiet || total_ == 0) return;
  if (tty_ && drawn_) std::fputs("\r\x1b[K", out_);
  drawn_ = false;
  std::fprintf(
      out_, "%s%s\n", prefix_.c_str(),
      line(done_, total_, failures_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count())
          .c_str());
  std::fflush(out_);
}

}  // namespace ptxcts
