#include "fleet/fleet_merge.h"

#include <algorithm>
#include <set>

#include "fleet/node_names.h"
#include "fleet/report_age.h"

namespace rocmdoc {

namespace {

std::string file_stem(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) name.resize(name.size() - 5);
  return name;
}

int severity_rank(const std::string& s) { return s == "error" ? 2 : s == "warning" ? 1 : 0; }

void natural_sort(std::vector<std::string>& names) {
  std::sort(names.begin(), names.end(), [](auto& a, auto& b) { return natural_less(a, b); });
}

// Most nodes first, then by the keys: the same order on every run.
void sort_groups(std::vector<FleetGroup>& groups) {
  std::sort(groups.begin(), groups.end(), [](auto& a, auto& b) {
    if (a.nodes.size() != b.nodes.size()) return a.nodes.size() > b.nodes.size();
    if (a.first != b.first) return natural_less(a.first, b.first);
    return natural_less(a.second, b.second);
  });
}

}  // namespace

FleetMerge::FleetMerge(FleetOptions options) : options_(std::move(options)) {}

size_t FleetMerge::intern(std::map<std::pair<std::string, std::string>, size_t>& index,
                          std::vector<std::pair<std::string, std::string>>& list, std::string a, std::string b) {
  auto [it, added] = index.emplace(std::make_pair(a, b), list.size());
  if (added) list.emplace_back(std::move(a), std::move(b));
  return it->second;
}

void FleetMerge::add(const std::string& file, const CheckReportFields& report) {
  ++files_;
  Node node;
  node.name = report.hostname.empty() ? file_stem(file) : report.hostname;
  node.file = file;
  if (!report.collected_at.empty()) node.time = parse_utc_time(report.collected_at);
  std::set<size_t> seen;
  for (auto& f : report.findings) {
    size_t i = intern(problem_index_, problem_keys_, f.id, f.severity);
    if (i == problem_titles_.size()) problem_titles_.push_back(f.title);
    if (seen.insert(i).second) node.problems.push_back(i);
    node.worst = std::max(node.worst, severity_rank(f.severity));
  }
  std::map<size_t, size_t> gpus;
  for (auto& g : report.gpus) ++gpus[intern(gpu_index_, gpu_kinds_, g.name, g.gfx)];
  node.gpus.assign(gpus.begin(), gpus.end());
  node.stack = intern(stack_index_, stacks_, report.rocm, report.kernel);

  // Two reports of one node: the newer counts (a node re-run, or a copy
  // left behind), and the other is named so nothing vanishes unexplained.
  auto [it, added] = node_index_.emplace(node.name, nodes_.size());
  if (added) return nodes_.push_back(std::move(node));
  Node& kept = nodes_[it->second];
  bool newer = node.time && (!kept.time || *node.time >= *kept.time);
  const Node& older = newer ? kept : node;
  const Node& newest = newer ? node : kept;
  superseded_.push_back({older.file, "an older report of " + older.name + " than " + newest.file + "; not counted"});
  if (newer) kept = std::move(node);
}

void FleetMerge::add_unreadable(const std::string& file, const std::string& reason) {
  ++files_;
  unreadable_.push_back({file, reason});
}

