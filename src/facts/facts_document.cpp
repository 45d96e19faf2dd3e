#include "rocmdoc/facts_document.h"

#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

namespace rocmdoc {

std::string rocmdoc_version() { return ROCMDOC_VERSION; }

static std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Json collect_facts(Machine& machine, const ProbeOptions& options, std::vector<ProbeTiming>* timings) {
  ProbeContext ctx(machine, options);
  Json facts = Json::object();
  facts["schema"] = kFactsSchema;
  facts["generator"] = "rocmdoc " + rocmdoc_version();
  Json source = Json::object();
  source["kind"] = machine.live ? "live" : "recorded";
  source["root"] = machine.root;
  if (!machine.live) source["recording"] = machine.recording_kind;
  source["collected_at"] = utc_now();
  facts["source"] = source;

  for (auto& probe : probe_catalogue()) {
    auto started = std::chrono::steady_clock::now();
    Json section;
    try {
      section = probe.run(ctx, facts);
    } catch (const std::exception& e) {
      section = unknown(std::string("the ") + probe.name + " probe failed: " + e.what());
    }
    facts[probe.name] = std::move(section);
    if (timings) {
      std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - started;
      timings->push_back({probe.name, ms.count()});
    }
  }
  facts["commands_run"] = ctx.commands_run();
  return facts;
}

std::string facts_to_string(const Json& facts, int indent) {
  return facts.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Result<Json> load_facts_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<Json>::fail(path + ": cannot open");
  std::ostringstream ss;
  ss << in.rdbuf();
  Json doc;
  try {
    doc = Json::parse(ss.str());
  } catch (const Json::parse_error& e) {
    return Result<Json>::fail(path + ": not valid JSON (" + e.what() + ")");
  }
  if (!doc.is_object() || !doc.contains("schema")) return Result<Json>::fail(path + ": not a rocmdoc facts document (no \"schema\")");
  if (doc["schema"] != kFactsSchema)
    return Result<Json>::fail(path + ": facts schema " + doc["schema"].dump() + " is not supported (this rocmdoc reads schema 1)");
  return Result<Json>::ok(std::move(doc));
}

}  // namespace rocmdoc
