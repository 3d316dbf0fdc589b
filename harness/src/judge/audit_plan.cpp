#include "judge/audit_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "assemble/catalog.hpp"
#include "judge/claimed_shapes.hpp"
#include "judge/instruction_keys.hpp"
#include "judge/negative_space_parts.hpp"
#include "judge/register_types.hpp"
#include "judge/type_shape_product.hpp"
#include "judge/version_spellings.hpp"
#include "util/worker_threads.hpp"

namespace ptxcts {
namespace {

// Every target the documents and the toolkit know: those ptxas does not know (sm_70, sm_72) are
// still tried as a module's `.target` under the oldest architecture it does know.
struct Targets {
  const TargetCatalog& cat;
  std::vector<std::string> real;  // known to this ptxas, in targets.yaml's order

  bool known(const std::string& t) const { return std::find(real.begin(), real.end(), t) != real.end(); }
  std::string arch_for(const std::string& t) const {
    return known(t) || real.empty() ? "" : "compute_" + real.front().substr(3);
  }
  // The first target (portable first, then the lowest architecture) supporting `inst` that
  // `version` knows, among the real ones or (`any`) all of targets.yaml.
  const TargetInfo* first(const Instance& inst, std::optional<PtxVersion> version, bool any) const {
    const TargetInfo* best = nullptr;
    for (auto const& t : cat.targets) {
      if (!any && !known(t.name)) continue;
      if (version && *version < t.ptx) continue;
      if (!supports(cat, inst, t)) continue;
      auto key = [](const TargetInfo& x) { return std::tuple(!x.suffix.empty(), x.arch); };
      if (!best || key(t) < key(*best)) best = &t;
    }
    return best;
  }
};

// Adds the probes and subjects to the plan, section by section (the probes' order is the plan's).
struct Builder {
  AuditPlan& plan;
  const SpecSet& specs;
  const Targets& targets;
  const std::deque<Instance>& suite_instances;
  std::map<std::string, const Instance*> qualifier_index{};  // by_qualifiers()

  // `expected`: whether the documents say ptxas accepts it (probes expected to be accepted share
  // modules, so that such a module is judged in one ptxas run).
  // `ends_parse`: a syntax error ptxas stops parsing at: such probes share modules only among themselves.
  OnTarget add(const std::string& target, PtxVersion ptx, std::string body, bool expected, std::string arch = "",
               bool ends_parse = false) {
    plan.probes.push_back({.target = target, .ptx = ptx, .body = std::move(body), .arch = std::move(arch),
                           .group = expected ? 0 : ends_parse ? 2 : 1});
    return {.target = target, .probe = plan.probes.size() - 1};
  }

  // The grammar, on every target.
  void grammar(const std::map<std::string, const Instance*>& by_text) {
    for (auto& cc : classify_grammar(specs, by_text, plan.toolkit_ptx)) {  // the rules that hold at the probes' version
      GrammarSubject g{.cc = std::move(cc), .instruction = "", .on = {}};
      ProbeText pt = probe_text(g.cc.combo.text, documented_shape(g.cc.combo));
      const std::string& body = pt.body;
      g.instruction = std::move(pt.instruction);
      for (auto const& t : plan.targets)
        g.on.push_back(
            add(t, plan.toolkit_ptx, body,
                g.cc.doc == DocClass::Valid && supports(specs.targets, *g.cc.instance, *specs.targets.find(t))));
      plan.grammar.push_back(std::move(g));
    }
  }

  // The negative space of the documented form plan.grammar[k] with each question's probe text: what
  // `mutations` adds, made apart from the plan (a pure function of the form), so that the forms'
  // share can be made on several threads.
  struct AskedMutation {
    Mutation m;
    ProbeText pt;
  };
  std::vector<AskedMutation> negative_space(std::size_t k, const std::set<std::string>& texts32,
                                            const GrammarPools& pools, WideParts wide) const {
    std::vector<AskedMutation> out;
    for (auto& m : mutations_of(plan.grammar[k].cc, texts32, wide, &pools)) {
      ProbeText pt = probe_text(m.text, m.shape);
      out.push_back({.m = std::move(m), .pt = std::move(pt)});
    }
    return out;
  }

