// The sentence inventory's model (specs/sentences.yaml): every sentence of the reference text's
// sections on the instructions under test, per section, each mapped to the statements that judge it
// or marked with why nothing does. Read by spec/sentences; counted per report by judge/sentence_counts.
#pragma once

#include <string>
#include <vector>

#include "spec/source_location.hpp"

namespace ptxcts {

enum class SentenceClass { Judged, Descriptive, NotJudgeable, NotYet };

struct Sentence {
  std::string text;
  std::vector<std::string> ptxas, gpu;  // the ids that judge it, by who judges them
  SentenceClass cls = SentenceClass::NotYet;
  std::string reason;  // descriptive / not judgeable / not yet: why
  std::string note;
  SourceLocation where;
};

struct SentenceSection {
  std::string section, source, file;  // "9.7.14.5.15", "PTX ISA 9.0, 9.7.14.5.15 ldmatrix", under ../shared
  std::vector<Sentence> sentences;
  SourceLocation where;
};

}  // namespace ptxcts
