#include <fmt/format.h>

#include <algorithm>

#include "output/text_report.h"
#include "base/json_text.h"
#include "base/text.h"
#include "rules/expression.h"

namespace rocmdoc {

namespace {

struct Style {
  bool color;
  std::string wrap(const char* code, const std::string& s) const {
    return color ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  }
  std::string red(const std::string& s) const { return wrap("31", s); }
  std::string yellow(const std::string& s) const { return wrap("33", s); }
  std::string green(const std::string& s) const { return wrap("32", s); }
  std::string dim(const std::string& s) const { return wrap("2", s); }
  std::string bold(const std::string& s) const { return wrap("1", s); }
};

const char* mark(Severity s) { return s == Severity::error ? "✗" : s == Severity::warning ? "!" : "•"; }

std::string str_or(const Json& j, const char* key, const std::string& fallback) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : fallback;
}

std::string area_summary(const std::string& area, const Json& facts) {
  if (area == "system") {
    std::string distro = str_or(field(facts, "distro"), "pretty_name", "unknown distribution");
    std::string kernel = str_or(field(facts, "kernel"), "release", "unknown kernel");
    std::string arch = str_or(field(facts, "host"), "arch", "unknown architecture");
    const Json& p = field(facts, "platform");
    std::string platform = str_or(p, "kind", "unknown platform");
    // Which container or hypervisor, and whether the container's root is
    // the host's: what works there (device pass-through, group ids, the
    // host's settings) depends on it, and the facts have it.
    std::string detail;
    if (platform == "container") {
      detail = str_or(p, "container_runtime", "");
      const Json& privileged = field(p, "container_privileged");
      if (privileged.is_boolean())
        detail += std::string(detail.empty() ? "" : ", ") + (privileged.get<bool>() ? "privileged" : "unprivileged");
    } else if (platform == "vm") {
      detail = str_or(p, "hypervisor", "");
    }
    if (!detail.empty()) platform += " (" + detail + ")";
    return fmt::format("{}, kernel {}, {}, {}", distro, kernel, arch, platform);
  }
  if (area == "gpu") {
    const Json& gpus = field(facts, "gpus");
    if (!gpus.is_array()) return "GPUs unknown";
    if (gpus.empty()) return "no AMD GPU";
    std::string out;
    for (auto& g : gpus) {
      std::string name = str_or(g, "name", str_or(g, "device_id", "?"));
      // Where AMD's sources disagree on the device's target and the kernel
      // does not answer, name the candidates rather than one of them.
      std::string gfx = str_or(g, "gfx", "");
      const Json& disputed = field(g, "gfx_disputed");
      if (gfx.empty() && disputed.is_array() && !disputed.empty()) {
        gfx = "gfx unconfirmed: ";
        for (size_t i = 0; i < disputed.size(); ++i)
          gfx += (i == 0 ? "" : " or ") + (disputed[i].is_string() ? disputed[i].get<std::string>() : std::string("?"));
      }
      // A target read from the matrix by device id, not from the driver, says
      // so: the matrix's mapping is as good as its sources.
      if (!gfx.empty() && str_or(g, "gfx_source", "") == "matrix") gfx += ", by its device id: the driver reported none";
      out += (out.empty() ? "" : "; ") + name + " (" + (gfx.empty() ? std::string("gfx unknown") : gfx) + ")";
    }
    return out;
  }
  if (area == "rocm") {
    const Json& t = field(facts, "target");
    std::string target = str_or(t, "rocm", "");
    // The distribution's own ROCm is what the user has where AMD's is not
    // installed: the line names it first, so a check "against ROCm 10.1.0"
    // is not read as being about it.
    std::string own = distribution_rocm(facts);
    std::string head = own.empty() ? "" : own + "; ";
    if (!target.empty()) {
      std::string chosen_by = str_or(t, "chosen_by", "");
      std::string out = head + "checked against " + (own.empty() ? "" : "AMD's ") + "ROCm " + target +
                        (chosen_by == "--rocm" ? " (--rocm)" : chosen_by == "installed" ? " (installed)" : "");
      // Where the data comes from is one short phrase here; -v gives the
      // sentence (provenance_lines), so the area stays one line.
      if (field(t, "in_matrix") == false) out += "; release not in the matrix";
      else if (!str_or(t, "unconfirmed", "").empty()) out += "; data unconfirmed";
      return out;
    }
    return head + "no target release: " +
           (is_unknown(field(t, "rocm")) ? unknown_reason(field(t, "rocm")) : std::string("unknown"));
  }
  return "";
}

// The sentences behind the ROCm line's "release not in the matrix" or
// "data unconfirmed" (-v).
std::vector<std::string> provenance_lines(const Json& facts) {
  const Json& t = field(facts, "target");
  std::string target = str_or(t, "rocm", "");
  if (target.empty()) return {};
  std::vector<std::string> out;
  // A release the matrix does not know: its checks are unknown, and -v
  // says why rather than leaving a row of "?" unexplained.
  if (field(t, "in_matrix") == false)
    out.push_back("rocmdoc's matrix (as of " + str_or(t, "matrix_as_of", "?") + ") does not know ROCm " + target +
                  ", so the checks that need its lists could not run");
  std::string unconfirmed = str_or(t, "unconfirmed", "");
  if (!unconfirmed.empty()) out.push_back("the matrix marks ROCm " + target + " unconfirmed: " + unconfirmed);
  return out;
}

// The derived gpus section is a list, and empty: nothing AMD to check, so
// the areas about the GPU's driver, access, firmware, ROCm and PyTorch have
// nothing to pass.
bool no_amd_gpu(const Json& facts) {
  const Json& gpus = field(facts, "gpus");
  return gpus.is_array() && gpus.empty();
}
bool about_the_gpu(const std::string& area) { return area != "system" && area != "gpu"; }

// A fact as text: its value, or "?" with nothing else (the reason is in
// `rocmdoc facts`; here it would drown the line).
std::string shown(const Json& j, const char* unit = "") {
  if (j.is_number_integer()) return std::to_string(j.get<int64_t>()) + unit;
  if (j.is_string()) return j.get<std::string>() + unit;
  return "?";
}

// check -v: what limits each AMD GPU's speed (the power section), one line
// per GPU under the GPU area.
std::string power_lines(const Json& facts, const Style& st) {
  std::string out;
  for (auto& g : field(field(facts, "power"), "gpus")) {
    const Json& hwmon = field(g, "hwmon");
    std::string line = is_unknown(hwmon) ? "cap and temperatures unknown (" + unknown_reason(hwmon) + ")"
                                         : "cap " + shown(field(g, "power_cap_w"), " W") + " (default " +
                                               shown(field(g, "power_cap_default_w"), " W") + ", max " +
                                               shown(field(g, "power_cap_max_w"), " W") + ")";
    line += ", sclk " + shown(field(g, "sclk_mhz"), " MHz") + ", mclk " + shown(field(g, "mclk_mhz"), " MHz");
    const Json& temps = field(g, "temperatures");
    if (temps.is_array())
      for (auto& t : temps)
        line += ", " + shown(field(t, "sensor")) + " " + shown(field(t, "celsius"), " °C") + " (crit " +
                shown(field(t, "crit_celsius"), " °C") + ")";
    const Json& throttle = field(g, "throttle");
    const Json& active = field(throttle, "active");
    if (!active.is_array()) line += ", throttle status unknown";
    else if (active.empty()) line += ", not throttling";
    else line += ", throttling: " + json_text(active);
    // Why the sensors may read nothing: an idle GPU asleep reads none.
    if (field(g, "runtime_status").is_string()) line += ", runtime power " + field(g, "runtime_status").get<std::string>();
    out += st.dim(fmt::format("    power {}: {}\n", shown(field(g, "address")), line));
  }
  return out;
}

// A finding from this boot's kernel log shows its first matched line even
// without -v: the line is what the user searches for and reports. Only the
// signatures the rule's condition names, its macros' too (its evidence is
// the whole list).
std::string kernel_log_lines(const RuleOutcome& o, const Finding& f, const Style& st) {
  std::string out;
  const Json& signatures = field(f.evidence, "kernel_log.signatures");
  if (!signatures.is_array() || !o.rule->when) return out;
  std::vector<std::string> named = referenced_texts(*o.rule->when);
  for (auto& sig : signatures) {
    const Json& id = field(sig, "id");
    const Json& lines = field(sig, "lines");
    if (!id.is_string() || !lines.is_array() || lines.empty() || !lines[0].is_string()) continue;
    if (std::find(named.begin(), named.end(), id.get<std::string>()) == named.end()) continue;
    const Json& count = field(sig, "count");
    long more = count.is_number_integer() ? count.get<long>() - 1 : 0;
    out += st.dim(fmt::format("      log: {}{}\n", lines[0].get<std::string>(),
                              more > 0 ? fmt::format(" (and {} more like it; -v shows more)", more) : ""));
  }
  return out;
}

// The why and the verify command name the place too (the text shows
// neither per place), so the fix steps alone decide.
void finding_lines(std::string& out, const RuleOutcome& o, const Finding& f, const TextOptions& options,
                   const Style& st) {
  out += fmt::format("    {} {} {}{}\n", mark(o.rule->severity), st.bold(o.rule->id + ":"), f.title,
                     o.rule->local_override ? st.dim(" (local rule, " + o.rule->where.str() + ")") : "");
  for (auto& place : f.also) out += fmt::format("      also: {}\n", place.title);
  out += fmt::format("      why: {}\n", f.why);
  for (auto& step : f.steps) {
    out += fmt::format("      fix: {}\n", step.text);
    if (!step.argv.empty()) out += fmt::format("           $ {}\n", shell_words(step.argv, step.sudo));
  }
  std::vector<std::string> needs;
  if (o.rule->fix.relogin) needs.push_back("log out and in again");
  if (o.rule->fix.reboot) needs.push_back("reboot");
  if (!needs.empty()) out += fmt::format("      then: {}\n", fmt::join(needs, ", then "));
  if (!options.verbose) {
    out += kernel_log_lines(o, f, st);
    return;
  }
  if (f.also.empty()) {
    for (auto& [path, value] : f.evidence.items())
      out += st.dim(fmt::format("      evidence: {} = {}\n", path, json_text(value)));
    return;
  }
  // Several places: each one's evidence under its title, since `it` is
  // another device node in each.
  auto place_lines = [&](const std::string& title, const Json& evidence) {
    out += st.dim(fmt::format("      evidence for \"{}\":\n", title));
    for (auto& [path, value] : evidence.items()) out += st.dim(fmt::format("        {} = {}\n", path, json_text(value)));
  };
  place_lines(f.title, f.evidence);
  for (auto& place : f.also) place_lines(place.title, place.evidence);
}

std::string workload_lines(const WorkloadReport& w, const Style& st) {
  if (!w.ran) return fmt::format("[{}] {} — not run: {}\n", st.yellow("?"), st.bold("Workloads"), w.reason);
  size_t failed = w.failed();
  std::string out = fmt::format("[{}] {} — {} run as {}{}\n", failed ? st.red("✗") : st.green("✓"), st.bold("Workloads"),
                                w.workloads.size(), w.run_as, failed ? fmt::format(", {} failed", failed) : "");
  for (auto& item : w.workloads) {
    out += fmt::format("    {} {}: {}\n", item.ok ? st.green("✓") : st.red("✗"), item.name, item.summary);
    if (item.ok) continue;
    if (item.cause)
      out += fmt::format("      cause: {} {} ({} confidence, {})\n", st.bold(item.cause->id + ":"), item.cause->title,
                         item.cause->confidence, item.cause->verdict);
    else
      out += "      cause: explain knows no cause that fits this text and machine\n";
  }
  if (failed) out += st.dim("      `rocmdoc explain` on a failure's text shows every candidate and its fix\n");
  for (auto& n : w.not_run) out += st.dim(fmt::format("    – not run: {}\n", n));
  return out;
}

}  // namespace

