// Per section of the reference text (specs/sentences.yaml), how many of its sentences a report
// judged: the checkable ones (every sentence less the descriptive), judged by ptxas and by the GPU in
// this report, mapped to statements this report did not judge (the GPU's in an audit, claims a run
// left out), not judgeable on any machine and not yet judged (each with why). The audit and the run
// report carry them (JSON "sentences", a table on each page and in each Markdown file), and the
// console says their sum in a line. judge/sentence_counts counts them.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ptxcts {

class JsonNode;

struct SentenceCount {
  std::string section, source;  // "9.7.14.5.15", "PTX ISA 9.0, 9.7.14.5.15 ldmatrix"
  std::size_t sentences = 0, descriptive = 0;
  std::size_t by_ptxas = 0, by_gpu = 0;  // a sentence both judge counts in each
  std::size_t judged = 0;                // by either, once
  std::size_t elsewhere = 0;             // mapped to statements this report did not judge
  std::size_t not_judgeable = 0, not_yet = 0;
  std::map<std::string, std::size_t> reasons;  // why not judgeable or not yet -> how many sentences
  std::size_t checkable() const { return sentences - descriptive; }
};

// The sum of every section (section "all").
SentenceCount sentence_total(const std::vector<SentenceCount>& counts);

nlohmann::ordered_json sentence_counts_json(const std::vector<SentenceCount>& counts);
// Strict: every key, and the parts summing to the checkable sentences.
std::vector<SentenceCount> read_sentence_counts(const JsonNode& n);

// "Sentences of the manual's sections: 504 checkable (of 687); 212 judged (61 by ptxas, 151 by the
// GPU), 0 awaiting the GPU, 2 not judgeable on any machine, 290 not yet judged", or "" with none.
std::string sentence_counts_line(const std::vector<SentenceCount>& counts, const char* elsewhere_words);

}  // namespace ptxcts
