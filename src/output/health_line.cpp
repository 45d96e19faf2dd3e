#include "output/health_line.h"

#include <fmt/format.h>

namespace rocmdoc {

namespace {

std::string count(size_t n, const char* what) { return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s"); }

// The first error, and how many more.
std::string first_error(const Json& summary) {
  const Json& errors = summary.at("errors");
  const Json& first = errors.at(0);
  std::string text = first.at("id").get<std::string>() + ": " + first.at("title").get<std::string>();
  if (errors.size() > 1) text += " (+" + std::to_string(errors.size() - 1) + " more error" + (errors.size() > 2 ? "s" : "") + ")";
  return text;
}

}  // namespace

Json health_summary(const CheckReport& report) {
  Json errors = Json::array();
  for (auto& o : report.outcomes)
    if (o.rule->severity == Severity::error)
      for (auto& f : o.findings) errors.push_back({{"id", o.rule->id}, {"title", f.title}});
  return {{"errors", errors}, {"warnings", report.warnings}, {"infos", report.infos}};
}

std::string health_line(const Json& summary) {
  if (summary.at("errors").empty())
    return "healthy (0 errors, " + count(summary.at("warnings").get<size_t>(), "warning") + ")";
  return "ERROR " + first_error(summary);
}

std::string health_drain_reason(const Json& summary) { return "rocmdoc: " + first_error(summary); }

}  // namespace rocmdoc