std::string distribution_rocm(const Json& facts) {
  // Only where no AMD release is installed: next to AMD's, the distribution's
  // packages are the conflict distro-rocm-packages-mixed-with-amd reports.
  if (field(field(facts, "target"), "installed").is_string()) return "";
  std::string release = str_or(field(field(facts, "rocm"), "distro_release"), "release", "");
  if (release.empty()) return "";
  return "the distribution's ROCm " + release + " installed (AMD's lists do not cover it)";
}

size_t WorkloadReport::failed() const {
  size_t n = 0;
  for (auto& w : workloads) n += !w.ok;
  return n;
}

std::string render_text_report(const CheckReport& report, const TextOptions& options, const WorkloadReport* workloads) {
  Style st{options.color};
  std::string out;
  bool nothing_amd = no_amd_gpu(report.facts);
  for (auto& [area, label] : rule_areas()) {
    std::vector<const RuleOutcome*> fired, unknown, passed;
    Severity worst = Severity::info;
    for (auto& o : report.outcomes) {
      if (o.rule->area != area) continue;
      if (o.verdict == Verdict::fired) {
        fired.push_back(&o);
        if (o.rule->severity < worst) worst = o.rule->severity;
      } else if (o.verdict == Verdict::unknown) unknown.push_back(&o);
      else if (o.verdict == Verdict::passed) passed.push_back(&o);
    }
    bool problem = !fired.empty() && worst != Severity::info;
    // -q: the areas with a problem, and in them only the problems.
    if (options.quiet && !problem) continue;
    bool not_applicable = !problem && nothing_amd && about_the_gpu(area);
    std::string m = problem ? (worst == Severity::error ? st.red("✗") : st.yellow("!"))
                    : not_applicable ? st.dim("–")
                    : !unknown.empty() ? st.yellow("?") : st.green("✓");
    std::string summary = not_applicable ? "not applicable: no AMD GPU" : area_summary(area, report.facts);
    if (area == "rocm" && !options.verbose && !summary.empty() && !provenance_lines(report.facts).empty())
      summary += "; -v says why";
    std::string counts;
    if (!unknown.empty()) counts = fmt::format("{} could not be checked", unknown.size());
    out += fmt::format("[{}] {}{}{}\n", m, st.bold(label), summary.empty() ? "" : " — " + summary,
                       counts.empty() ? "" : st.dim(" (" + counts + ")"));
    if (options.verbose && area == "gpu") out += power_lines(report.facts, st);
    if (options.verbose && area == "rocm")
      for (auto& line : provenance_lines(report.facts)) out += st.dim("    data: " + line + "\n");
    for (auto* o : fired) {
      if (options.quiet && o->rule->severity == Severity::info) continue;
      for (auto& f : o->findings) finding_lines(out, *o, f, options, st);
    }
    if (options.verbose) {
      for (auto* o : unknown) out += st.dim(fmt::format("    ? {}: not checked: {}\n", o->rule->id, o->reason));
      for (auto* o : passed) out += st.dim(fmt::format("    ✓ {}\n", o->rule->id));
      for (auto& o : report.outcomes)
        if (o.rule->area == area && o.verdict == Verdict::not_applicable)
          out += st.dim(fmt::format("    – {}: not applicable ({})\n", o.rule->id, o.reason));
    }
  }
  size_t failed = workloads ? workloads->failed() : 0;
  if (workloads && (!options.quiet || failed)) out += workload_lines(*workloads, st);
  std::string target = str_or(field(report.facts, "target"), "rocm", "");
  std::string failed_text = fmt::format("{} workload{} failed", failed, failed == 1 ? "" : "s");
  if (!out.empty()) out += "\n";
  size_t problems = report.errors + report.warnings;
  if (!report.has_problems() && !failed)
    out += fmt::format("{} No problems found", st.green("•"));
  else if (!report.has_problems())
    out += fmt::format("{} {}", st.red("•"), failed_text);
  else
    out += fmt::format("{} {} problem{} ({} error{}, {} warning{}){}", st.red("•"), problems, problems == 1 ? "" : "s",
                       report.errors, report.errors == 1 ? "" : "s", report.warnings, report.warnings == 1 ? "" : "s",
                       failed ? "; " + failed_text : "");
  if (report.unknowns) out += fmt::format("; {} check{} could not run", report.unknowns, report.unknowns == 1 ? "" : "s");
  if (!target.empty()) out += fmt::format("; target ROCm {}", target);
  out += fmt::format(" (matrix as of {}).", str_or(field(report.facts, "target"), "matrix_as_of", "?"));
  if (!options.verbose && (report.unknowns || report.has_problems() || failed))
    out += " `rocmdoc check -v` shows everything.";
  out += "\n";
  return out;
}

