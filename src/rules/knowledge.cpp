#include "rules/knowledge.h"

#include <filesystem>

#include "rules/derived_facts.h"
#include "facts/facts_schema.h"
#include "rules/rule_engine.h"

namespace rocmdoc {

Knowledge load_knowledge(const RuleSources& sources) {
  Knowledge k;
  std::vector<RuleFile> files;
  if (sources.rules_dir.empty()) {
    files = embedded_rule_files();
  } else {
    auto read = read_rule_files(sources.rules_dir);
    if (!read) {
      k.errors.push_back({{sources.rules_dir, 0, 0}, read.error()});
      return k;
    }
    files = *read;
  }
  std::vector<RuleFile> local;
  std::error_code ec;
  if (!sources.local_rules_dir.empty() && std::filesystem::is_directory(sources.local_rules_dir, ec)) {
    auto read = read_rule_files(sources.local_rules_dir);
    if (!read) k.errors.push_back({{sources.local_rules_dir, 0, 0}, read.error()});
    else local = *read;
  }
  k.matrix = std::make_unique<Matrix>(Matrix::load(files_under(files, "matrix"), k.errors));
  k.functions = builtin_functions();
  k.matrix->add_functions(k.functions);
  Vocabulary vocabulary;
  vocabulary.functions = &k.functions;
  vocabulary.is_fact = is_fact_path;
  // Local files under rules.d/errors/ extend explain; the others extend check.
  std::vector<RuleFile> local_errors = files_under(local, "errors"), local_checks;
  for (auto& f : local)
    if (f.name.find("/errors/") == std::string::npos) local_checks.push_back(f);
  if (sources.checks) {
    k.rules = load_rule_set(files_under(files, "checks"), local_checks, vocabulary);
    for (auto& e : k.rules.errors) k.errors.push_back(e);
  }
  if (sources.errors) {
    k.error_rules = load_error_rule_set(files_under(files, "errors"), local_errors, vocabulary);
    for (auto& e : k.error_rules.errors) k.errors.push_back(e);
  }
  return k;
}

CheckReport run_check(Json facts, const Knowledge& knowledge, const std::optional<std::string>& rocm) {
  CheckReport report;
  add_derived_facts(facts, *knowledge.matrix, rocm);
  report.outcomes = run_rules(knowledge.rules, facts, knowledge.functions);
  report.facts = std::move(facts);
  for (auto& o : report.outcomes) {
    if (o.verdict == Verdict::unknown) ++report.unknowns;
    for (auto& f : o.findings) {
      (void)f;
      switch (o.rule->severity) {
        case Severity::error: ++report.errors; break;
        case Severity::warning: ++report.warnings; break;
        case Severity::info: ++report.infos; break;
      }
    }
  }
  return report;
}

}  // namespace rocmdoc
