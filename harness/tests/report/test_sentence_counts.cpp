// The per-section sentence counts (results/sentence_counts) in the reports: the run report's JSON
// writes and reads them back, its Markdown and page show a row per section and their sum, and the
// reader refuses counts whose parts do not sum to the checkable sentences (a hand edit), at the
// place. Expected numbers are this file's own inputs.
#include <gtest/gtest.h>

#include <string>

#include "report/run/report_html.hpp"
#include "report/run/report_json.hpp"
#include "report/run/report_markdown.hpp"
#include "results/sentence_counts.hpp"

namespace {

using namespace ptxcts;

// Two sections: 10 sentences, 2 descriptive, 8 checkable = 3 judged + 1 elsewhere + 1 + 3.
RunReport report_with_sentences() {
  RunReport r;
  r.info.gpu_name = "NVIDIA H200";
  r.info.sm = "sm_90";
  r.sentences.push_back({.section = "9.7.14.5.15", .source = "PTX ISA 9.0, 9.7.14.5.15 ldmatrix", .sentences = 10,
                         .descriptive = 2, .by_ptxas = 2, .by_gpu = 2, .judged = 3, .elsewhere = 1,
                         .not_judgeable = 1, .not_yet = 3,
                         .reasons = {{"a remark on performance", 1}, {"not yet: no statement", 3}}});
  r.sentences.push_back({.section = "9.7.14.5.17", .source = "PTX ISA 9.0, 9.7.14.5.17 movmatrix", .sentences = 4,
                         .descriptive = 0, .by_ptxas = 0, .by_gpu = 4, .judged = 4});
  return r;
}

TEST(SentenceCounts, RunReportWritesAndReadsThemBack) {
  const RunReport back = parse_report_json(report_json(report_with_sentences()), "r.json");
  ASSERT_EQ(back.sentences.size(), 2u);
  EXPECT_EQ(back.sentences[0].checkable(), 8u);
  EXPECT_EQ(back.sentences[0].judged, 3u);
  EXPECT_EQ(back.sentences[0].reasons.at("not yet: no statement"), 3u);
  EXPECT_EQ(back.sentences[1].by_gpu, 4u);
  const SentenceCount all = sentence_total(back.sentences);
  EXPECT_EQ(all.checkable(), 12u);
  EXPECT_EQ(all.judged, 7u);
  // A report without them (written before the inventory) reads as none.
  RunReport none = report_with_sentences();
  none.sentences.clear();
  EXPECT_EQ(report_json(none).find("\"sentences\""), std::string::npos);
  EXPECT_TRUE(parse_report_json(report_json(none), "r.json").sentences.empty());
}

TEST(SentenceCounts, TheReaderRefusesPartsThatDoNotSum) {
  std::string text = report_json(report_with_sentences());
  const std::string judged = "\"judged\": 3";
  ASSERT_NE(text.find(judged), std::string::npos);
  text.replace(text.find(judged), judged.size(), "\"judged\": 2");
  try {
    parse_report_json(text, "r.json");
    FAIL() << "read counts that do not sum";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("r.json:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("judged + elsewhere + not_judgeable + not_yet = checkable (8)"),
              std::string::npos)
        << e.what();
  }
}

TEST(SentenceCounts, MarkdownAndPageShowEachSectionAndTheSum) {
  const RunReport r = report_with_sentences();
  const std::string md = report_markdown(r);
  EXPECT_NE(md.find("## Sentences judged, per section"), std::string::npos);
  EXPECT_NE(md.find("| PTX ISA 9.0, 9.7.14.5.15 ldmatrix | 10 | 8 | 3 | 2 | 2 | 1 | 1 | 3 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| every section | 14 | 12 | 7 | 2 | 6 | 1 | 1 | 3 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- not yet: no statement: 3"), std::string::npos) << md;
  const std::string html = report_html(r, {});
  EXPECT_NE(html.find("id=\"sentences\""), std::string::npos);
  EXPECT_NE(html.find("<td>every section</td>"), std::string::npos);
  EXPECT_NE(sentence_counts_line(r.sentences, "not judged in this run")
                .find("12 checkable (of 14, 2 descriptive); 7 judged (2 by ptxas, 6 by the GPU), 1 not judged in "
                      "this run, 1 not judgeable on any machine, 3 not yet judged"),
            std::string::npos);
}

}  // namespace
