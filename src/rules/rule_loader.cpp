#include <re2/re2.h>

#include <algorithm>
#include <memory>
#include <set>

#include "rules/rule_loader.h"
#include "rules/pattern_options.h"
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

// A word a shell would expand "~" in (its start, or after '=' as in
// --prefix=~/x): an argv reaches the program as written, so `python3 -m venv
// ~/rocm-venv` would make a directory named "~" wherever fix runs.
bool needs_shell_tilde(const std::string& word) { return word.starts_with("~") || word.find("=~") != std::string::npos; }

// The first path into explain's text that a condition reads, "" for none:
// a problem's `when` (what check fires on) and a symptom's not_here are
// judged on a machine's facts, where there is no text.
std::string text_path_read(const Expr& condition) {
  for (auto& path : referenced_paths(condition))
    if (path == "text" || starts_with(path, "text.")) return path;
  return "";
}

class Loader {
 public:
  Loader(const Vocabulary& vocabulary, RuleSet& set, const LoadOptions& options)
      : vocabulary_(vocabulary), set_(set), options_(options) {
    vocabulary_.lists.insert(set.lists.begin(), set.lists.end());
    vocabulary_.macros.insert(set.macros.begin(), set.macros.end());
  }

  void load_file(const RuleFile& file, bool local) {
    yaml_.emplace(file.name, set_.errors);
    built_in_ = !file.packed.empty();
    compile_patterns_ = options_.compile_patterns && (options_.compile_built_in_patterns || !built_in_);
    auto parsed = rule_file_tree(file, set_.errors);
    if (!parsed) return;
    // Shared with the problems' examples, which point into it.
    tree_ = std::make_shared<const YamlTree>(std::move(*parsed));
    const YamlNode& doc = tree_->root();
    if (doc.is_null()) return;
    try {
      yaml_->mapping(doc, "a catalogue file is a mapping with fragments, lists, macros, signatures, origins, symptoms and problems");
      for (const char* former : {"rules", "causes"})
        if (doc[former])
          yaml_->fail(doc[former], std::string("'") + former +
                                       "' is now 'problems': check rules and explain causes are one list (docs/rules.md)");
      yaml_->allow_keys(doc, {"fragments", "lists", "macros", "signatures", "origins", "symptoms", "problems"});
      each(doc, "fragments", [&](const YamlNode& n) { load_fragment(n); });
      if (doc["lists"]) for (auto& n : yaml_->list(doc["lists"], "lists")) load_list(n);
      if (doc["macros"]) for (auto& n : yaml_->list(doc["macros"], "macros")) load_macro(n);
      each(doc, "signatures", [&](const YamlNode& n) { load_signature(n); });
      each(doc, "origins", [&](const YamlNode& n) { load_origin(n); });
      each(doc, "symptoms", [&](const YamlNode& n) { load_symptom(n); });
      each(doc, "problems", [&](const YamlNode& n) { load_problem(n, local); });
    } catch (const StrictYaml::Failure& f) {
      set_.errors.push_back(f.error);
    }
  }