Json render_json_report(const CheckReport& report, const WorkloadReport* workloads) {
  Json j = Json::object();
  j["schema"] = kCheckJsonSchema;
  size_t failed = workloads ? workloads->failed() : 0;
  j["summary"] = {{"errors", report.errors}, {"warnings", report.warnings}, {"infos", report.infos},
                  {"not_checked", report.unknowns}, {"problems", report.has_problems() || failed > 0}};
  if (workloads) j["summary"]["workloads_failed"] = failed;
  j["target"] = field(report.facts, "target");
  Json findings = Json::array(), not_checked = Json::array(), passed = Json::array();
  for (auto& o : report.outcomes) {
    if (o.verdict == Verdict::unknown) not_checked.push_back({{"id", o.rule->id}, {"area", o.rule->area}, {"reason", o.reason}});
    if (o.verdict == Verdict::passed) passed.push_back(o.rule->id);
    for (auto& f : o.findings) {
      Json steps = Json::array();
      for (auto& s : f.steps) steps.push_back({{"text", s.text}, {"argv", s.argv}, {"sudo", s.sudo}});
      Json also = Json::array();
      for (auto& place : f.also) also.push_back({{"title", place.title}, {"evidence", place.evidence}});
      findings.push_back({{"id", o.rule->id},
                          {"severity", severity_name(o.rule->severity)},
                          {"area", o.rule->area},
                          {"title", f.title},
                          {"why", f.why},
                          {"fix", {{"steps", steps}, {"reboot", o.rule->fix.reboot}, {"relogin", o.rule->fix.relogin},
                                   {"verify", f.verify}}},
                          {"evidence", f.evidence},
                          {"also", also},
                          {"sources", o.rule->sources},
                          {"rule_file", o.rule->where.str()},
                          {"local_override", o.rule->local_override}});
    }
  }
  j["findings"] = findings;
  j["not_checked"] = not_checked;
  j["passed"] = passed;
  if (workloads) {
    Json items = Json::array();
    for (auto& w : workloads->workloads) {
      Json item = {{"kind", w.kind}, {"name", w.name}, {"ok", w.ok}, {"summary", w.summary}};
      if (!w.ok) item["failure"] = w.failure;
      if (!w.ok) item["cause"] = w.cause ? Json({{"id", w.cause->id}, {"title", w.cause->title},
                                                 {"confidence", w.cause->confidence}, {"verdict", w.cause->verdict}})
                                         : Json(nullptr);
      items.push_back(std::move(item));
    }
    j["workloads"] = {{"ran", workloads->ran}, {"reason", workloads->ran ? Json(nullptr) : Json(workloads->reason)},
                      {"run_as", workloads->ran ? Json(workloads->run_as) : Json(nullptr)}, {"items", items},
                      {"not_run", workloads->not_run}};
  }
  j["facts"] = report.facts;
  return j;
}

}  // namespace rocmdoc
