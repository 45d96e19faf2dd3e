#include <yaml-cpp/yaml.h>

#include <set>

#include "rocmdoc/rule_set.h"
#include "rocmdoc/text.h"
#include "rocmdoc/yaml_json.h"

namespace rocmdoc {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "error";
}

std::string SourceLocation::str() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  return s;
}

const std::vector<std::pair<std::string, std::string>>& rule_areas() {
  static const std::vector<std::pair<std::string, std::string>> areas = {
      {"system", "System"},     {"gpu", "GPU"},   {"driver", "Driver"},           {"access", "Access"},
      {"firmware", "Firmware & PCIe"}, {"rocm", "ROCm"}, {"python", "Python & PyTorch"},
  };
  return areas;
}

namespace {

struct Failure {
  LoadError error;
};

class Loader {
 public:
  Loader(const Vocabulary& vocabulary, RuleSet& set) : base_(vocabulary), set_(set) {}

  void load_file(const RuleFile& file, bool local) {
    file_ = &file;
    YAML::Node doc;
    try {
      doc = YAML::Load(file.text);
    } catch (const YAML::ParserException& e) {
      error_at(e.mark, "YAML syntax error: " + e.msg);
      return;
    }
    if (doc.IsNull()) return;
    try {
      if (!doc.IsMap()) fail(doc, "a rule file is a mapping with lists, macros and rules");
      allow_keys(doc, {"lists", "macros", "rules"});
      if (doc["lists"]) for (auto n : sequence(doc["lists"], "lists")) load_list(n);
      if (doc["macros"]) for (auto n : sequence(doc["macros"], "macros")) load_macro(n);
      if (doc["rules"])
        for (auto n : sequence(doc["rules"], "rules")) {
          try {
            load_rule(n, local);
          } catch (const Failure& f) {
            set_.errors.push_back(f.error);  // report every bad rule, not just the first
          }
        }
    } catch (const Failure& f) {
      set_.errors.push_back(f.error);
    }
  }

 private:
  SourceLocation at(const YAML::Mark& m) const { return {file_->name, m.line + 1, m.column + 1}; }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& message) const { throw Failure{{at(n.Mark()), message}}; }
  void error_at(const YAML::Mark& m, const std::string& message) { set_.errors.push_back({at(m), message}); }

  void allow_keys(const YAML::Node& map, std::initializer_list<const char*> keys) const {
    for (auto kv : map) {
      std::string key = kv.first.Scalar();
      bool ok = false;
      for (const char* k : keys) ok = ok || key == k;
      if (!ok) {
        std::string allowed;
        for (const char* k : keys) allowed += std::string(allowed.empty() ? "" : ", ") + k;
        fail(kv.first, "unknown key '" + key + "' (allowed: " + allowed + ")");
      }
    }
  }

  YAML::Node sequence(const YAML::Node& n, const std::string& what) const {
    if (!n.IsSequence()) fail(n, "'" + what + "' must be a list");
    return n;
  }

  YAML::Node required(const YAML::Node& map, const char* key) const {
    if (!map[key]) fail(map, std::string("missing '") + key + "'");
    return map[key];
  }

