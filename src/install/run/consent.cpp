#include <string>

#include "install/run/run.h"
#include "base/text.h"

namespace rocmdoc {

std::string describe_changes(const PlanStep& step) {
  std::string out;
  for (auto& action : step.actions) out += "  - " + action.describe() + "\n";
  return out;
}

bool TerminalConsent::ask(const PlanStep& step) {
  out_ << "\n" << step.title << (step.needs_root ? " (as root)" : "") << "\n"
       << describe_changes(step) << (step.reboot_after ? "  (a reboot follows)\n" : "") << "Go ahead? [y/N] ";
  out_.flush();
  std::string answer;
  if (!std::getline(in_, answer)) {
    out_ << "\n";
    return false;  // end of input: no answer is no
  }
  std::string a = to_lower(trim(answer));
  return a == "y" || a == "yes";
}

std::unique_ptr<Consent> choose_consent(bool yes, bool stdin_is_terminal, std::istream& in, std::ostream& out) {
  if (yes) return std::make_unique<YesConsent>();
  if (stdin_is_terminal) return std::make_unique<TerminalConsent>(in, out);
  return std::make_unique<NoTerminalConsent>();
}

}  // namespace rocmdoc
