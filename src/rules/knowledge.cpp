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
  // A --rules directory replaces the built-in matrix as well: without one
  // every matrix query would fail later, in the middle of a check.
  std::vector<RuleFile> matrix_files = files_under(files, "matrix");
  if (!sources.rules_dir.empty() && matrix_files.empty())
    k.errors.push_back({{sources.rules_dir, 0, 0},
                        "no matrix: a rules directory holds matrix/*.yaml beside catalogue/ (copy rules/matrix; "
                        "docs/rules.md)"});
  if (!sources.rules_dir.empty() && sources.catalogue && files_under(files, "catalogue").empty())
    k.errors.push_back({{sources.rules_dir, 0, 0},
                        "no catalogue: a rules directory holds catalogue/*.yaml beside matrix/ (docs/rules.md)"});
  k.matrix = std::make_unique<Matrix>(Matrix::load(matrix_files, k.errors));
  k.functions = builtin_functions();
  k.matrix->add_functions(k.functions);
  Vocabulary vocabulary;
  vocabulary.functions = &k.functions;
  vocabulary.is_fact = is_fact_path;
  // Every file under rules.d/ extends the one catalogue (a problem of the
  // same id replaces the built-in one).
  if (!sources.catalogue) return k;
  LoadOptions options;
  options.compile_patterns = sources.compile_patterns;
  options.compile_built_in_patterns = sources.compile_built_in_patterns;
  options.keep_examples = sources.examples;
  k.catalogue = load_rule_set(files_under(files, "catalogue"), local, vocabulary, options);
  for (auto& e : k.catalogue.errors) k.errors.push_back(e);
  k.kernel_log = std::make_unique<KernelLogSignatures>(k.catalogue.signatures);
  if (!k.kernel_log->error().empty()) {
    // Where the pattern is written, as the loader reports one that does not compile.
    std::string id = k.kernel_log->error().substr(0, k.kernel_log->error().find(':'));
    SourceLocation where{"rules/catalogue", 0, 0};
    for (auto& s : k.catalogue.signatures)
      if (s.id == id) where = s.where;
    k.errors.push_back({where, "a kernel-log signature does not compile: " + k.kernel_log->error()});
  }
  return k;
}

void derive_facts(Json& facts, const Knowledge& knowledge, const std::optional<std::string>& rocm) {
  add_derived_facts(facts, *knowledge.matrix, rocm);
  if (knowledge.kernel_log) knowledge.kernel_log->add_facts(facts);
}

CheckReport run_check(Json facts, const Knowledge& knowledge, const std::optional<std::string>& rocm) {
  CheckReport report;
  derive_facts(facts, knowledge, rocm);
  report.outcomes = run_rules(knowledge.catalogue, facts, knowledge.functions);
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
