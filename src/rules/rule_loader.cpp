#include <re2/re2.h>

#include <algorithm>
#include <memory>
#include <set>

#include "rules/rule_loader.h"
#include "base/text.h"
#include "formats/yaml_json.h"

namespace rocmdoc {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "error";
}

const std::vector<std::pair<std::string, std::string>>& rule_areas() {
  static const std::vector<std::pair<std::string, std::string>> areas = {
      {"system", "System"},     {"gpu", "GPU"},   {"driver", "Driver"},           {"access", "Access"},
      {"firmware", "Firmware & PCIe"}, {"rocm", "ROCm"}, {"python", "Python & PyTorch"},
  };
  return areas;
}

namespace {

class Loader {
 public:
  enum class Kind { checks, errors };
  Loader(const Vocabulary& vocabulary, RuleSet& set, Kind kind = Kind::checks)
      : vocabulary_(vocabulary), set_(set), kind_(kind) {
    vocabulary_.lists.insert(set.lists.begin(), set.lists.end());
    vocabulary_.macros.insert(set.macros.begin(), set.macros.end());
  }

  void load_file(const RuleFile& file, bool local) {
    yaml_.emplace(file.name, set_.errors);
    auto parsed = rule_file_tree(file, set_.errors);
    if (!parsed) return;
    // Shared with the rules' examples, which point into it.
    tree_ = std::make_shared<const YamlTree>(std::move(*parsed));
    const YamlNode& doc = tree_->root();
    if (doc.is_null()) return;
    try {
      if (kind_ == Kind::checks) {
        yaml_->mapping(doc, "a rule file is a mapping with lists, macros and rules");
        yaml_->allow_keys(doc, {"lists", "macros", "rules"});
      } else {
        yaml_->mapping(doc, "an errors file is a mapping with lists, macros, signatures, causes and origins");
        yaml_->allow_keys(doc, {"lists", "macros", "signatures", "causes", "origins"});
      }
      if (doc["lists"]) for (auto& n : yaml_->list(doc["lists"], "lists")) load_list(n);
      if (doc["macros"]) for (auto& n : yaml_->list(doc["macros"], "macros")) load_macro(n);
      each(doc, "rules", [&](const YamlNode& n) { load_rule(n, local); });
      each(doc, "signatures", [&](const YamlNode& n) { load_signature(n); });
      each(doc, "origins", [&](const YamlNode& n) { load_origin(n); });
      each(doc, "causes", [&](const YamlNode& n) { load_cause(n, local); });
    } catch (const StrictYaml::Failure& f) {
      set_.errors.push_back(f.error);
    }
  }

 // Signals may name a signature of another file: checked once all are loaded.
  void check_signal_references() {
    std::set<std::string> ids;
    for (auto& s : set_.signatures) ids.insert(s.id);
    for (auto& c : set_.causes)
      for (auto& sig : c.signals)
        if (!ids.count(sig.signature))
          set_.errors.push_back({sig.where, "cause '" + c.rule.id + "': unknown signature '" + sig.signature + "'"});
  }

 private:
  // Loads every item of doc[key], reporting each bad one rather than just the first.
  template <class Load>
  void each(const YamlNode& doc, const char* key, Load load) {
    if (doc[key]) yaml_->each(doc[key], key, load);
  }

  // The base vocabulary with the lists and macros defined so far, kept up
  // to date as they are defined: copying them for each condition cost more
  // than parsing it.
  const Vocabulary& vocabulary() const { return vocabulary_; }

  ExprPtr condition(const YamlNode& n, const std::string& item_path) {
    std::string text = yaml_->text(n, "condition");
    ParseError err;
    auto parsed = parse_expression(text, vocabulary(), item_path, &err);
    if (!parsed) {
      // Point into the line when the condition is written on one line.
      SourceLocation where = yaml_->at(n);
      bool quoted = n.quoted;
      if (text.find('\n') == std::string::npos) where.column += static_cast<int>(err.column) - 1 + (quoted ? 1 : 0);
      throw StrictYaml::Failure{{where, "in condition: " + err.message}};
    }
    return *parsed;
  }

