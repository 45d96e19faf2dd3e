#include "output/install_output.h"

#include <fmt/format.h>

#include "install/plan/planner.h"

namespace rocmdoc {

const char* check_kind_name(StepCheck::Kind kind) {
  using K = StepCheck::Kind;
  switch (kind) {
    case K::always_todo: return "always_todo";
    case K::file_equals: return "file_equals";
    case K::packages_installed: return "packages_installed";
    case K::package_version: return "package_version";
    case K::key_fingerprint: return "key_fingerprint";
    case K::user_in_groups: return "user_in_groups";
    case K::command_succeeds: return "command_succeeds";
    case K::boot_changed: return "boot_changed";
    case K::path_exists: return "path_exists";
    case K::packages_absent: return "packages_absent";
    case K::free_space: return "free_space";
    case K::lock_free: return "lock_free";
    case K::apt_simulation: return "apt_simulation";
    case K::output_contains: return "output_contains";
    case K::file_has_line: return "file_has_line";
    case K::file_byte_equals: return "file_byte_equals";
    case K::path_absent: return "path_absent";
    case K::dpkg_settled: return "dpkg_settled";
  }
  return "?";
}

const char* action_kind_name(StepAction::Kind kind) {
  switch (kind) {
    case StepAction::Kind::run: return "run";
    case StepAction::Kind::write_file: return "write_file";
    case StepAction::Kind::download: return "download";
    case StepAction::Kind::dearmor_key: return "dearmor_key";
    case StepAction::Kind::reboot: return "reboot";
  }
  return "?";
}

namespace {

struct StepColours {
  bool color;
  std::string paint(const std::string& s, const char* code) const {
    return color ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  }
};

const char* state_mark(StepState s) {
  switch (s) {
    case StepState::done: return "✓";
    case StepState::todo: return "•";
    case StepState::unknown: return "?";
  }
  return "?";
}

// Continuation lines of a description (file contents) keep the indent.
std::string indented(const std::string& text, const std::string& indent) {
  std::string out;
  for (char c : text) out += c == '\n' ? "\n" + indent : std::string(1, c);
  return out;
}

std::string heading(const InstallPlan& plan) {
  bool own = plan.from == "distro";
  std::string s = "rocmdoc install: ROCm " + plan.rocm + " on " + (plan.distro_label.empty() ? plan.distro : plan.distro_label) +
                  (own ? " (the distribution's own packages" + (plan.codename.empty() ? "" : ": " + plan.codename) + ")"
                       : " (AMD repositories: " + plan.codename + ")");
  s += own ? ", no AMD driver (the kernel's amdgpu)" : plan.driver.empty() ? ", no driver installed (--no-driver, or an APU's inbox amdgpu)" : ", driver amdgpu " + plan.driver;
  s += plan.user.empty() ? ", for no user (not known: pass --user NAME)" : ", for " + plan.user;
  s += !plan.venv.empty()                ? ", PyTorch in " + plan.venv
       : !plan.torch_left_out.empty()      ? ", no PyTorch (" + plan.torch_left_out + ": see the notes)"
       : plan.user.empty()                 ? ", no PyTorch (no user to own its venv)"
                                           : ", no PyTorch (--no-torch)";
  return s + "\n";
}

void render_step(std::string& out, const PlanStep& step, size_t n, size_t total, const InstallTextOptions& o,
                 const StepColours& style) {
  std::string markers;
  if (step.needs_root) markers += " [root]";
  if (step.reboot_after) markers += " [reboot after]";
  if (!step.changes_machine()) markers += " [check only]";
  std::string mark = state_mark(step.state);
  if (step.state == StepState::done) mark = style.paint(mark, "32");
  if (step.state == StepState::unknown) mark = style.paint(mark, "33");
  std::string number = fmt::format("{}/{}", n, total);
  out += fmt::format("{:>5} {} {:<18} {}{}\n", number, mark, step.id, step.title, markers);
  std::string indent(8, ' ');
  if (!step.state_reason.empty()) out += indent + step.state_reason + "\n";
  if (step.state == StepState::done) return;
  if (!step.changes_machine()) {
    for (auto& c : step.checks) out += indent + "checks: " + indented(c.describe(), indent) + "\n";
  } else {
    for (auto& a : step.actions) out += indent + (o.dry_run ? "would " : "will ") + indented(a.describe(), indent) + "\n";
  }
  // The way on that a run stopping at this step gives (a reboot that booted
  // another kernel), shown beforehand too: the user reading the plan learns
  // it before the machine is down for the reboot.
  if (!step.if_still_not_done.empty())
    out += indent + "! if still not done: " + indented(step.if_still_not_done, indent + "  ") + "\n";
}

}  // namespace

std::string render_plan_text(const InstallPlan& plan, const InstallTextOptions& options) {
  StepColours style{options.color};
  std::string out = heading(plan);
  // What the distribution's packages give up, before the steps: it is the
  // choice the user makes by running them.
  if (!plan.gives_up.empty()) {
    out += "\nCompared with AMD's repository, this gives up:\n";
    for (auto& g : plan.gives_up) out += "  - " + g + "\n";
  }
  out += "\n";
  size_t done = 0, unknown = 0, changing = 0;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep& s = plan.steps[i];
    render_step(out, s, i + 1, plan.steps.size(), options, style);
    done += s.state == StepState::done;
    unknown += s.state == StepState::unknown;
    changing += s.state != StepState::done && s.changes_machine();
  }
  if (plan.blocked) {
    out += "\n" + style.paint("Will not run (" + plan.blocked->id + "):", "31") + " " + plan.blocked->reason + "\n";
    out += "  Instead: " + plan.blocked->instead + "\n";
  }
  if (!plan.notes.empty()) {
    out += "\nNotes:\n";
    for (auto& n : plan.notes) out += "  - " + n + "\n";
  }
  out += fmt::format("\n{} steps: {} done, {} to do, {} not known until it runs; {} of the steps not done change the machine.\n",
                     plan.steps.size(), done, plan.steps.size() - done - unknown, unknown, changing);
  // The same command carries it out: without --from it would be AMD's plan.
  if (options.dry_run && !plan.blocked)
    out += std::string("Dry run: nothing was changed. Run `sudo rocmdoc install ") + (plan.from == "distro" ? "--from distro " : "") +
           "--auto` to carry it out.\n";
  else if (options.dry_run) out += "Dry run: nothing was changed.\n";
  return out;
}

