#include "output/fleet_output.h"

#include <fmt/format.h>

#include "fleet/node_names.h"

namespace rocmdoc {

namespace {

struct Paint {
  bool on;
  std::string wrap(const char* code, const std::string& s) const {
    return on ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  }
  std::string green(const std::string& s) const { return wrap("32", s); }
  std::string yellow(const std::string& s) const { return wrap("33", s); }
  std::string red(const std::string& s) const { return wrap("31", s); }
  std::string dim(const std::string& s) const { return wrap("2", s); }
};

std::string plural(size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string or_unknown(const std::string& s) { return s.empty() ? "unknown" : s; }

std::string mark(const std::string& severity, const Paint& p) {
  if (severity == "error") return p.red("✗");
  if (severity == "warning") return p.yellow("!");
  return p.dim("i");
}

}  // namespace

std::string render_fleet_text(const FleetSummary& s, bool color) {
  Paint p{color};
  std::string out;
  out += fmt::format("rocmdoc fleet: {} read from {}", plural(s.nodes, "node", "nodes"),
                     plural(s.files, "report", "reports"));
  if (!s.unreadable.empty()) out += fmt::format(", {} unreadable", s.unreadable.size());
  if (!s.missing.empty()) out += fmt::format(", {} missing", s.missing.size());
  out += "\n\n";
  auto line = [&](const std::string& m, const std::vector<std::string>& nodes, const char* what) {
    out += fmt::format("[{}] {} {}", m, nodes.size(), what);
    if (!nodes.empty()) out += ": " + shorten_names(nodes);
    out += "\n";
  };
  line(p.green("✓"), s.healthy, "healthy");
  line(p.yellow("!"), s.with_warnings, "with warnings");
  line(p.red("✗"), s.with_errors, "with errors");

  if (!s.problems.empty()) {
    out += "\nProblems\n";
    for (auto& pr : s.problems)
      out += fmt::format("  {} {} ({}) on {}: {}\n      {}\n", mark(pr.severity, p), pr.id, pr.severity,
                         plural(pr.nodes.size(), "node", "nodes"), shorten_names(pr.nodes), pr.title);
  }
  if (!s.gpu_models.empty()) {
    out += "\nGPUs\n";
    for (auto& g : s.gpu_models) {
      if (g.first.empty() && g.second.empty() && g.gpus == 0)
        out += fmt::format("  • no AMD GPU: {}: {}\n", plural(g.nodes.size(), "node", "nodes"), shorten_names(g.nodes));
      else
        out += fmt::format("  • {} ({}), {} on {}: {}\n", or_unknown(g.first), or_unknown(g.second), g.gpus,
                           plural(g.nodes.size(), "node", "nodes"), shorten_names(g.nodes));
    }
  }
  if (!s.stacks.empty()) {
    out += "\nROCm and kernel\n";
    for (auto& g : s.stacks)
      out += fmt::format("  • ROCm {}, kernel {}: {}: {}\n", g.first.empty() ? "not installed" : g.first,
                         or_unknown(g.second), plural(g.nodes.size(), "node", "nodes"), shorten_names(g.nodes));
  }
  if (!s.missing.empty() || !s.unexpected.empty() || !s.old.empty() || !s.unreadable.empty() ||
      !s.superseded.empty()) {
    out += "\nReports\n";
    if (!s.missing.empty())
      out += fmt::format("  {} missing ({}): {}\n", p.red("✗"), s.missing.size(), shorten_names(s.missing));
    for (auto& n : s.unreadable) out += fmt::format("  {} unreadable: {}: {}\n", p.red("✗"), n.subject, n.reason);
    for (auto& n : s.old) out += fmt::format("  {} old: {}: {}\n", p.yellow("!"), n.subject, n.reason);
    if (!s.unexpected.empty())
      out += fmt::format("  {} not in --expect ({}): {}\n", p.yellow("!"), s.unexpected.size(),
                         shorten_names(s.unexpected));
    for (auto& n : s.superseded) out += fmt::format("  {} ignored: {}: {}\n", p.dim("–"), n.subject, n.reason);
  }
  out += "\n";
  if (s.with_errors.empty() && s.with_warnings.empty())
    out += fmt::format("{} No problems on any node", p.green("•"));
  else
  {
    size_t kinds = 0;  // infos are findings, not problems
    for (auto& pr : s.problems) kinds += pr.severity == "error" || pr.severity == "warning";
    out += fmt::format("{} {} on {} of {}", p.red("•"), plural(kinds, "problem", "problems"),
                       s.with_errors.size() + s.with_warnings.size(), plural(s.nodes, "node", "nodes"));
  }
  out += ". `rocmdoc check` on a node shows the evidence and the fix.\n";
  return out;
}

Json render_fleet_json(const FleetSummary& s) {
  auto notes = [](const std::vector<FleetNote>& list, const char* key) {
    Json a = Json::array();
    for (auto& n : list) a.push_back({{key, n.subject}, {"reason", n.reason}});
    return a;
  };
  Json j = Json::object();
  j["schema"] = kFleetJsonSchema;
  j["summary"] = {{"reports", s.files},
                  {"nodes", s.nodes},
                  {"healthy", s.healthy.size()},
                  {"with_warnings", s.with_warnings.size()},
                  {"with_errors", s.with_errors.size()},
                  {"missing", s.missing.size()},
                  {"old", s.old.size()},
                  {"unreadable", s.unreadable.size()}};
  j["nodes"] = {{"healthy", s.healthy}, {"with_warnings", s.with_warnings}, {"with_errors", s.with_errors}};
  Json problems = Json::array();
  for (auto& p : s.problems)
    problems.push_back({{"id", p.id}, {"severity", p.severity}, {"title", p.title}, {"node_count", p.nodes.size()},
                        {"nodes", p.nodes}, {"node_ranges", shorten_names(p.nodes)}});
  j["problems"] = problems;
  Json gpus = Json::array();
  for (auto& g : s.gpu_models)
    gpus.push_back({{"name", g.first.empty() ? Json(nullptr) : Json(g.first)},
                    {"gfx", g.second.empty() ? Json(nullptr) : Json(g.second)},
                    {"gpus", g.gpus},
                    {"node_count", g.nodes.size()},
                    {"nodes", g.nodes}});
  j["gpu_models"] = gpus;
  Json stacks = Json::array();
  for (auto& g : s.stacks)
    stacks.push_back({{"rocm", g.first.empty() ? Json(nullptr) : Json(g.first)},
                      {"kernel", g.second.empty() ? Json(nullptr) : Json(g.second)},
                      {"node_count", g.nodes.size()},
                      {"nodes", g.nodes}});
  j["stacks"] = stacks;
  j["reports"] = {{"missing", s.missing},
                  {"unexpected", s.unexpected},
                  {"old", notes(s.old, "node")},
                  {"unreadable", notes(s.unreadable, "file")},
                  {"superseded", notes(s.superseded, "file")}};
  return j;
}

}  // namespace rocmdoc