  void load_list(const YamlNode& n) {
    yaml_->allow_keys(n, {"list", "items"});
    std::string name = yaml_->text(yaml_->required(n, "list"), "list");
    if (set_.lists.count(name) || set_.macros.count(name)) yaml_->fail(n, "'" + name + "' is defined twice");
    Json items = Json::array();
    for (auto& s : yaml_->texts(yaml_->required(n, "items"), "items")) items.push_back(s);
    vocabulary_.lists[name] = items;
    set_.lists[name] = std::move(items);
  }

  void load_macro(const YamlNode& n) {
    yaml_->allow_keys(n, {"macro", "condition"});
    std::string name = yaml_->text(yaml_->required(n, "macro"), "macro");
    if (set_.lists.count(name) || set_.macros.count(name)) yaml_->fail(n, "'" + name + "' is defined twice");
    ExprPtr macro = condition(yaml_->required(n, "condition"), "");
    vocabulary_.macros[name] = macro;
    set_.macros[name] = std::move(macro);
  }

  Template templ(const YamlNode& n, const std::string& what, const std::string& item_path) const {
    Template t;
    t.text = yaml_->text(n, what);
    for (size_t open = t.text.find('{'); open != std::string::npos; open = t.text.find('{', open + 1)) {
      size_t close = t.text.find('}', open);
      if (close == std::string::npos) yaml_->fail(n, "'" + what + "': '{' without '}'");
      std::string path = t.text.substr(open + 1, close - open - 1);
      bool item = starts_with(path, "it.") || starts_with(path, "each.");
      std::string schema = item ? item_path + path.substr(path.find('.')) : path;
      if (item && item_path.empty()) yaml_->fail(n, "'" + what + "': {" + path + "} outside a for_each rule");
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
      if (vocabulary_.is_fact && !vocabulary_.is_fact(normalised)) yaml_->fail(n, "'" + what + "': unknown fact {" + path + "}");
      t.placeholders.push_back(path);
    }
    return t;
  }

  FixStep load_step(const YamlNode& s, const std::string& item_path) const {
    yaml_->mapping(s, "a step is a mapping with 'text' and optionally 'run' and 'sudo'");
    yaml_->allow_keys(s, {"text", "run", "sudo"});
    FixStep step;
    step.text = templ(yaml_->required(s, "text"), "text", item_path);
    if (s["run"])
      for (auto& a : yaml_->list(s["run"], "run")) step.argv.push_back(templ(a, "run", item_path));
    if (s["sudo"]) step.sudo = yaml_->flag(s["sudo"], "sudo");
    return step;
  }

  Fix load_fix(const YamlNode& n, const std::string& item_path) const {
    yaml_->mapping(n, "'fix' must be a mapping with steps");
    yaml_->allow_keys(n, {"steps", "reboot", "relogin", "verify"});
    Fix fix;
    for (auto& s : yaml_->list(yaml_->required(n, "steps"), "steps")) fix.steps.push_back(load_step(s, item_path));
    if (n["reboot"]) fix.reboot = yaml_->flag(n["reboot"], "reboot");
    if (n["relogin"]) fix.relogin = yaml_->flag(n["relogin"], "relogin");
    if (n["verify"])
      for (auto& a : yaml_->list(n["verify"], "verify")) fix.verify.push_back(templ(a, "verify", item_path));
    return fix;
  }

  void load_examples(Rule& rule, const YamlNode& n) const {
    for (auto& e : yaml_->list(n, "examples")) {
      yaml_->mapping(e, "an example is a mapping with name, facts and expect");
      yaml_->allow_keys(e, {"name", "facts", "expect"});
      RuleExample ex;
      ex.where = yaml_->at(e);
      ex.name = yaml_->text(yaml_->required(e, "name"), "name");
      ex.tree = tree_;
      ex.facts_yaml = &yaml_->required(e, "facts");
      if (!ex.facts_yaml->is_map()) yaml_->fail(e["facts"], "'facts' must be a mapping (a partial facts document)");
      ex.expect = yaml_->text(yaml_->required(e, "expect"), "expect");
      if (ex.expect != "fire" && ex.expect != "pass" && ex.expect != "unknown")
        yaml_->fail(e["expect"], "'expect' is fire, pass or unknown");
      rule.examples.push_back(ex);
    }
  }