std::string render_refusal_text(const InstallRefusal& refusal) {
  std::string out = "rocmdoc install: will not install here (" + refusal.id + ").\n  Why: " + refusal.reason +
                    "\n  Instead: " + refusal.instead + "\n";
  // The further reasons, so that fixing the first does not only meet the next.
  for (auto& a : refusal.also) out += "\n  Also (" + a.id + "): " + a.reason + "\n  Instead: " + a.instead + "\n";
  return out;
}

namespace {

Json check_json(const StepCheck& c) {
  Json j = {{"kind", check_kind_name(c.kind)}, {"describe", c.describe()}};
  if (!c.path.empty()) j["path"] = c.path;
  if (c.kind == StepCheck::Kind::file_equals) j["content"] = c.content;
  if (c.mode) j["mode"] = fmt::format("{:04o}", c.mode);
  if (c.kind == StepCheck::Kind::file_byte_equals) j["offset"] = c.offset;
  if (!c.names.empty() || c.kind == StepCheck::Kind::apt_simulation) j["names"] = c.names;
  if (!c.value.empty()) j["value"] = c.value;
  if (!c.argv.empty()) j["argv"] = c.argv;
  if (c.as_user) j["as_user"] = true;
  return j;
}

Json action_json(const StepAction& a) {
  Json j = {{"kind", action_kind_name(a.kind)}, {"describe", a.describe()}};
  if (!a.argv.empty()) j["argv"] = a.argv;
  if (a.as_user) j["as_user"] = true;
  if (!a.path.empty()) j["path"] = a.path;
  if (!a.source.empty()) j["source"] = a.source;
  if (a.kind == StepAction::Kind::write_file) j["content"] = a.content;
  if (a.kind == StepAction::Kind::write_file || a.kind == StepAction::Kind::dearmor_key) j["mode"] = fmt::format("{:04o}", a.mode);
  if (!a.url.empty()) j["url"] = a.url;
  if (!a.fingerprint.empty()) j["fingerprint"] = a.fingerprint;
  return j;
}

}  // namespace

Json render_plan_json(const InstallPlan& plan) {
  Json steps = Json::array();
  Json summary = {{"steps", plan.steps.size()}, {"done", 0}, {"todo", 0}, {"unknown", 0}};
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep& s = plan.steps[i];
    Json checks = Json::array(), actions = Json::array();
    for (auto& c : s.checks) checks.push_back(check_json(c));
    for (auto& a : s.actions) actions.push_back(action_json(a));
    Json step = {{"number", i + 1},
                 {"id", s.id},
                 {"title", s.title},
                 {"state", step_state_name(s.state)},
                 {"state_reason", s.state_reason},
                 {"needs_root", s.needs_root},
                 {"reboot_after", s.reboot_after},
                 {"changes_machine", s.changes_machine()},
                 {"checks", checks},
                 {"actions", actions}};
    // Present only on a step that has a way on for when it is still not done.
    if (!s.if_still_not_done.empty()) step["if_still_not_done"] = s.if_still_not_done;
    steps.push_back(step);
    summary[step_state_name(s.state)] = summary[step_state_name(s.state)].get<int>() + 1;
  }
  Json p = {{"from", plan.from},
            {"distro", plan.distro},
            {"codename", plan.codename},
            {"rocm", plan.rocm},
            {"driver", plan.driver.empty() ? Json(nullptr) : Json(plan.driver)},
            {"user", plan.user.empty() ? Json(nullptr) : Json(plan.user)},
            {"venv", plan.venv.empty() ? Json(nullptr) : Json(plan.venv)},
            {"plan_key", plan_key(plan)}};
  Json out = {{"schema", kInstallJsonSchema}, {"kind", "plan"}, {"plan", p}, {"steps", steps}, {"notes", plan.notes}, {"summary", summary}};
  if (!plan.gives_up.empty()) out["gives_up"] = plan.gives_up;
  // Present only when the plan cannot run as it stands (an unconfirmed key).
  if (plan.blocked) out["blocked"] = {{"id", plan.blocked->id}, {"reason", plan.blocked->reason}, {"instead", plan.blocked->instead}};
  return out;
}

Json render_refusal_json(const InstallRefusal& refusal) {
  Json also = Json::array();
  for (auto& a : refusal.also) also.push_back({{"id", a.id}, {"reason", a.reason}, {"instead", a.instead}});
  return {{"schema", kInstallJsonSchema},
          {"kind", "refusal"},
          {"refusal", {{"id", refusal.id}, {"reason", refusal.reason}, {"instead", refusal.instead}, {"also", also}}}};
}

}  // namespace rocmdoc
