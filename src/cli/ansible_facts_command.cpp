// `rocmdoc facts --format ansible`: the check's verdict and the few facts a
// playbook branches on, for /etc/ansible/facts.d (docs/fleet.md, Ansible).
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "facts/facts_document.h"
#include "output/ansible_facts.h"
#include "rules/knowledge.h"

namespace rocmdoc {

int run_ansible_facts_command(const MachineOptions& options, const std::string& output_file, std::ostream& out,
                              std::ostream& err) {
  Knowledge knowledge = load_knowledge({});
  if (!knowledge.errors.empty()) {
    print_load_errors(knowledge.errors, err);
    return kExitUsage;
  }
  auto loaded = machine_facts(options, "");
  if (!loaded) {
    err << "rocmdoc: " << loaded.error() << "\n";
    return kExitUsage;
  }
  CheckReport report = run_check(std::move(loaded.value().facts), knowledge, std::nullopt);
  // Compact: Ansible parses it on every fact gathering, and nobody reads it raw.
  std::string text = facts_to_string(render_ansible_facts(report), -1) + "\n";
  return emit_document(text, output_file, out, err);
}

}  // namespace rocmdoc