  std::string identifier(const YamlNode& n, const std::string& what) const {
    std::string id = yaml_->text(n, what);
    bool ok = !id.empty();
    for (char c : id)
      ok = ok && (std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-');
    if (!ok) yaml_->fail(n, "ids are lower-case words joined by '-' ('" + id + "')");
    return id;
  }

  // The parts a check rule and a cause share.
  void load_rule_text(Rule& r, const YamlNode& n, const std::string& item_path) const {
    r.title = templ(yaml_->required(n, "title"), "title", item_path);
    r.why = templ(yaml_->required(n, "why"), "why", item_path);
    r.fix = load_fix(yaml_->required(n, "fix"), item_path);
    r.sources = yaml_->texts(yaml_->required(n, "sources"), "sources");
    if (r.sources.empty()) yaml_->fail(n["sources"], "a rule names at least one source");
  }

  void load_rule(const YamlNode& n, bool local) {
    yaml_->mapping(n, "a rule is a mapping");
    yaml_->allow_keys(n, {"id", "area", "severity", "platforms", "for_each", "when", "title", "why", "fix", "sources",
                   "examples"});
    Rule r;
    r.where = yaml_->at(n);
    r.id = identifier(yaml_->required(n, "id"), "id");
    r.area = yaml_->text(yaml_->required(n, "area"), "area");
    bool area_ok = false;
    for (auto& [key, label] : rule_areas()) area_ok = area_ok || key == r.area;
    if (!area_ok) yaml_->fail(n["area"], "unknown area '" + r.area + "' (system, gpu, driver, access, firmware, rocm, python)");
    std::string severity = yaml_->text(yaml_->required(n, "severity"), "severity");
    if (severity == "error") r.severity = Severity::error;
    else if (severity == "warning") r.severity = Severity::warning;
    else if (severity == "info") r.severity = Severity::info;
    else yaml_->fail(n["severity"], "severity is error, warning or info");
    if (n["platforms"]) {
      r.platforms = yaml_->texts(n["platforms"], "platforms");
      static const std::set<std::string> kinds = {"bare_metal", "vm", "container", "wsl2"};
      for (auto& p : r.platforms)
        if (!kinds.count(p)) yaml_->fail(n["platforms"], "unknown platform '" + p + "' (bare_metal, vm, container, wsl2)");
    }
    std::string item_path;
    if (n["for_each"]) {
      r.for_each = yaml_->text(n["for_each"], "for_each");
      if (vocabulary_.is_fact && !vocabulary_.is_fact(r.for_each)) yaml_->fail(n["for_each"], "unknown fact '" + r.for_each + "'");
      item_path = r.for_each + "[]";
    }
    r.when_text = yaml_->text(yaml_->required(n, "when"), "when");
    r.when = condition(n["when"], item_path);
    load_rule_text(r, n, item_path);
    load_examples(r, yaml_->required(n, "examples"));
    place(r, n, local);
  }

  // A pattern is compiled here so a bad one is reported where it is written;
  // the scanner compiles it again with the same options (log_scanner.cpp).
  void check_pattern(const YamlNode& n, const std::string& pattern, bool captures_allowed) const {
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);
    options.set_log_errors(false);
    if (pattern.find_first_of("\r\n") != std::string::npos)
      yaml_->fail(n, "a pattern matches within one line; it cannot hold a line break");
    RE2 re(pattern, options);
    if (!re.ok()) yaml_->fail(n, "not an RE2 pattern: " + re.error());
    auto& names = capture_names();
    for (auto& [name, index] : re.NamedCapturingGroups()) {
      (void)index;
      if (!captures_allowed) yaml_->fail(n, "this pattern captures nothing; remove (?P<" + name + ">");
      if (std::find(names.begin(), names.end(), name) == names.end())
        yaml_->fail(n, "unknown capture name '" + name + "' (see docs/explain.md)");
    }
  }