FleetSummary FleetMerge::finish() const {
  FleetSummary s;
  s.files = files_;
  s.nodes = nodes_.size();
  // --redact: node0001... in the natural order of every name, read or
  // expected, and report-N for files (their names are often host names).
  std::map<std::string, std::string> alias;
  std::map<std::string, std::string> file_alias;
  if (options_.redact) {
    std::vector<std::string> all = options_.expected;
    for (auto& n : nodes_) all.push_back(n.name);
    natural_sort(all);
    all.erase(std::unique(all.begin(), all.end()), all.end());
    int width = std::max<int>(4, static_cast<int>(std::to_string(all.size()).size()));
    for (size_t i = 0; i < all.size(); ++i) {
      std::string n = std::to_string(i + 1);
      alias[all[i]] = "node" + std::string(width - n.size(), '0') + n;
    }
  }
  auto name = [&](const std::string& n) { return options_.redact ? alias.at(n) : n; };
  size_t next_file = 0;
  auto file = [&](const std::string& f) mutable {
    if (!options_.redact) return f;
    auto [it, added] = file_alias.emplace(f, "");
    if (added) it->second = "report-" + std::to_string(++next_file);
    return it->second;
  };

  std::vector<FleetProblem> problems(problem_keys_.size());
  for (size_t i = 0; i < problem_keys_.size(); ++i)
    problems[i] = {problem_keys_[i].first, problem_keys_[i].second, problem_titles_[i], {}};
  std::vector<FleetGroup> gpus(gpu_kinds_.size()), stacks(stacks_.size());
  for (size_t i = 0; i < gpu_kinds_.size(); ++i) gpus[i] = {gpu_kinds_[i].first, gpu_kinds_[i].second, 0, {}};
  for (size_t i = 0; i < stacks_.size(); ++i) stacks[i] = {stacks_[i].first, stacks_[i].second, 0, {}};
  FleetGroup no_gpu{"", "", 0, {}};

  std::set<std::string> expected(options_.expected.begin(), options_.expected.end());
  for (auto& n : nodes_) {
    std::string shown = name(n.name);
    (n.worst == 2 ? s.with_errors : n.worst == 1 ? s.with_warnings : s.healthy).push_back(shown);
    for (size_t p : n.problems) problems[p].nodes.push_back(shown);
    for (auto [g, count] : n.gpus) {
      gpus[g].nodes.push_back(shown);
      gpus[g].gpus += count;
    }
    if (n.gpus.empty()) no_gpu.nodes.push_back(shown);
    stacks[n.stack].nodes.push_back(shown);
    if (!expected.empty() && !expected.count(n.name)) s.unexpected.push_back(shown);
    if (options_.max_age) {
      if (!n.time)
        s.old.push_back({shown, "its report has no readable time (facts.source.collected_at)"});
      else if (options_.now - *n.time > *options_.max_age)
        s.old.push_back({shown, format_age(options_.now - *n.time) + " old (over --max-age " +
                                    format_age(*options_.max_age) + ")"});
    }
  }
  for (auto& e : options_.expected)
    if (!node_index_.count(e)) s.missing.push_back(name(e));
  s.missing.erase(std::unique(s.missing.begin(), s.missing.end()), s.missing.end());
  for (auto* list : {&s.healthy, &s.with_warnings, &s.with_errors, &s.missing, &s.unexpected}) natural_sort(*list);
  std::sort(s.old.begin(), s.old.end(), [](auto& a, auto& b) { return natural_less(a.subject, b.subject); });

  for (auto& p : problems) natural_sort(p.nodes);
  std::sort(problems.begin(), problems.end(), [](auto& a, auto& b) {
    if (severity_rank(a.severity) != severity_rank(b.severity)) return severity_rank(a.severity) > severity_rank(b.severity);
    if (a.nodes.size() != b.nodes.size()) return a.nodes.size() > b.nodes.size();
    return a.id < b.id;
  });
  s.problems = std::move(problems);
  if (!no_gpu.nodes.empty()) gpus.push_back(std::move(no_gpu));
  for (auto* groups : {&gpus, &stacks}) {
    for (auto& g : *groups) natural_sort(g.nodes);
    sort_groups(*groups);
  }
  s.gpu_models = std::move(gpus);
  s.stacks = std::move(stacks);
  for (auto& u : unreadable_) s.unreadable.push_back({file(u.subject), u.reason});
  for (auto& u : superseded_) {
    std::string reason = u.reason;
    if (options_.redact) reason = "an older report of a node than another file; not counted";
    s.superseded.push_back({file(u.subject), reason});
  }
  return s;
}

}  // namespace rocmdoc