  // That negative space added, on the form's first target: wider where it heads a class of forms
  // (made so by `negative_space`); the block's representative's sample again on every other target
  // supporting it.
  void mutations(std::size_t k, std::vector<AskedMutation> asked, bool representative) {
    const ClassifiedCombination& cc = plan.grammar[k].cc;
    const TargetInfo* home = targets.first(*cc.instance, std::nullopt, false);
    if (!home) return;
    std::map<std::string, int> sampled;  // per kind of mutation
    for (auto& [m, pt] : asked) {
      const bool valid = m.expected == DocClass::Valid;
      const bool sample = representative && !m.ends_parse && sampled[m.kind]++ < kTargetSample;
      OnTarget on = add(home->name, plan.toolkit_ptx, sample ? pt.body : std::move(pt.body), valid, "", m.ends_parse);
      if (!sample) {  // moved, not copied: most are asked on their first target alone
        plan.mutations.push_back(
            {.of = k, .m = share(std::move(m)), .instruction = std::move(pt.instruction), .on = on, .home = true});
        continue;
      }
      const SharedMutation shared = share(std::move(m));  // one Mutation for every target it is asked on
      plan.mutations.push_back({.of = k, .m = shared, .instruction = pt.instruction, .on = on, .home = true});
      for (auto const& t : plan.targets)
        if (t != home->name && supports(specs.targets, *cc.instance, *specs.targets.find(t)))
          plan.mutations.push_back({.of = k, .m = shared, .instruction = pt.instruction,
                                    .on = add(t, plan.toolkit_ptx, pt.body, valid), .home = false});
    }
  }

  // Each class's equivalence, checked: on each sampled member, a seeded sample of the questions of
  // the class's part that its head was asked too, on the member's first target.
  void equivalences(const std::set<std::string>& texts32, const GrammarPools& pools) {
    std::map<std::size_t, std::set<std::string>> asked;  // head of a sampled class -> "kind|detail"
    for (auto const& fc : plan.form_classes)
      if (!fc.sampled.empty()) asked[fc.forms.front()];
    for (auto const& ms : plan.mutations)
      if (auto h = asked.find(ms.of); ms.home && h != asked.end() && form_part_of(ms.m->kind))
        h->second.insert(ms.m->kind + "|" + ms.m->detail);
    for (std::size_t ci = 0; ci < plan.form_classes.size(); ++ci) {
      const FormClass& fc = plan.form_classes[ci];
      const WideParts part{.values = fc.part == FormPart::Values, .operands = fc.part == FormPart::Operands,
                           .registers = fc.part == FormPart::Registers};
      for (std::size_t member : fc.sampled) {
        const ClassifiedCombination& cc = plan.grammar[member].cc;
        const TargetInfo* home = targets.first(*cc.instance, std::nullopt, false);
        if (!home) continue;
        for (auto& m : equivalence_sample(fc, member, wide_mutations_of(cc, texts32, part, pools), asked[fc.forms.front()])) {
          ProbeText pt = probe_text(m.text, m.shape);
          OnTarget on = add(home->name, plan.toolkit_ptx, std::move(pt.body), m.expected == DocClass::Valid, "", m.ends_parse);
          plan.mutations.push_back({.of = member, .m = share(std::move(m)), .instruction = std::move(pt.instruction), .on = on,
                                    .home = true, .equivalence = ci});
        }
      }
    }
  }