  void load_signature(const YamlNode& n) {
    yaml_->mapping(n, "a signature is a mapping with id, pattern and examples");
    yaml_->allow_keys(n, {"id", "pattern", "examples"});
    Signature s;
    s.where = yaml_->at(n);
    s.id = identifier(yaml_->required(n, "id"), "id");
    s.pattern = yaml_->text(yaml_->required(n, "pattern"), "pattern");
    check_pattern(n["pattern"], s.pattern, true);
    const YamlNode& ex = yaml_->required(n, "examples");
    yaml_->mapping(ex, "'examples' is a mapping with match and no_match");
    yaml_->allow_keys(ex, {"match", "no_match"});
    for (const char* key : {"match", "no_match"}) {
      if (!ex[key]) continue;
      for (auto& e : yaml_->list(ex[key], key)) s.examples.push_back(signature_example(e, std::string(key) == "match"));
    }
    for (auto& other : set_.signatures)
      if (other.id == s.id) yaml_->fail(n["id"], "duplicate signature id '" + s.id + "' (first defined at " + other.where.str() + ")");
    set_.signatures.push_back(std::move(s));
  }

  SignatureExample signature_example(const YamlNode& e, bool match) const {
    SignatureExample ex;
    ex.where = yaml_->at(e);
    ex.match = match;
    if (!e.is_map()) {
      ex.line = yaml_->text(e, "example line");
      return ex;
    }
    if (!match) yaml_->fail(e, "a no_match example is just the line");
    yaml_->allow_keys(e, {"line", "captures"});
    ex.line = yaml_->text(yaml_->required(e, "line"), "line");
    if (e["captures"]) {
      yaml_->mapping(e["captures"], "'captures' maps a capture name to its value");
      const YamlNode& captures = e["captures"];
      for (size_t i = 0; i < captures.pair_count(); ++i)
        ex.captures[std::string(captures.key(i).text)] = yaml_->text(captures.value(i), "capture");
    }
    return ex;
  }

  void load_origin(const YamlNode& n) {
    yaml_->mapping(n, "an origin is a mapping with id, name, tracker and pattern");
    yaml_->allow_keys(n, {"id", "name", "tracker", "pattern"});
    Origin o;
    o.where = yaml_->at(n);
    o.id = identifier(yaml_->required(n, "id"), "id");
    o.name = yaml_->text(yaml_->required(n, "name"), "name");
    o.tracker = yaml_->text(yaml_->required(n, "tracker"), "tracker");
    o.pattern = yaml_->text(yaml_->required(n, "pattern"), "pattern");
    check_pattern(n["pattern"], o.pattern, false);
    set_.origins.push_back(std::move(o));
  }

  void load_cause(const YamlNode& n, bool local) {
    yaml_->mapping(n, "a cause is a mapping");
    yaml_->allow_keys(n, {"id", "area", "severity", "signals", "when", "confirm", "title", "why", "fix", "sources",
                   "examples"});
    Cause c;
    Rule& r = c.rule;
    r.where = yaml_->at(n);
    r.id = identifier(yaml_->required(n, "id"), "id");
    c.area = yaml_->text(yaml_->required(n, "area"), "area");
    if (cause_area_rank(c.area) < 0) yaml_->fail(n["area"], "unknown area '" + c.area + "' (see docs/explain.md)");
    r.area = c.area;
    std::string severity = yaml_->text(yaml_->required(n, "severity"), "severity");
    if (severity == "error") r.severity = Severity::error;
    else if (severity == "warning") r.severity = Severity::warning;
    else if (severity == "benign") r.severity = Severity::info, c.benign = true;
    else yaml_->fail(n["severity"], "a cause's severity is error, warning or benign");
    for (auto& s : yaml_->list(yaml_->required(n, "signals"), "signals")) c.signals.push_back(load_signal(s));
    if (c.signals.empty()) yaml_->fail(n["signals"], "a cause needs at least one signal");
    if (n["when"]) {
      r.when_text = yaml_->text(n["when"], "when");
      r.when = condition(n["when"], "");
    }
    if (n["confirm"]) c.confirm = load_step(n["confirm"], "");
    load_rule_text(r, n, "");
    if (n["examples"]) load_examples(r, n["examples"]);
    place_cause(c, n, local);
  }

