#include "cli/workloads.h"

#include <fmt/format.h>

#include "base/text.h"
#include "explain/explanation.h"

namespace rocmdoc {

namespace {

std::string str(const Json& j) { return j.is_string() ? j.get<std::string>() : ""; }

std::string first_line(const std::string& text) {
  for (auto& line : split_lines(text))
    if (!trim(line).empty()) return trim(line);
  return "";
}

std::string device_label(const Json& d) {
  std::string name = str(field(d, "name")), arch = str(field(d, "arch"));
  std::string label = "device " + (field(d, "index").is_number_integer() ? field(d, "index").dump() : std::string("?"));
  if (!name.empty() || !arch.empty()) label += " (" + name + (name.empty() || arch.empty() ? "" : ", ") + arch + ")";
  return label;
}

Workload torch_workload(const Json& t) {
  Workload w;
  w.kind = "torch";
  w.name = str(field(t, "interpreter"));
  w.ok = field(t, "ok") == true;
  std::string version = str(field(t, "version"));
  std::string hip = str(field(t, "hip"));
  std::string build = "torch " + (version.empty() ? "?" : version) + (hip.empty() ? "" : ", HIP " + hip);
  const Json& devices = field(t, "devices");
  if (w.ok) {
    std::vector<std::string> names;
    for (auto& d : devices) names.push_back(device_label(d));
    w.summary = fmt::format("{}: a tensor op ran on {} GPU{}: {}", build, names.size(), names.size() == 1 ? "" : "s",
                            fmt::join(names, "; "));
    return w;
  }
  // The failure's text, as a user would paste it: the exception first, then
  // each device's, then the words for what torch said, then stderr.
  std::vector<std::string> text;
  std::string error = str(field(t, "error"));
  if (!error.empty()) text.push_back(error);
  std::string device_failure;
  if (devices.is_array())
    for (auto& d : devices)
      if (field(d, "op_ok") != true) {
        std::string e = str(field(d, "error"));
        text.push_back(device_label(d) + ": " + (e.empty() ? "the tensor op failed" : e));
        if (device_failure.empty()) device_failure = device_label(d) + ": " + first_line(e.empty() ? "the tensor op failed" : e);
      }
  bool imported = field(t, "imported") == true;
  if (imported && field(t, "is_available") == false) text.push_back("torch.cuda.is_available() is False");
  if (imported && field(t, "device_count") == 0) text.push_back("torch.cuda.device_count() is 0");
  if (imported && field(t, "hip").is_null()) text.push_back("torch " + version + " is not a ROCm build: torch.version.hip is None");
  std::string err = str(field(t, "stderr"));
  if (!err.empty()) text.push_back(err);
  for (auto& line : text) w.failure += line + (ends_with(line, "\n") ? "" : "\n");

  if (!imported && !error.empty()) w.summary = first_line(error);
  else if (imported && field(t, "is_available") == false)
    w.summary = build + ": torch.cuda.is_available() is False";
  else if (!device_failure.empty()) w.summary = build + ": " + device_failure;
  else if (imported && field(t, "device_count") == 0) w.summary = build + ": no GPU (device_count() is 0)";
  else w.summary = first_line(error.empty() ? w.failure : error);
  if (w.summary.empty()) w.summary = "failed";
  return w;
}

Workload tool_workload(const Json& t) {
  Workload w;
  w.kind = "tool";
  w.name = str(field(t, "name"));
  w.ok = field(t, "ok") == true;
  if (w.ok) {
    w.summary = "ran (exit 0)";
    return w;
  }
  std::string error = str(field(t, "error"));
  w.summary = first_line(error);
  if (w.summary.empty()) w.summary = "failed";
  for (const char* k : {"error", "stdout", "stderr"}) {
    std::string part = str(field(t, k));
    if (!part.empty()) w.failure += part + (ends_with(part, "\n") ? "" : "\n");
  }
  return w;
}

// The text through explain's scanner, ranked on the machine's facts: the
// best cause when the facts leave it open and it is not harmless noise.
std::optional<WorkloadCause> top_cause(const std::string& text, const Json& facts, const Knowledge& knowledge) {
  if (text.empty()) return std::nullopt;
  LogScanner scanner(knowledge.catalogue.signatures, knowledge.catalogue.origins);
  if (!scanner.error().empty()) return std::nullopt;
  scanner.feed(text);
  scanner.finish();
  Explanation e = explain(scanner.result(), facts, knowledge);
  if (!e.real_problem()) return std::nullopt;
  const ExplainedCause& c = e.causes.front();
  return WorkloadCause{c.cause->rule.id, c.finding.title, c.confidence, cause_verdict_name(c.verdict)};
}

}  // namespace

WorkloadReport judge_workloads(const Json& facts, const Knowledge& knowledge) {
  WorkloadReport report;
  const Json& deep = field(facts, "deep");
  if (!deep.is_object() || is_unknown(deep)) {
    report.reason = is_unknown(deep) ? unknown_reason(deep) : "the facts hold no deep section";
    return report;
  }
  report.ran = true;
  report.run_as = str(field(deep, "run_as"));
  const Json& torch = field(deep, "torch");
  if (is_unknown(torch)) report.not_run.push_back("torch: " + unknown_reason(torch));
  else if (torch.is_array())
    for (auto& t : torch)
      if (t.is_object()) report.workloads.push_back(torch_workload(t));
  if (field(deep, "tools").is_array())
    for (auto& t : deep["tools"])
      if (t.is_object()) report.workloads.push_back(tool_workload(t));
  if (field(deep, "not_run").is_array())
    for (auto& n : deep["not_run"])
      if (n.is_string()) report.not_run.push_back(n.get<std::string>());
  for (auto& w : report.workloads)
    if (!w.ok) w.cause = top_cause(w.failure, facts, knowledge);
  return report;
}

}  // namespace rocmdoc