  // Every element type on every shape and matrix, each on the target supporting the most
  // documented forms of its instruction (the newest of those that tie), in the registers of the
  // asked type's own fragment-table row where it has one (judge/type_shape_product.hpp).
  void type_shape(const std::vector<std::size_t>& representatives, const GrammarPools& pools) {
    std::vector<const ClassifiedCombination*> reps;
    std::set<std::string> asked;
    for (auto k : representatives) reps.push_back(&plan.grammar[k].cc);
    for (auto const& g : plan.grammar) asked.insert(g.cc.combo.text);
    std::map<std::string, std::map<std::string, int>> supported;  // instruction -> target -> forms
    for (auto const& g : plan.grammar)
      if (g.cc.doc == DocClass::Valid) {
        std::map<std::string, int>& forms = supported[product_instruction(g.cc.combo.text)];  // once, not per target
        for (auto const& t : plan.targets) forms[t] += supports(specs.targets, *g.cc.instance, *specs.targets.find(t));
      }
    std::vector<const ClassifiedCombination*> documented;  // each asked type's own fragment-table row, from these
    for (auto const& g : plan.grammar)
      if (g.cc.doc == DocClass::Valid) documented.push_back(&g.cc);
    for (auto& q : type_shape_product(reps, pools, asked, fragment_rows(specs.register_claims, documented))) {
      std::string best;
      int most = -1;
      std::map<std::string, int>& forms = supported[product_instruction(q.m.text)];
      for (auto const& t : plan.targets)
        if (int n = forms[t]; n >= most) most = n, best = t;
      if (best.empty()) continue;
      ProbeText pt = probe_text(q.m.text, q.m.shape);
      OnTarget on = add(best, plan.toolkit_ptx, std::move(pt.body), false);
      plan.mutations.push_back(
          {.of = representatives[q.of], .m = share(std::move(q.m)), .instruction = std::move(pt.instruction), .on = on, .home = true});
    }
  }

  // The minimum PTX ISA version of the documented form plan.grammar[k], at it and one below, each
  // spelled as the documents spell it at that version (judge/version_spellings.hpp).
  void version(std::size_t k) {
    const ClassifiedCombination& cc = plan.grammar[k].cc;
    VersionSubject v{.of = k, .documented = cc.instance->min_ptx(), .why = cc.instance->requirement_text(),
                     .at = std::nullopt, .below = std::nullopt, .below_version = {}};
    // A copy: add grows plan.probes, which would leave a reference into it dangling.
    const std::string body = plan.probes[plan.grammar[k].on.front().probe].body;
    // A version newer than the toolkit's is not known to it: nothing to ask.
    const bool known_version = !(plan.toolkit_ptx < v.documented);
    if (const TargetInfo* t = targets.first(*cc.instance, v.documented, true); t && known_version) {
      v.at = add(t->name, v.documented, spelled_at(specs, body, v.documented), true, targets.arch_for(t->name));
      other_spelling(k, body, v.documented, *t);
      spelling_edges_of(k, body, v.documented);
    }
    if (auto below = specs.targets.previous(v.documented); below && known_version) {
      v.below_version = *below;
      // A target the version below knows, if there is one; else the same target (ptxas then
      // names both the target and the feature).
      const TargetInfo* t = targets.first(*cc.instance, *below, true);
      if (!t) t = targets.first(*cc.instance, v.documented, true);
      if (t) v.below = add(t->name, *below, spelled_at(specs, body, *below), false, targets.arch_for(t->name));
    }
    plan.versions.push_back(std::move(v));
  }

  // Where the documents spell the form without a qualifier at `version` (".aligned ... considered
  // implicit in PTX ISA versions less than 6.3"), the spelling with it, asked there apart: a form no
  // document gives at that version (neither valid nor forbidden), so that its rejection is no
  // finding against the documents and its acceptance an undocumented form accepted.
  void other_spelling(std::size_t k, const std::string& body, PtxVersion version, const TargetInfo& t) {
    const VersionSpelling* rule = spelling_below(specs, body, version);
    if (!rule) return;
    Mutation m{.kind = "version-spelling",
               .detail = fmt::format("{} at PTX ISA {}, where the documents leave it out (below {})", rule->qualifier,
                                     version.str(), rule->from.str()),
               .text = plan.grammar[k].cc.combo.text,
               .shape = documented_shape(plan.grammar[k].cc.combo),
               .expected = DocClass::Undocumented,
               .words = rule->text,
               .source = rule->cite.source};
    OnTarget on = add(t.name, version, body, false, targets.arch_for(t.name));
    plan.mutations.push_back(
        {.of = k, .m = share(std::move(m)), .instruction = plan.grammar[k].instruction, .on = on, .home = true});
  }