  // Signals and symptoms may name what another file defines: checked once
  // all are loaded.
  void check_references() {
    std::map<std::string, bool> signatures;  // id -> context
    for (auto& s : set_.signatures) signatures[s.id] = s.context;
    auto check_signals = [&](const std::vector<Signal>& signals, const std::string& owner) {
      for (auto& sig : signals) {
        auto it = signatures.find(sig.signature);
        if (it == signatures.end())
          set_.errors.push_back({sig.where, owner + ": unknown signature '" + sig.signature + "'"});
        else if (it->second)
          set_.errors.push_back({sig.where, owner + ": '" + sig.signature +
                                                "' is a context signature: it captures a value and points to nothing"});
      }
    };
    std::map<std::string, SourceLocation> names;  // ids and aliases
    for (auto& p : set_.problems) {
      check_signals(p.signals, "problem '" + p.rule.id + "'");
      names.emplace(p.rule.id, p.rule.where);
    }
    for (auto& p : set_.problems)
      for (auto& alias : p.aliases) {
        auto [it, fresh] = names.emplace(alias, p.rule.where);
        if (!fresh)
          set_.errors.push_back({p.rule.where, "problem '" + p.rule.id + "': alias '" + alias +
                                                   "' is already the id or alias of the problem at " + it->second.str()});
      }
    // leads_to names other problems, and never back: the root of two
    // problems that lead to each other is no answer.
    for (auto& p : set_.problems)
      for (auto& id : p.leads_to) {
        const Problem* led = nullptr;
        for (auto& q : set_.problems)
          if (q.has_id(id)) led = &q;
        if (!led) set_.errors.push_back({p.leads_to_where, "problem '" + p.rule.id + "': leads_to names an unknown problem '" + id + "'"});
        else if (led == &p) set_.errors.push_back({p.leads_to_where, "problem '" + p.rule.id + "' cannot lead to itself"});
        else
          for (auto& back : led->leads_to)
            if (p.has_id(back))
              set_.errors.push_back({p.leads_to_where, "problem '" + p.rule.id + "' leads to '" + led->rule.id +
                                                           "', which leads back to it"});
      }
    // gives_way_to names other problems, each one checked on facts (it is
    // confirmed by them or not at all).
    for (auto& p : set_.problems)
      for (auto& id : p.gives_way_to) {
        const Problem* specific = nullptr;
        for (auto& q : set_.problems)
          if (q.has_id(id)) specific = &q;
        if (!specific)
          set_.errors.push_back({p.gives_way_to_where, "problem '" + p.rule.id + "': gives_way_to names an unknown problem '" + id + "'"});
        else if (specific == &p)
          set_.errors.push_back({p.gives_way_to_where, "problem '" + p.rule.id + "' cannot give way to itself"});
        else if (!specific->rule.when)
          set_.errors.push_back({p.gives_way_to_where, "problem '" + p.rule.id + "': gives_way_to names '" + id +
                                                           "', which has no 'when': the facts never confirm it"});
      }
    std::set<std::string> listed;
    for (auto& s : set_.symptoms) {
      check_signals(s.signals, "symptom '" + s.id + "'");
      std::set<std::string> seen;
      for (auto& id : s.problems) {
        if (!names.count(id)) set_.errors.push_back({s.where, "symptom '" + s.id + "': unknown problem '" + id + "'"});
        if (!seen.insert(id).second)
          set_.errors.push_back({s.where, "symptom '" + s.id + "' lists '" + id + "' twice"});
        listed.insert(id);
      }
    }
    // needs_set looks for the variable in the lines of the signatures that
    // show it; a signature that shows a variable no problem needs is a slip.
    std::set<std::string> needed;
    for (auto& p : set_.problems)
      for (auto& need : p.needs_set) {
        needed.insert(need.variable);
        for (auto& s : set_.signatures)
          if (std::find(s.shows_set.begin(), s.shows_set.end(), need.variable) != s.shows_set.end())
            need.shown_by.push_back(s.id);
      }
    for (auto& s : set_.signatures)
      for (auto& v : s.shows_set)
        if (!needed.count(v))
          set_.errors.push_back({s.where, "signature '" + s.id + "': shows_set " + v + ", but no problem's needs_set names it"});
    for (auto& p : set_.problems) {
      bool in_symptom = listed.count(p.rule.id) > 0;
      for (auto& alias : p.aliases) in_symptom = in_symptom || listed.count(alias) > 0;
      if (!p.rule.when && p.signals.empty() && !in_symptom)
        set_.errors.push_back({p.rule.where, "problem '" + p.rule.id +
                                                 "' has no condition ('when'), no signals and no symptom lists it: "
                                                 "nothing can find it"});
    }
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
      if (path.find('(') != std::string::npos) {
        // A call: checked as a condition is (its function, arguments and facts).
        ParseError err;
        auto parsed = parse_expression(path, vocabulary(), item_path, &err);
        if (!parsed) yaml_->fail(n, "'" + what + "': in {" + path + "}: " + err.message);
        t.placeholders.push_back(path);
        t.calls.push_back(*parsed);
        continue;
      }
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
      t.calls.push_back(nullptr);
    }
    return t;
  }

  FixStep load_step(const YamlNode& s, const std::string& item_path) {
    yaml_->mapping(s, "a step is a mapping with 'text' and optionally 'run', 'sudo' and 'when'");
    yaml_->allow_keys(s, {"text", "run", "sudo", "when"});
    FixStep step;
    if (s["when"]) step.when = condition(s["when"], item_path);
    step.text = templ(yaml_->required(s, "text"), "text", item_path);
    if (s["run"])
      for (auto& a : yaml_->list(s["run"], "run")) {
        if (needs_shell_tilde(yaml_->text(a, "run")))
          yaml_->fail(a, "a 'run' word cannot start with '~' (or have '=~'): no shell expands it; name the path "
                         "from a fact, or write the command in the step's text for a person to run");
        step.argv.push_back(templ(a, "run", item_path));
      }
    if (s["sudo"]) step.sudo = yaml_->flag(s["sudo"], "sudo");
    return step;
  }

  Fix load_fix(const YamlNode& n, const std::string& item_path) {
    yaml_->mapping(n, "'fix' must be a mapping with steps");
    yaml_->allow_keys(n, {"steps", "reboot", "relogin", "verify"});
    Fix fix;
    for (auto& s : yaml_->list(yaml_->required(n, "steps"), "steps")) fix.steps.push_back(load_step(s, item_path));
    if (n["reboot"]) fix.reboot = yaml_->flag(n["reboot"], "reboot");
    if (n["relogin"]) fix.relogin = yaml_->flag(n["relogin"], "relogin");
    if (n["verify"])
      for (auto& a : yaml_->list(n["verify"], "verify")) {
        if (needs_shell_tilde(yaml_->text(a, "verify")))
          yaml_->fail(a, "a 'verify' word cannot start with '~' (or have '=~'): no shell expands it");
        fix.verify.push_back(templ(a, "verify", item_path));
      }
    return fix;
  }

  void load_examples(Rule& rule, const YamlNode& n) const {
    for (auto& e : yaml_->list(n, "examples")) {
      yaml_->mapping(e, "an example is a mapping with name, facts and expect");
      yaml_->allow_keys(e, {"name", "facts", "expect", "fix_steps"});
      RuleExample ex;
      ex.where = yaml_->at(e);
      ex.name = yaml_->text(yaml_->required(e, "name"), "name");
      ex.tree = tree_;
      ex.facts_yaml = &yaml_->required(e, "facts");
      if (!ex.facts_yaml->is_map()) yaml_->fail(e["facts"], "'facts' must be a mapping (a partial facts document)");
      ex.expect = yaml_->text(yaml_->required(e, "expect"), "expect");
      if (ex.expect != "fire" && ex.expect != "pass" && ex.expect != "unknown" && ex.expect != "unseen" &&
          ex.expect != "likely")
        yaml_->fail(e["expect"], "'expect' is fire, pass, unknown, unseen or likely");
      if (e["fix_steps"]) {
        ex.fix_steps = yaml_->integer(e["fix_steps"], "fix_steps");
        if (ex.expect != "fire" || ex.facts_yaml->find("text"))
          yaml_->fail(e["fix_steps"], "'fix_steps' is for an example that fires on facts (expect: fire, no 'text')");
        if (ex.fix_steps < 0 || static_cast<size_t>(ex.fix_steps) > rule.fix.steps.size())
          yaml_->fail(e["fix_steps"], "'fix_steps' counts the fix's steps shown: 0 to " + std::to_string(rule.fix.steps.size()));
      }
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
  void load_rule_text(Rule& r, const YamlNode& n, const std::string& item_path) {
    r.title = templ(yaml_->required(n, "title"), "title", item_path);
    if (n["summary"]) {
      r.summary = yaml_->text(n["summary"], "summary");
      if (r.summary.find_first_of("{}") != std::string::npos)
        yaml_->fail(n["summary"], "'summary' is the title without facts: it names none ({...})");
      if (r.summary.empty()) yaml_->fail(n["summary"], "'summary' is empty");
    }
    r.why = templ(yaml_->required(n, "why"), "why", item_path);
    r.fix = load_fix(yaml_->required(n, "fix"), item_path);
    r.sources = yaml_->texts(yaml_->required(n, "sources"), "sources");
    if (r.sources.empty()) yaml_->fail(n["sources"], "a rule names at least one source");
  }

  Severity severity(const YamlNode& n, bool& benign) const {
    std::string severity = yaml_->text(n, "severity");
    benign = severity == "benign";
    if (severity == "error") return Severity::error;
    if (severity == "warning") return Severity::warning;
    if (severity == "info" || benign) return Severity::info;
    yaml_->fail(n, "severity is error, warning, info or benign");
  }

  void load_problem(const YamlNode& n, bool local) {
    yaml_->mapping(n, "a problem is a mapping");
    yaml_->allow_keys(n, {"id", "aliases", "area", "layer", "severity", "platforms", "for_each", "when", "signals",
                          "when_in_text", "ruled_out_in_text", "likely_in_text", "item_in_text", "confirm", "needs_set", "leads_to", "gives_way_to",
                          "install_note", "title", "summary", "why", "fix", "sources", "examples"});
    Problem p;
    Rule& r = p.rule;
    r.where = yaml_->at(n);
    r.id = identifier(yaml_->required(n, "id"), "id");
    if (n["aliases"])
      for (auto& a : yaml_->list(n["aliases"], "aliases")) p.aliases.push_back(identifier(a, "alias"));
    r.area = yaml_->text(yaml_->required(n, "area"), "area");
    bool area_ok = false;
    for (auto& [key, label] : rule_areas()) area_ok = area_ok || key == r.area;
    if (!area_ok) yaml_->fail(n["area"], "unknown area '" + r.area + "' (system, gpu, driver, access, firmware, rocm, python)");
    p.layer = n["layer"] ? yaml_->text(n["layer"], "layer") : default_layer(r.area);
    if (cause_area_rank(p.layer) < 0) yaml_->fail(n["layer"], "unknown layer '" + p.layer + "' (see docs/explain.md)");
    r.severity = severity(yaml_->required(n, "severity"), p.benign);
    if (n["platforms"]) {
      r.platforms = yaml_->texts(n["platforms"], "platforms");
      static const std::set<std::string> kinds = {"bare_metal", "vm", "container", "wsl2"};
      for (auto& pl : r.platforms)
        if (!kinds.count(pl)) yaml_->fail(n["platforms"], "unknown platform '" + pl + "' (bare_metal, vm, container, wsl2)");
    }
    std::string item_path;
    if (n["for_each"]) {
      r.for_each = yaml_->text(n["for_each"], "for_each");
      if (vocabulary_.is_fact && !vocabulary_.is_fact(r.for_each)) yaml_->fail(n["for_each"], "unknown fact '" + r.for_each + "'");
      item_path = r.for_each + "[]";
    }
    if (n["when"]) {
      r.when_text = yaml_->text(n["when"], "when");
      r.when = condition(n["when"], item_path);
      // check has no text: a condition on it belongs in when_in_text.
      if (std::string path = text_path_read(*r.when); !path.empty())
        yaml_->fail(n["when"], "'when' is what check fires on and cannot read " + path + "; put it in 'when_in_text'");
    }
    if (n["signals"]) {
      for (auto& s : yaml_->list(n["signals"], "signals")) p.signals.push_back(load_signal(s));
      if (p.signals.empty()) yaml_->fail(n["signals"], "'signals' lists at least one signal");
    }
    if (n["when_in_text"]) p.when_in_text = condition(n["when_in_text"], "");
    if (n["ruled_out_in_text"]) p.ruled_out_in_text = condition(n["ruled_out_in_text"], "");
    if (n["likely_in_text"]) p.likely_in_text = condition(n["likely_in_text"], "");
    if (n["item_in_text"]) {
      p.item_in_text = condition(n["item_in_text"], "");
      if (r.for_each.empty() || !r.when)
        yaml_->fail(n["item_in_text"], "'item_in_text' is for a problem with 'for_each' and 'when': it says the list's item exists");
    }
    if (n["confirm"] && n["confirm"].is_sequence()) {
      for (auto& s : yaml_->list(n["confirm"], "confirm")) p.confirm.push_back(load_step(s, ""));
      // The last step, without `when`, is for a machine none fits (and the
      // text alone, where every fact is unknown); a step without `when`
      // before it would hide every step after it.
      for (size_t i = 0; i < p.confirm.size(); ++i)
        if ((p.confirm[i].when != nullptr) == (i + 1 == p.confirm.size()))
          yaml_->fail(n["confirm"].children[i],
                      "in a 'confirm' list every step but the last has a 'when', and the last has none: it is the one "
                      "shown where no other fits");
    } else if (n["confirm"]) {
      p.confirm.push_back(load_step(n["confirm"], ""));
    }
    if (n["needs_set"]) {
      for (auto& item : yaml_->list(n["needs_set"], "needs_set")) p.needs_set.push_back(needed_setting(item));
      if (p.needs_set.empty()) yaml_->fail(n["needs_set"], "'needs_set' names at least one variable");
    }
    if (n["leads_to"]) {
      p.leads_to_where = yaml_->at(n["leads_to"]);
      for (auto& id : yaml_->list(n["leads_to"], "leads_to")) p.leads_to.push_back(identifier(id, "leads_to"));
      if (p.leads_to.empty()) yaml_->fail(n["leads_to"], "'leads_to' names at least one problem");
    }
    if (n["gives_way_to"]) {
      p.gives_way_to_where = yaml_->at(n["gives_way_to"]);
      for (auto& id : yaml_->list(n["gives_way_to"], "gives_way_to")) p.gives_way_to.push_back(identifier(id, "gives_way_to"));
      if (p.gives_way_to.empty()) yaml_->fail(n["gives_way_to"], "'gives_way_to' names at least one problem");
      if (!r.when) yaml_->fail(n["gives_way_to"], "'gives_way_to' needs 'when': it names the problems whose facts 'when' leaves out");
    }
    if (n["install_note"]) {
      p.install_note = yaml_->flag(n["install_note"], "install_note");
      if (p.install_note && !r.when) yaml_->fail(n["install_note"], "'install_note' needs 'when': install reads the facts, not a text");
    }
    load_rule_text(r, n, item_path);
    // What check fires on must be shown to fire and to pass.
    if (r.when) load_examples(r, yaml_->required(n, "examples"));
    else if (n["examples"]) load_examples(r, n["examples"]);
    // "unseen" is explain's verdict on a text that does not show the
    // variable: it needs both a text and something to look for in it.
    // "likely" is explain's word for an open problem its likely_in_text
    // raises: it needs that condition and a text to read it on.
    for (auto& ex : r.examples) {
      bool unseen = ex.expect == "unseen", likely = ex.expect == "likely";
      if (!unseen && !likely) continue;
      bool has_key = unseen ? !p.needs_set.empty() : p.likely_in_text != nullptr;
      std::string key = unseen ? "needs_set" : "likely_in_text";
      if (!has_key) yaml_->fail(*ex.facts_yaml, "'expect: " + ex.expect + "' is for a problem with '" + key + "'");
      else if (!ex.facts_yaml->find("text"))
        yaml_->fail(*ex.facts_yaml, "'expect: " + ex.expect + "' is explain's verdict on a text: the facts need a 'text' section");
    }
    if (!options_.keep_examples) r.examples.clear();
    place(p, n, local);
  }

  // A variable the problem needs set: its name, or {variable, fact} when
  // the facts record it under another path (LD_LIBRARY_PATH's ROCm entries
  // are env.ld_library_path_rocm_entries).
  NeededSetting needed_setting(const YamlNode& n) const {
    NeededSetting s;
    s.where = yaml_->at(n);
    const YamlNode* name = &n;
    if (n.is_map()) {
      yaml_->allow_keys(n, {"variable", "fact"});
      name = &yaml_->required(n, "variable");
    }
    s.variable = variable_name(*name);
    s.fact = n.is_map() && n["fact"] ? yaml_->text(n["fact"], "fact") : "env." + s.variable;
    if (starts_with(s.fact, "text"))
      yaml_->fail(n.is_map() && n["fact"] ? n["fact"] : n, "'needs_set' names a machine fact; the text shows a variable through a signature's 'shows_set'");
    if (vocabulary_.is_fact && !vocabulary_.is_fact(s.fact))
      yaml_->fail(n.is_map() && n["fact"] ? n["fact"] : n,
                  "no fact '" + s.fact + "' records " + s.variable + "; write {variable: " + s.variable + ", fact: PATH}");
    return s;
  }

  std::string variable_name(const YamlNode& n) const {
    std::string v = yaml_->text(n, "variable");
    bool ok = !v.empty() && !std::isdigit(static_cast<unsigned char>(v[0]));
    for (char c : v) ok = ok && (std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_');
    if (!ok) yaml_->fail(n, "an environment variable's name, in capitals ('" + v + "')");
    return v;
  }

  static std::string default_layer(const std::string& area) {
    static const std::map<std::string, std::string> layers = {
        {"system", "platform"}, {"gpu", "arch"},       {"driver", "kernel"},  {"access", "access"},
        {"firmware", "hardware"}, {"rocm", "install"}, {"python", "userspace"}};
    return layers.at(area);
  }

  void load_symptom(const YamlNode& n) {
    yaml_->mapping(n, "a symptom is a mapping with id, title, signals and problems");
    yaml_->allow_keys(n, {"id", "title", "signals", "problems", "not_here"});
    Symptom s;
    s.where = yaml_->at(n);
    s.id = identifier(yaml_->required(n, "id"), "id");
    s.title = yaml_->text(yaml_->required(n, "title"), "title");
    for (auto& sig : yaml_->list(yaml_->required(n, "signals"), "signals")) s.signals.push_back(load_signal(sig));
    if (s.signals.empty()) yaml_->fail(n["signals"], "a symptom needs at least one signal");
    s.problems = yaml_->texts(yaml_->required(n, "problems"), "problems");
    if (s.problems.empty()) yaml_->fail(n["problems"], "a symptom lists the problems that produce it");
    if (n["not_here"]) load_not_here(s, n["not_here"]);
    for (auto& other : set_.symptoms)
      if (other.id == s.id) yaml_->fail(n["id"], "duplicate symptom id '" + s.id + "' (first defined at " + other.where.str() + ")");
    set_.symptoms.push_back(std::move(s));
  }

  // A symptom's `not_here`: a condition on facts (as a check rule's `when`,
  // never the text) and the sentence `says`, with examples that show it
  // holding (expect: fire) and not (pass).
  void load_not_here(Symptom& s, const YamlNode& n) {
    yaml_->mapping(n, "'not_here' is a mapping with when, says and examples");
    yaml_->allow_keys(n, {"when", "says", "examples"});
    Rule& r = s.not_here;
    r.where = yaml_->at(n);
    r.id = s.id;
    r.area = "system";
    r.severity = Severity::info;
    const YamlNode& when = yaml_->required(n, "when");
    r.when_text = yaml_->text(when, "when");
    r.when = condition(when, "");
    if (std::string path = text_path_read(*r.when); !path.empty())
      yaml_->fail(when, "'not_here' reads the machine's facts, not the text (" + path + ")");
    r.title = templ(yaml_->required(n, "says"), "says", "");
    load_examples(r, yaml_->required(n, "examples"));
    for (auto& ex : r.examples) {
      if (ex.expect != "fire" && ex.expect != "pass" && ex.expect != "unknown")
        yaml_->fail(*ex.facts_yaml, "a 'not_here' example expects fire (it holds), pass or unknown");
      if (ex.fix_steps >= 0) yaml_->fail(*ex.facts_yaml, "a 'not_here' example has no fix to count ('fix_steps')");
    }
    if (!options_.keep_examples) r.examples.clear();
  }

  // A pattern as RE2 will see it: its fragments expanded (pattern_fragments.h),
  // and compiled here so a bad one is reported where it is written (with a
  // smaller memory budget than the scanner's, so what compiles here
  // compiles there); the scanner then trusts it (Signature::compiles).
  // Built-in files are compiled here only where LoadOptions asks.
  std::string read_pattern(const YamlNode& n, const char* what, bool captures_allowed) const {
    auto pattern = expand_fragments(one_line_pattern(n, what), set_.fragments);
    if (!pattern) yaml_->fail(n, pattern.error());
    if (compile_patterns_) compile_pattern(n, *pattern, captures_allowed);
    return std::move(pattern.value());
  }

  // A pattern's text as written.
  std::string one_line_pattern(const YamlNode& n, const char* what) const {
    std::string text = yaml_->text(n, what);
    if (text.find_first_of("\r\n") != std::string::npos)
      yaml_->fail(n, "a pattern matches within one line; it cannot hold a line break");
    return text;
  }

  void compile_pattern(const YamlNode& n, const std::string& pattern, bool captures_allowed) const {
    RE2 re(pattern, rule_pattern_options());
    if (!re.ok()) yaml_->fail(n, "not an RE2 pattern: " + re.error());
    auto& names = capture_names();
    for (auto& [name, index] : re.NamedCapturingGroups()) {
      (void)index;
      if (!captures_allowed) yaml_->fail(n, "this pattern captures nothing; remove (?P<" + name + ">");
      if (std::find(names.begin(), names.end(), name) == names.end())
        yaml_->fail(n, "unknown capture name '" + name + "' (see docs/explain.md)");
    }
  }

  // A fragment names no other one: one level keeps each fragment's meaning
  // in its own few characters, and there is no cycle to look for. It is
  // always compiled (a few small patterns), so that one no pattern uses yet
  // is still checked.
  void load_fragment(const YamlNode& n) {
    yaml_->mapping(n, "a fragment is a mapping with fragment, pattern and examples");
    yaml_->allow_keys(n, {"fragment", "pattern", "examples"});
    PatternFragment f;
    f.where = yaml_->at(n);
    f.name = yaml_->text(yaml_->required(n, "fragment"), "fragment");
    if (!is_fragment_name(f.name)) yaml_->fail(n["fragment"], "a fragment's name is lower-case words joined by '_' ('" + f.name + "')");
    const YamlNode& pattern = yaml_->required(n, "pattern");
    f.pattern = one_line_pattern(pattern, "pattern");
    auto inner = next_fragment_reference(f.pattern, 0);
    if (!inner) yaml_->fail(pattern, inner.error());
    if (*inner) yaml_->fail(pattern, "a fragment cannot name another fragment ((?&" + std::string((*inner)->name) + ")): write it out");
    compile_pattern(pattern, f.pattern, false);
    const YamlNode& ex = yaml_->required(n, "examples");
    yaml_->mapping(ex, "'examples' is a mapping with match and no_match");
    yaml_->allow_keys(ex, {"match", "no_match"});
    for (const char* key : {"match", "no_match"}) {
      if (!ex[key]) continue;
      for (auto& e : yaml_->list(ex[key], key))
        f.examples.push_back({yaml_->text(e, "example line"), std::string(key) == "match", {}, yaml_->at(e)});
    }
    if (!options_.keep_examples) f.examples.clear();
    if (auto it = set_.fragments.find(f.name); it != set_.fragments.end())
      yaml_->fail(n["fragment"], "fragment '" + f.name + "' is defined twice (first at " + it->second.where.str() + ")");
    std::string name = f.name;
    set_.fragments.emplace(std::move(name), std::move(f));
  }

  void load_signature(const YamlNode& n) {
    yaml_->mapping(n, "a signature is a mapping with id, pattern and examples");
    yaml_->allow_keys(n, {"id", "pattern", "after", "unless", "scan_kernel_log", "context", "shows_set", "examples"});
    Signature s;
    s.where = yaml_->at(n);
    s.id = identifier(yaml_->required(n, "id"), "id");
    yaml_->required(n, "pattern");
    if (n["scan_kernel_log"]) s.scan_kernel_log = yaml_->flag(n["scan_kernel_log"], "scan_kernel_log");
    if (n["context"]) s.context = yaml_->flag(n["context"], "context");
    if (n["shows_set"])
      for (auto& v : yaml_->list(n["shows_set"], "shows_set")) s.shows_set.push_back(variable_name(v));
    s.pattern = read_pattern(n["pattern"], "pattern", true);
    if (n["after"]) {
      s.after = read_pattern(n["after"], "after", false);
      // check matches the kernel log's lines one by one, without their order.
      if (s.scan_kernel_log) yaml_->fail(n["after"], "a signature with 'after' cannot scan_kernel_log");
    }
    if (n["unless"]) {
      s.unless = read_pattern(n["unless"], "unless", false);
      // The kernel log's set matches patterns alone; a kernel message denies nothing.
      if (s.scan_kernel_log) yaml_->fail(n["unless"], "a signature with 'unless' cannot scan_kernel_log");
    }
    if (s.context && RE2(s.pattern).NumberOfCapturingGroups() == 0)
      yaml_->fail(n["pattern"], "a context signature captures a value: its pattern needs a named group");
    const YamlNode& ex = yaml_->required(n, "examples");
    yaml_->mapping(ex, "'examples' is a mapping with match and no_match");
    yaml_->allow_keys(ex, {"match", "no_match"});
    for (const char* key : {"match", "no_match"}) {
      if (!ex[key]) continue;
      for (auto& e : yaml_->list(ex[key], key)) s.examples.push_back(signature_example(e, std::string(key) == "match"));
    }
    for (auto& e : s.examples)
      if (e.match) s.example_words += e.line + "\n";
    if (!options_.keep_examples) s.examples.clear();
    s.compiles = compile_patterns_ || built_in_;  // a failure above threw
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
    o.pattern = read_pattern(yaml_->required(n, "pattern"), "pattern", false);
    set_.origins.push_back(std::move(o));
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

  void place(Problem& p, const YamlNode& n, bool local) {
    for (auto& existing : set_.problems) {
      if (existing.rule.id != p.rule.id) continue;
      if (local && !existing.rule.local_override) {
        p.rule.local_override = true;
        existing = std::move(p);
        return;
      }
      yaml_->fail(n["id"], "duplicate problem id '" + p.rule.id + "' (first defined at " + existing.rule.where.str() + ")");
    }
    set_.problems.push_back(std::move(p));
  }

  Vocabulary vocabulary_;
  RuleSet& set_;
  LoadOptions options_;
  bool compile_patterns_ = true;  // in the file being read (LoadOptions)
  bool built_in_ = false;          // the file being read is packed in the binary
  std::optional<StrictYaml> yaml_;  // of the file being loaded
  std::shared_ptr<const YamlTree> tree_;  // of the file being loaded
};

}  // namespace

Json RuleExample::facts() const { return facts_yaml ? yaml_to_json(*facts_yaml) : Json::object(); }

const Problem* RuleSet::find(const std::string& id) const {
  for (auto& p : problems)
    if (p.has_id(id)) return &p;
  return nullptr;
}

bool Problem::has_id(const std::string& id) const {
  return rule.id == id || std::find(aliases.begin(), aliases.end(), id) != aliases.end();
}

const std::vector<std::string>& capture_names() {
  static const std::vector<std::string> names = {
      "gfx",     "hsa_override", "kernel_release", "package", "library", "path",   "python_version",
      "rocm_version", "torch_version", "node", "app", "device", "group", "command", "module", "firmware",
      "symbol",  "size", "gpu_name"};
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

// Conditions may read what a text captured, text.<capture>, text.matched
// (the ids of the signatures that matched) and text.origins (the programs it
// seems to come from, origins.yaml); load_problem keeps
// them out of `when`, which check runs without a text.
RuleSet load_rule_set(const std::vector<RuleFile>& builtin, const std::vector<RuleFile>& local,
                      const Vocabulary& vocabulary, const LoadOptions& options) {
  Vocabulary with_text = vocabulary;
  auto base = vocabulary.is_fact;
  with_text.is_fact = [base](const std::string& path) {
    if (path == "text" || path == "text.matched" || path == "text.matched[]" || path == "text.from_machine" ||
        path == "text.from_machine[]" || path == "text.origins" || path == "text.origins[]")
      return true;
    if (path.rfind("text.", 0) == 0) {
      auto& names = capture_names();
      return std::find(names.begin(), names.end(), path.substr(5)) != names.end();
    }
    return !base || base(path);
  };
  RuleSet set;
  Loader loader(with_text, set, options);
  for (auto& f : builtin) loader.load_file(f, false);
  for (auto& f : local) loader.load_file(f, true);
  loader.check_references();
  return set;
}

}  // namespace rocmdoc
