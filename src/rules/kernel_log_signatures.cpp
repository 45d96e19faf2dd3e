#include "rules/kernel_log_signatures.h"

#include <re2/re2.h>
#include <re2/set.h>

#include "rules/pattern_options.h"

namespace rocmdoc {

// One RE2::Set: a line is matched against every opted-in pattern at once,
// and only the lines of interest the probe kept (at most 200) are read.
struct KernelLogSignatures::Compiled {
  explicit Compiled(const RE2::Options& options) : set(options, RE2::UNANCHORED) {}
  RE2::Set set;
};

KernelLogSignatures::KernelLogSignatures(const std::vector<Signature>& signatures) {
  compiled_ = std::make_unique<Compiled>(rule_pattern_options());
  for (auto& s : signatures) {
    if (!s.scan_kernel_log) continue;
    std::string why;
    if (compiled_->set.Add(s.pattern, &why) != static_cast<int>(ids_.size())) {
      if (error_.empty()) error_ = s.id + ": " + (why.empty() ? "not added" : why);
      continue;
    }
    ids_.push_back(s.id);
  }
  if (error_.empty() && !ids_.empty() && !compiled_->set.Compile())
    error_ = "the kernel-log signatures do not fit RE2's memory budget";
  if (!error_.empty()) ids_.clear();  // nothing half-compiled is ever matched
}

KernelLogSignatures::~KernelLogSignatures() = default;

void KernelLogSignatures::add_facts(Json& facts) const {
  if (!facts.is_object() || !facts.contains("kernel_log")) return;
  Json& log = facts["kernel_log"];
  if (!log.is_object() || is_unknown(log)) return;
  const Json* lines = log.contains("lines") ? &log["lines"] : nullptr;
  if (!lines || !lines->is_array()) {
    Json why = lines && is_unknown(*lines) ? *lines : unknown("kernel_log.lines is not a list of lines");
    log["matched"] = why;
    log["signatures"] = why;
    return;
  }
  struct Hit {
    Json lines = Json::array();
    size_t count = 0;
  };
  std::vector<Hit> hits(ids_.size());
  std::vector<int> matched;
  if (!ids_.empty())
    for (auto& line : *lines) {
      if (!line.is_string()) continue;  // a damaged facts file: skip, never throw
      matched.clear();
      RE2::Set::ErrorInfo info{};
      if (!compiled_->set.Match(line.get_ref<const std::string&>(), &matched, &info)) {
        // Out of the DFA's memory: "no match" would be a guess.
        if (info.kind == RE2::Set::kNoError) continue;
        log["matched"] = log["signatures"] = unknown("the kernel-log signatures could not be matched (RE2 ran out of memory)");
        return;
      }
      for (int i : matched) {
        Hit& h = hits[static_cast<size_t>(i)];
        if (h.lines.size() < kEvidenceLines) h.lines.push_back(line);
        ++h.count;
      }
    }
  Json ids = Json::array(), signatures = Json::array();
  for (size_t i = 0; i < ids_.size(); ++i) {
    if (hits[i].count == 0) continue;
    ids.push_back(ids_[i]);
    signatures.push_back({{"id", ids_[i]}, {"lines", std::move(hits[i].lines)}, {"count", hits[i].count}});
  }
  log["matched"] = std::move(ids);
  log["signatures"] = std::move(signatures);
}

}  // namespace rocmdoc