  Signal load_signal(const YamlNode& n) const {
    yaml_->mapping(n, "a signal is a mapping {signature: ID, weight: 1|2|3}");
    yaml_->allow_keys(n, {"signature", "weight"});
    Signal s;
    s.where = yaml_->at(n);
    s.signature = yaml_->text(yaml_->required(n, "signature"), "signature");
    std::string w = yaml_->text(yaml_->required(n, "weight"), "weight");
    if (w != "1" && w != "2" && w != "3") yaml_->fail(n["weight"], "'weight' is 1, 2 or 3");
    s.weight = w[0] - '0';
    return s;
  }

  void place_cause(Cause& c, const YamlNode& n, bool local) {
    for (auto& existing : set_.causes) {
      if (existing.rule.id != c.rule.id) continue;
      if (local && !existing.rule.local_override) {
        c.rule.local_override = true;
        existing = c;
        return;
      }
      yaml_->fail(n["id"], "duplicate cause id '" + c.rule.id + "' (first defined at " + existing.rule.where.str() + ")");
    }
    set_.causes.push_back(std::move(c));
  }

  void place(Rule& r, const YamlNode& n, bool local) {
    for (auto& existing : set_.rules) {
      if (existing.id != r.id) continue;
      if (local && !existing.local_override) {
        r.local_override = true;
        existing = std::move(r);
        return;
      }
      yaml_->fail(n["id"], "duplicate rule id '" + r.id + "' (first defined at " + existing.where.str() + ")");
    }
    set_.rules.push_back(std::move(r));
  }

  Vocabulary vocabulary_;
  RuleSet& set_;
  Kind kind_;
  std::optional<StrictYaml> yaml_;  // of the file being loaded
  std::shared_ptr<const YamlTree> tree_;  // of the file being loaded
};

}  // namespace

Json RuleExample::facts() const { return facts_yaml ? yaml_to_json(*facts_yaml) : Json::object(); }

RuleSet load_rule_set(const std::vector<RuleFile>& builtin, const std::vector<RuleFile>& local,
                      const Vocabulary& vocabulary) {
  RuleSet set;
  Loader loader(vocabulary, set);
  for (auto& f : builtin) loader.load_file(f, false);
  for (auto& f : local) loader.load_file(f, true);
  return set;
}

const std::vector<std::string>& capture_names() {
  static const std::vector<std::string> names = {
      "gfx",     "hsa_override", "kernel_release", "package", "library", "path",   "python_version",
      "rocm_version", "torch_version", "node", "app", "device", "group", "command", "module", "firmware",
      "symbol",  "size"};
  return names;
}

const std::vector<std::string>& cause_areas() {
  static const std::vector<std::string> areas = {"kernel",  "hardware", "platform", "wsl",     "container",
                                                 "access",  "install",  "userspace", "arch",   "build",
                                                 "runtime", "multi-gpu", "tools",    "windows"};
  return areas;
}

int cause_area_rank(const std::string& area) {
  auto& areas = cause_areas();
  auto it = std::find(areas.begin(), areas.end(), area);
  return it == areas.end() ? -1 : static_cast<int>(it - areas.begin());
}

// Errors files may also read what the text captured: text.<capture> and
// text.matched (the ids of the signatures that matched).
RuleSet load_error_rule_set(const std::vector<RuleFile>& builtin, const std::vector<RuleFile>& local,
                            const Vocabulary& vocabulary) {
  Vocabulary with_text = vocabulary;
  auto base = vocabulary.is_fact;
  with_text.is_fact = [base](const std::string& path) {
    if (path == "text" || path == "text.matched" || path == "text.matched[]") return true;
    if (path.rfind("text.", 0) == 0) {
      auto& names = capture_names();
      return std::find(names.begin(), names.end(), path.substr(5)) != names.end();
    }
    return !base || base(path);
  };
  RuleSet set;
  Loader loader(with_text, set, Loader::Kind::errors);
  for (auto& f : builtin) loader.load_file(f, false);
  for (auto& f : local) loader.load_file(f, true);
  loader.check_signal_references();
  return set;
}

}  // namespace rocmdoc