  // The form at the edges of each spelling's version range and one version past them
  // (judge/version_spellings.hpp's spelling_edges), each on the first target that version knows.
  void spelling_edges_of(std::size_t k, const std::string& body, PtxVersion documented) {
    const ClassifiedCombination& cc = plan.grammar[k].cc;
    for (auto& e : spelling_edges(specs, body, documented, plan.toolkit_ptx)) {
      const TargetInfo* t = targets.first(*cc.instance, e.version, true);
      if (!t) continue;
      Mutation m{.kind = "version-spelling", .detail = std::move(e.detail), .text = cc.combo.text,
                 .shape = documented_shape(cc.combo), .expected = e.expected, .words = e.rule->text,
                 .source = e.rule->cite.source};
      const std::string& written = plan.grammar[k].instruction;  // as the probe spells it
      std::string instruction = e.body == body ? written : without_qualifier(written, e.rule->qualifier);
      OnTarget on = add(t->name, e.version, std::move(e.body), e.expected == DocClass::Valid, targets.arch_for(t->name));
      plan.mutations.push_back({.of = k, .m = share(std::move(m)), .instruction = std::move(instruction), .on = on, .home = true});
    }
  }

  // Each combination a rule bounded in PTX ISA versions forbids (spec PtxRange), at the edges of the
  // rule's range and one version past each (rule_edges), on the first target that version knows
  // which supports the block's representative: invalid where the rule holds, and past it what the
  // block spells without it (valid, unless another rule of its document holds there and forbids it).
  void rule_version_edges(const std::vector<std::size_t>& representatives) {
    std::map<const GrammarBlock*, std::size_t> rep;
    for (auto k : representatives) rep.emplace(plan.grammar[k].cc.combo.block, k);
    for (auto const& r : specs.rules) {
      if (!r.ptx.bounded()) continue;
      for (std::size_t k = 0, n = plan.grammar.size(); k < n; ++k) {
        const Combination& c = plan.grammar[k].cc.combo;
        auto home = rep.find(c.block);
        if (home == rep.end() || r.cite.document != c.block->cite.document || !rule_forbids(r, c)) continue;
        for (auto const& e : rule_edges(specs, r, plan.toolkit_ptx)) rule_edge(r, k, home->second, e);
      }
    }
  }
  void rule_edge(const GrammarRule& r, std::size_t k, std::size_t home, const RuleEdge& e) {
    const GrammarSubject& g = plan.grammar[k];
    const TargetInfo* t = targets.first(*plan.grammar[home].cc.instance, e.version, true);
    if (!t) return;
    bool invalid = e.holds;
    for (auto const& other : specs.rules)
      invalid = invalid || (&other != &r && other.cite.document == r.cite.document && other.ptx.holds_at(e.version) &&
                            rule_forbids(other, g.cc.combo));
    const std::string body = spelled_at(specs, plan.probes[g.on.front().probe].body, e.version);
    Mutation m{.kind = "rule-version",
               .detail = fmt::format("{}, rule {}", e.detail, r.id),
               .text = g.cc.combo.text,
               .shape = documented_shape(g.cc.combo),
               .expected = invalid ? DocClass::Invalid : DocClass::Valid,
               .words = e.holds ? r.text : g.cc.combo.block->manual,
               .source = e.holds ? r.cite.source : r.ptx.source};
    OnTarget on = add(t->name, e.version, body, !invalid, targets.arch_for(t->name));
    plan.mutations.push_back({.of = home, .m = share(std::move(m)), .instruction = g.instruction, .on = on, .home = true});
  }