  std::string scalar(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, "'" + what + "' must be text");
    return n.Scalar();
  }

  bool boolean(const YAML::Node& n, const std::string& what) const {
    std::string s = scalar(n, what);
    if (s == "true") return true;
    if (s == "false") return false;
    fail(n, "'" + what + "' must be true or false");
  }

  std::vector<std::string> strings(const YAML::Node& n, const std::string& what) const {
    std::vector<std::string> out;
    for (auto item : sequence(n, what)) out.push_back(scalar(item, what + " item"));
    return out;
  }

  Vocabulary vocabulary() const {
    Vocabulary v = base_;
    v.lists = set_.lists;
    v.macros = set_.macros;
    return v;
  }

  ExprPtr condition(const YAML::Node& n, const std::string& item_path) {
    std::string text = scalar(n, "condition");
    ParseError err;
    auto parsed = parse_expression(text, vocabulary(), item_path, &err);
    if (!parsed) {
      // Point into the line when the condition is written on one line.
      SourceLocation where = at(n.Mark());
      bool quoted = n.Tag() == "!";
      if (text.find('\n') == std::string::npos) where.column += static_cast<int>(err.column) - 1 + (quoted ? 1 : 0);
      throw Failure{{where, "in condition: " + err.message}};
    }
    return *parsed;
  }

  void load_list(const YAML::Node& n) {
    allow_keys(n, {"list", "items"});
    std::string name = scalar(required(n, "list"), "list");
    if (set_.lists.count(name) || set_.macros.count(name)) fail(n, "'" + name + "' is defined twice");
    Json items = Json::array();
    for (auto& s : strings(required(n, "items"), "items")) items.push_back(s);
    set_.lists[name] = items;
  }

  void load_macro(const YAML::Node& n) {
    allow_keys(n, {"macro", "condition"});
    std::string name = scalar(required(n, "macro"), "macro");
    if (set_.lists.count(name) || set_.macros.count(name)) fail(n, "'" + name + "' is defined twice");
    set_.macros[name] = condition(required(n, "condition"), "");
  }

  Template templ(const YAML::Node& n, const std::string& what, const std::string& item_path) const {
    Template t;
    t.text = scalar(n, what);
    for (size_t open = t.text.find('{'); open != std::string::npos; open = t.text.find('{', open + 1)) {
      size_t close = t.text.find('}', open);
      if (close == std::string::npos) fail(n, "'" + what + "': '{' without '}'");
      std::string path = t.text.substr(open + 1, close - open - 1);
      bool item = starts_with(path, "it.") || starts_with(path, "each.");
      std::string schema = item ? item_path + path.substr(path.find('.')) : path;
      if (item && item_path.empty()) fail(n, "'" + what + "': {" + path + "} outside a for_each rule");
      // Placeholders may index lists: pci.gpus[0].name -> pci.gpus[].name
      std::string normalised;
      for (size_t i = 0; i < schema.size(); ++i) {
        if (schema[i] == '[') {
          size_t j = schema.find(']', i);
          normalised += "[]";
          i = j == std::string::npos ? schema.size() : j;
        } else {
          normalised += schema[i];
        }
      }
      if (base_.is_fact && !base_.is_fact(normalised)) fail(n, "'" + what + "': unknown fact {" + path + "}");
      t.placeholders.push_back(path);
    }
    return t;
  }

  Fix load_fix(const YAML::Node& n, const std::string& item_path) const {
    if (!n.IsMap()) fail(n, "'fix' must be a mapping with steps");
    allow_keys(n, {"steps", "reboot", "relogin", "verify"});
    Fix fix;
    for (auto s : sequence(required(n, "steps"), "steps")) {
      if (!s.IsMap()) fail(s, "a fix step is a mapping with 'text' and optionally 'run' and 'sudo'");
      allow_keys(s, {"text", "run", "sudo"});
      FixStep step;
      step.text = templ(required(s, "text"), "text", item_path);
      if (s["run"])
        for (auto a : sequence(s["run"], "run")) step.argv.push_back(templ(a, "run", item_path));
      if (s["sudo"]) step.sudo = boolean(s["sudo"], "sudo");
      fix.steps.push_back(step);
    }
    if (n["reboot"]) fix.reboot = boolean(n["reboot"], "reboot");
    if (n["relogin"]) fix.relogin = boolean(n["relogin"], "relogin");
    if (n["verify"])
      for (auto a : sequence(n["verify"], "verify")) fix.verify.push_back(templ(a, "verify", item_path));
    return fix;
  }

  void load_examples(Rule& rule, const YAML::Node& n) const {
    for (auto e : sequence(n, "examples")) {
      if (!e.IsMap()) fail(e, "an example is a mapping with name, facts and expect");
      allow_keys(e, {"name", "facts", "expect"});
      RuleExample ex;
      ex.where = at(e.Mark());
      ex.name = scalar(required(e, "name"), "name");
      ex.facts = yaml_to_json(required(e, "facts"));
      if (!ex.facts.is_object()) fail(e["facts"], "'facts' must be a mapping (a partial facts document)");
      ex.expect = scalar(required(e, "expect"), "expect");
      if (ex.expect != "fire" && ex.expect != "pass" && ex.expect != "unknown")
        fail(e["expect"], "'expect' is fire, pass or unknown");
      rule.examples.push_back(ex);
    }
  }

  void load_rule(const YAML::Node& n, bool local) {
    if (!n.IsMap()) fail(n, "a rule is a mapping");
    allow_keys(n, {"id", "area", "severity", "platforms", "for_each", "when", "title", "why", "fix", "sources",
                   "examples"});
    Rule r;
    r.where = at(n.Mark());
    r.id = scalar(required(n, "id"), "id");
    for (char c : r.id)
      if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
        fail(n["id"], "rule ids are lower-case words joined by '-' ('" + r.id + "')");
    r.area = scalar(required(n, "area"), "area");
    bool area_ok = false;
    for (auto& [key, label] : rule_areas()) area_ok = area_ok || key == r.area;
    if (!area_ok) fail(n["area"], "unknown area '" + r.area + "' (system, gpu, driver, access, firmware, rocm, python)");
    std::string severity = scalar(required(n, "severity"), "severity");
    if (severity == "error") r.severity = Severity::error;
    else if (severity == "warning") r.severity = Severity::warning;
    else if (severity == "info") r.severity = Severity::info;
    else fail(n["severity"], "severity is error, warning or info");
    if (n["platforms"]) {
      r.platforms = strings(n["platforms"], "platforms");
      static const std::set<std::string> kinds = {"bare_metal", "vm", "container", "wsl2"};
      for (auto& p : r.platforms)
        if (!kinds.count(p)) fail(n["platforms"], "unknown platform '" + p + "' (bare_metal, vm, container, wsl2)");
    }
    std::string item_path;
    if (n["for_each"]) {
      r.for_each = scalar(n["for_each"], "for_each");
      if (base_.is_fact && !base_.is_fact(r.for_each)) fail(n["for_each"], "unknown fact '" + r.for_each + "'");
      item_path = r.for_each + "[]";
    }
    r.when_text = scalar(required(n, "when"), "when");
    r.when = condition(n["when"], item_path);
    r.title = templ(required(n, "title"), "title", item_path);
    r.why = templ(required(n, "why"), "why", item_path);
    r.fix = load_fix(required(n, "fix"), item_path);
    r.sources = strings(required(n, "sources"), "sources");
    if (r.sources.empty()) fail(n["sources"], "a rule names at least one source");
    load_examples(r, required(n, "examples"));
    place(r, n, local);
  }

  void place(Rule& r, const YAML::Node& n, bool local) {
    for (auto& existing : set_.rules) {
      if (existing.id != r.id) continue;
      if (local && !existing.local_override) {
        r.local_override = true;
        existing = r;
        return;
      }
      fail(n["id"], "duplicate rule id '" + r.id + "' (first defined at " + existing.where.str() + ")");
    }
    set_.rules.push_back(r);
  }

  const Vocabulary& base_;
  RuleSet& set_;
  const RuleFile* file_ = nullptr;
};

}  // namespace

RuleSet load_rule_set(const std::vector<RuleFile>& builtin, const std::vector<RuleFile>& local,
                      const Vocabulary& vocabulary) {
  RuleSet set;
  Loader loader(vocabulary, set);
  for (auto& f : builtin) loader.load_file(f, false);
  for (auto& f : local) loader.load_file(f, true);
  return set;
}

}  // namespace rocmdoc
