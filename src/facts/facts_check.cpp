#include "facts/facts_check.h"

#include <algorithm>

#include "base/text.h"
#include "facts/facts_schema.h"

namespace rocmdoc {

namespace {

bool listed(std::string_view name) {
  auto s = fact_schema();
  return std::binary_search(s.begin(), s.end(), name);
}

// Some listed name continues `name` with `next` ('.' or '['): then name is
// an object or a list.
bool continued(const std::string& name, char next) {
  auto s = fact_schema();
  std::string prefix = name + next;
  auto it = std::lower_bound(s.begin(), s.end(), std::string_view(prefix));
  return it != s.end() && it->starts_with(prefix);
}

const char* kind_words(FactKind k) {
  switch (k) {
    case kString: return "a string";
    case kNumber: return "a number";
    case kBoolean: return "a boolean";
  }
  return "a value";
}

// The value as the message quotes it: a string in quotes with control bytes
// escaped, a number or boolean as written; never long.
std::string shown(const Json& v) {
  if (v.is_string()) return quote_for_reason(v.get_ref<const std::string&>(), 40);
  std::string text = v.dump();
  if (text.size() > 40) {
    text.resize(40);
    text += "...";
  }
  return text;
}

std::string value_words(const Json& v) {
  if (v.is_string()) return "a string (" + shown(v) + ")";
  if (v.is_number()) return "a number (" + shown(v) + ")";
  if (v.is_boolean()) return "a boolean (" + shown(v) + ")";
  if (v.is_array()) return "a list";
  return "an object";
}

struct Checker {
  std::optional<std::string> problem;

  bool fail(const std::string& name, std::string why) {
    problem = name + ": " + std::move(why);
    return false;
  }

  // A name with nothing listed below it. With a kind it holds that kind;
  // without one the schema has only seen it empty (a list, an object) or not
  // at all, and it is taken as it is. shown_as: the place for the message (a
  // key under an open "X.*" object).
  bool leaf(const std::string& name, const Json& v, const std::string& shown_as = "") {
    const std::string& where = shown_as.empty() ? name : shown_as;
    auto kinds = fact_kinds();
    auto it = std::lower_bound(kinds.begin(), kinds.end(), std::string_view(name),
                               [](const FactKindEntry& e, std::string_view n) { return e.name < n; });
    if (it == kinds.end() || it->name != name) return true;
    bool ok = (it->kind == kString && v.is_string()) || (it->kind == kNumber && v.is_number()) ||
              (it->kind == kBoolean && v.is_boolean());
    return ok || fail(where, value_words(v) + ", where the fact is " + kind_words(it->kind));
  }

  bool walk(const std::string& name, const Json& v) {
    if (v.is_null() || is_unknown(v)) return true;
    if (v.is_object() && v.contains("unknown"))
      return fail(name, "an unknown value is {\"unknown\": \"<reason>\"} and nothing else");
    if (!name.empty() && !is_fact_path(name)) return fail(name, "not a fact of schema 1 (docs/facts.md lists them)");
    bool list = !name.empty() && continued(name, '[');
    bool object = name.empty() || continued(name, '.');
    if (list) {
      if (!v.is_array()) return fail(name, value_words(v) + ", where the fact is a list");
      for (auto& e : v)
        if (!walk(name + "[]", e)) return false;
      return true;
    }
    if (object) {
      if (!v.is_object()) return fail(name, value_words(v) + ", where the fact is an object");
      bool open = listed(name + ".*");  // any key, each a single value
      for (auto& [k, e] : v.items()) {
        if (name.empty() && (k == "schema" || k == "generator" || k == "source" || k == "commands_run")) continue;
        std::string child = name.empty() ? k : name + "." + k;
        if (open) {
          if (!(e.is_null() || is_unknown(e)) && !leaf(name + ".*", e, child)) return false;
        } else if (!walk(child, e)) {
          return false;
        }
      }
      return true;
    }
    return leaf(name, v);
  }
};

}  // namespace

std::optional<std::string> check_facts_shape(const Json& doc) {
  Checker c;
  c.walk("", doc);
  return c.problem;
}

}  // namespace rocmdoc