  // A document's example, as written: on the targets its instruction is documented for (every
  // target where its instruction is in no variant), at the toolkit's PTX ISA version, or, where it
  // is written as the documents spell older versions (no .aligned: "considered implicit in PTX ISA
  // versions less than 6.3"), at the newest of those versions on the first target that knows it.
  void example(const DocExample& ex) {
    ExampleSubject e{.example = &ex, .doc = DocClass::Undocumented, .instance = nullptr, .forbidden_by = {},
                     .blocks = {}, .on = {}, .too_new = false};
    classify_example(ex, e);
    e.version = plan.toolkit_ptx;
    if (e.spelling) e.version = specs.targets.previous(e.spelling->from).value_or(plan.toolkit_ptx);
    // A form newer than the toolkit's PTX ISA is not known to it: nothing to ask.
    e.too_new = e.instance && plan.toolkit_ptx < e.instance->min_ptx();
    if (!e.too_new && e.spelling) {
      if (const TargetInfo* t = targets.first(*e.instance, e.version, true))
        e.on.push_back(add(t->name, e.version, ex.body, true, targets.arch_for(t->name)));
    } else if (!e.too_new) {
      for (auto const& t : plan.targets)
        if (!e.instance || supports(specs.targets, *e.instance, *specs.targets.find(t)))
          e.on.push_back(add(t, plan.toolkit_ptx, ex.body, e.instance != nullptr));
    }
    plan.examples.push_back(std::move(e));
  }

  // What the grammar says of an example's first instruction: documented valid (a form of its
  // family with its mnemonic and qualifiers is), else invalid (one is forbidden), else undocumented;
  // and which instruction it is (example_instruction).
  void classify_example(const DocExample& ex, ExampleSubject& e) {
    const std::string mn = mnemonic_of(ex.instructions.front());
    for (auto const& g : plan.grammar) {
      const ClassifiedCombination& cc = g.cc;
      if (cc.combo.block->family != ex.family || mnemonic_of(cc.combo.text) != mn) continue;
      if (cc.doc == DocClass::Valid) {
        e.doc = DocClass::Valid;
        e.instance = cc.instance;
        e.forbidden_by.clear();
        break;
      }
      if (cc.doc == DocClass::Invalid && e.doc != DocClass::Valid) {
        e.doc = DocClass::Invalid;
        e.forbidden_by = cc.forbidden_by;
      }
    }
    example_instruction(mn, e);
  }

  // The example's instruction where no block spells it as written: the documented instance with the
  // same qualifiers in another order (the element types kept in their order), or with a qualifier
  // the documents leave out below a version (the example then written as those versions are); the
  // syntax blocks spelling it.
  void example_instruction(const std::string& mn, ExampleSubject& e) {
    if (!e.instance) {
      if (auto it = by_qualifiers().find(qualifier_key(mn)); it != by_qualifiers().end()) e.instance = it->second;
      for (auto const& rule : specs.version_spellings)
        if (!e.instance && spelling_applies_to(rule, mn))
          if (auto it = by_qualifiers().find(qualifier_key(mn + rule.qualifier)); it != by_qualifiers().end()) {
            e.instance = it->second;
            e.spelling = &rule;
          }
    }
    for (auto const& g : plan.grammar)
      if (e.instance && g.cc.instance == e.instance) {
        if (std::find(e.blocks.begin(), e.blocks.end(), g.cc.combo.block) == e.blocks.end())
          e.blocks.push_back(g.cc.combo.block);
        if (e.documented_text.empty()) e.documented_text = mnemonic_of(g.instruction);
      }
  }

  // The documented instances by qualifier_key (the 64-bit address one where both exist), made once.
  const std::map<std::string, const Instance*>& by_qualifiers() {
    if (qualifier_index.empty())
      for (auto const& [text, inst] : instances_by_text(suite_instances))
        qualifier_index.emplace(qualifier_key(mnemonic_of(text)), inst);
    return qualifier_index;
  }

