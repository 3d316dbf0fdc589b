// The JUnit XML report, for CI dashboards (Jenkins' junit step, GitLab's reports:junit), grouped as
// people read the suite: a testsuite per family; each case a testcase named as `--cases` takes it
// ("KERNEL/CASE", results' case_id), its classname "ptxcts.FAMILY.FORM" (junit_classname), so that
// Jenkins, which splits a classname at its last dot, shows the family as the package and the form as
// the class, and GitLab, which shows the classname as the suite, the two together. A family's claims
// are testcases of its class "claims"; the run's verdict is a testcase "verdict" of the suite
// "ptxcts.run" (classname "ptxcts.run"), red where the run exits 1. Every testcase has a time.
#pragma once

#include <string>

#include "results/results.hpp"

namespace ptxcts {

// A level of a classname: no dots inside it ("ldmatrix.sync.aligned.m8n8.x1.b16" ->
// "ldmatrix-sync-aligned-m8n8-x1-b16"; the instructions of a kernel of several, " ; ", joined by '+').
std::string junit_form(const std::string& instruction);
std::string junit_classname(const std::string& family, const std::string& instruction);

std::string report_junit(const RunReport& report);

}  // namespace ptxcts
