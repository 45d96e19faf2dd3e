#include "output/ansible_facts.h"

namespace rocmdoc {

namespace {

// A fact for a playbook: its value, or null when unknown (a `when:` on it is
// then false, never a dict holding a reason).
Json known(const Json& fact) { return is_unknown(fact) ? Json() : fact; }

}  // namespace

Json render_ansible_facts(const CheckReport& report) {
  Json j = Json::object();
  j["schema"] = kAnsibleFactsSchema;
  j["summary"] = {{"errors", report.errors},
                  {"warnings", report.warnings},
                  {"infos", report.infos},
                  {"not_checked", report.unknowns},
                  {"healthy", report.errors == 0}};
  Json findings = Json::array();
  for (auto& o : report.outcomes)
    for (auto& f : o.findings)
      findings.push_back({{"id", o.rule->id}, {"severity", severity_name(o.rule->severity)}, {"title", f.title}});
  j["findings"] = findings;

  Json gpus = Json::array();
  const Json& derived = field(report.facts, "gpus");
  if (derived.is_array())
    for (auto& g : derived)
      gpus.push_back({{"name", known(field(g, "name"))},
                      {"gfx", known(field(g, "gfx"))},
                      {"address", known(field(g, "address"))}});
  j["gpus"] = gpus;

  const Json& target = field(report.facts, "target");
  j["rocm"] = {{"installed", known(field(target, "installed"))}, {"target", known(field(target, "rocm"))}};

  Json torch = Json::array();
  const Json& installs = field(field(report.facts, "python"), "torch");
  if (installs.is_array())
    for (auto& t : installs)
      torch.push_back({{"version", known(field(t, "version"))},
                       {"build", known(field(t, "build"))},
                       {"hip", known(field(t, "hip"))}});
  j["torch"] = torch;
  return j;
}

}  // namespace rocmdoc