  // A register count a document states: the first selected instance, with the stated count.
  void register_claim(const RegisterClaim& rc, const std::deque<Instance>& instances) {
    RegisterClaimSubject s{.claim = &rc, .instance = nullptr, .spec_registers = 0, .instruction = "", .on = {}};
    s.instance = claimed_instance(rc, instances);
    if (s.instance) {
      s.spec_registers = instance_registers(*s.instance, rc.operand);
      const OperandShape shape = claimed_shape(rc, *s.instance);
      s.instruction = probe_instruction(s.instance->text(), shape);
      const TargetInfo* t = targets.first(*s.instance, std::nullopt, false);
      if (t && !(plan.toolkit_ptx < s.instance->min_ptx()))  // a newer form is not known to the toolkit
        s.on = add(t->name, plan.toolkit_ptx, probe_body(s.instance->text(), shape), true);
    }
    plan.register_claims.push_back(std::move(s));
  }

  // A register minimum, per variant: its first form on its first target, one register below the
  // minimum and at it, each entry's limit a .maxnreg directive, compiled in full (the limit is code
  // generation's: a parse alone never meets it).
  void register_minimum(const RegisterMinimum& rm, const std::deque<Instance>& instances) {
    for (auto const& name : rm.variants) {
      RegisterMinimumSubject s{.minimum = &rm, .variant = name, .instruction = "", .below = {}, .at = {}};
      auto inst = std::find_if(instances.begin(), instances.end(), [&](const Instance& i) {
        return i.variant().name == name && (i.address_width() == 64 || i.address_width() == 0);
      });
      const TargetInfo* t = inst == instances.end() ? nullptr : targets.first(*inst, std::nullopt, false);
      if (t && !(plan.toolkit_ptx < inst->min_ptx())) {
        const OperandShape shape = instance_shape(*inst);
        s.instruction = probe_instruction(inst->text(), shape);
        s.below = add(t->name, plan.toolkit_ptx, probe_body(inst->text(), shape), false, t->name);
        plan.probes.back().directives = fmt::format(".maxnreg {}", rm.registers - 1);
        s.at = add(t->name, plan.toolkit_ptx, probe_body(inst->text(), shape), true, t->name);
        plan.probes.back().directives = fmt::format(".maxnreg {}", rm.registers);
      }
      plan.register_minimums.push_back(std::move(s));
    }
  }

  // Each target's first PTX ISA version, at it and one below.
  void target_versions() {
    for (auto const& t : specs.targets.targets) {
      TargetVersionSubject s{.target = &t, .at = std::nullopt, .below = std::nullopt, .below_version = {}};
      if (!(plan.toolkit_ptx < t.ptx)) {
        s.at = add(t.name, t.ptx, "", true, targets.arch_for(t.name));
        if (auto below = specs.targets.previous(t.ptx)) {
          s.below_version = *below;
          s.below = add(t.name, *below, "", false, targets.arch_for(t.name));
        }
      }
      plan.target_versions.push_back(s);
    }
  }

  // What targets.yaml's toolkits: table says this release speaks, checked against the binary.
  void toolkit_version() {
    if (auto listed = specs.targets.toolkits.find(plan.cuda_release);
        !plan.targets.empty() && listed != specs.targets.toolkits.end()) {
      ToolkitVersionSubject s{
          .documented = listed->second, .at = std::nullopt, .above = std::nullopt, .above_version = {}};
      s.above_version = PtxVersion{.major = s.documented.major, .minor = s.documented.minor + 1};
      s.at = add(plan.targets.back(), s.documented, "", true);
      s.above = add(plan.targets.back(), s.above_version, "", false);
      plan.toolkit_version = s;
    }
  }

  // The hand-listed forms, each on its target.
  void forms() {
    for (auto const& f : specs.forms) {
      FormSubject s{.form = &f, .instruction = probe_instruction(f.text, form_shape(f)), .on = std::nullopt};
      if (targets.known(f.target))
        s.on = add(f.target, f.ptx.value_or(plan.toolkit_ptx), probe_body(f.text, form_shape(f)), false);
      plan.forms.push_back(std::move(s));
    }
  }
};

// Each valid form's negative space, made on every processor (most of the plan's time); the plan
// adds them in the forms' order, so that it is the same whatever the threads.
std::vector<std::vector<Builder::AskedMutation>> negative_spaces(const Builder& b, const std::vector<std::size_t>& valid,
                                                                 const std::set<std::string>& texts32,
                                                                 const GrammarPools& pools, int threads) {
  std::vector<std::vector<Builder::AskedMutation>> asked(valid.size());
  std::atomic<std::size_t> next{0};
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  run_threads(threads, [&] {
    for (std::size_t j; (j = next++) < valid.size();)
      asked[j] = b.negative_space(valid[j], texts32, pools, parts_headed(b.plan.form_classes, valid[j]));
  });
  return asked;
}

}  // namespace

AuditPlan plan_audit(const Suite& suite, const Toolchain& tc, int threads) {
  const SpecSet& specs = suite.specs;
  const CatalogScope scope = catalog_scope(suite, tc);
  AuditPlan plan;
  plan.ptxas_version = tc.version;
  plan.cuda_release = tc.release;
  plan.toolkit_ptx = scope.toolkit_ptx;
  plan.toolkit_ptx_read_by = tc.ptx_isa_read_by;
  plan.targets = scope.targets;
  plan.ptxas_targets = tc.real_targets;
  const Targets targets{.cat = specs.targets, .real = scope.targets};
  Builder b{.plan = plan, .specs = specs, .targets = targets, .suite_instances = suite.instances};
  std::set<std::string> texts32;
  for (auto const& i : suite.instances)
    if (i.address_width() == 32) texts32.insert(i.text());

  b.grammar(instances_by_text(suite.instances));
  // Around each documented form: its negative space on its first target (the block's first
  // documented form, its representative, the wider one); its minimum PTX ISA version, at it and one below.
  const GrammarPools pools = grammar_pools(specs.grammar);
  std::set<const GrammarBlock*> represented;
  std::vector<std::size_t> representatives, valid;
  std::vector<const ClassifiedCombination*> forms;
  for (std::size_t k = 0; k < plan.grammar.size(); ++k) {
    forms.push_back(&plan.grammar[k].cc);
    if (plan.grammar[k].cc.doc == DocClass::Valid) valid.push_back(k);
  }
  plan.form_classes = form_classes(forms, valid);
  std::vector<std::vector<Builder::AskedMutation>> asked = negative_spaces(b, valid, texts32, pools, threads);
  for (std::size_t j = 0; j < valid.size(); ++j) {
    const std::size_t k = valid[j];
    const bool first = represented.insert(plan.grammar[k].cc.combo.block).second;
    if (first) representatives.push_back(k);
    b.mutations(k, std::move(asked[j]), first);
    b.version(k);
  }
  b.equivalences(texts32, pools);
  b.type_shape(representatives, pools);
  b.rule_version_edges(representatives);
  // Qualifier order as a space: each class of forms searched, a sample of its other forms checked.
  plan_qualifier_orders(plan);
  for (auto const& ex : specs.examples) b.example(ex);
  for (auto const& rc : specs.register_claims) b.register_claim(rc, suite.instances);
  // Each fragment table row's register type, and every other (judge/register_types.hpp).
  plan_register_types(
      plan,
      [&b, &plan](const std::string& t, std::string body, bool expected) {
        return b.add(t, plan.toolkit_ptx, std::move(body), expected);
      },
      [&targets](const Instance& i) {
        const TargetInfo* t = targets.first(i, std::nullopt, false);
        return t ? t->name : std::string();
      });
  for (auto const& rm : specs.register_minimums) b.register_minimum(rm, suite.instances);
  b.target_versions();
  b.toolkit_version();
  b.forms();
  return plan;
}

}  // namespace ptxcts
