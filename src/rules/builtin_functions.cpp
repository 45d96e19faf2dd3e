// Functions every condition may call. Matrix look-ups live in matrix.cpp.
#include "rules/expression.h"
#include "base/json_text.h"
#include "base/text.h"
#include "base/version.h"

namespace rocmdoc {

namespace {

Value need_strings(const std::string& fn, const std::vector<Value>& args) {
  for (auto& a : args)
    if (!a.json().is_string()) return Value::unknown(fn + "() needs text, not " + json_text(a.json()));
  return Value::of(true);
}

Function string_test(const std::string& name, bool (*test)(const std::string&, const std::string&)) {
  return {2, 2, false, [name, test](const std::vector<Value>& a, EvalContext&) {
            Value ok = need_strings(name, a);
            if (ok.is_unknown()) return ok;
            return Value::of(test(a[0].json().get<std::string>(), a[1].json().get<std::string>()));
          }};
}

}  // namespace

std::map<std::string, Function> builtin_functions() {
  std::map<std::string, Function> f;
  // known(x): false where x is unknown; the one way to branch on unknown.
  f["known"] = {1, 1, true, [](const std::vector<Value>& a, EvalContext&) { return Value::of(!a[0].is_unknown()); }};
  // default(x, fallback): x, or fallback where x is unknown or null.
  f["default"] = {2, 2, true, [](const std::vector<Value>& a, EvalContext&) {
                    return a[0].is_unknown() || a[0].json().is_null() ? a[1] : a[0];
                  }};
  f["len"] = {1, 1, false, [](const std::vector<Value>& a, EvalContext&) {
                const Json& j = a[0].json();
                if (j.is_array() || j.is_object()) return Value::of(j.size());
                if (j.is_string()) return Value::of(j.get<std::string>().size());
                if (j.is_null()) return Value::of(0);
                return Value::unknown("len() of " + json_text(j));
              }};
  f["lower"] = {1, 1, false, [](const std::vector<Value>& a, EvalContext&) {
                  Value ok = need_strings("lower", a);
                  return ok.is_unknown() ? ok : Value::of(to_lower(a[0].json().get<std::string>()));
                }};
  f["starts_with"] = string_test("starts_with", [](const std::string& s, const std::string& p) { return starts_with(s, p); });
  f["ends_with"] = string_test("ends_with", [](const std::string& s, const std::string& p) { return ends_with(s, p); });
  f["contains"] = string_test("contains", [](const std::string& s, const std::string& p) { return s.find(p) != std::string::npos; });
  f["version_in_series"] = string_test("version_in_series", [](const std::string& v, const std::string& s) {
    return version_in_series(v, s);
  });
  f["version_core"] = {1, 1, false, [](const std::vector<Value>& a, EvalContext&) {
                         Value ok = need_strings("version_core", a);
                         return ok.is_unknown() ? ok : Value::of(version_core(a[0].json().get<std::string>()));
                       }};
  // join(list, separator): a list of texts as one text, for a fix that
  // writes a command per item ("sudo apt install A, or sudo apt install B")
  // where a placeholder alone would print the list joined by ", ".
  f["join"] = {2, 2, false, [](const std::vector<Value>& a, EvalContext&) {
                 const Json& list = a[0].json();
                 if (!list.is_array()) return Value::unknown("join() needs a list, not " + json_text(list));
                 if (!a[1].json().is_string()) return Value::unknown("join() needs a text separator, not " + json_text(a[1].json()));
                 std::string out;
                 for (size_t i = 0; i < list.size(); ++i) {
                   if (!list[i].is_string()) return Value::unknown("join() needs a list of texts, not " + json_text(list[i]));
                   out += (i == 0 ? "" : a[1].json().get<std::string>()) + list[i].get<std::string>();
                 }
                 return Value::of(out);
               }};
  // override_target("10.3.0") is "gfx1030": the target an
  // HSA_OVERRIDE_GFX_VERSION value makes ROCm load, named as gfx targets
  // are, major in decimal, minor and stepping one hex digit each (9.0.10 is
  // gfx90a, 11.5.1 gfx1151). What an app compares with the targets it ships
  // (ollama with its rocBLAS files). Null for a value not of that shape.
  f["override_target"] = {1, 1, false, [](const std::vector<Value>& a, EvalContext&) {
                            Value ok = need_strings("override_target", a);
                            if (ok.is_unknown()) return ok;
                            auto parts = split(a[0].json().get<std::string>(), '.');
                            if (parts.size() != 3) return Value::of(nullptr);
                            std::vector<long> n;
                            for (auto& p : parts) {
                              auto v = parse_int(p);
                              if (!v || *v < 0 || p.empty() || p.size() > 2) return Value::of(nullptr);
                              n.push_back(static_cast<long>(*v));
                            }
                            if (n[0] < 1 || n[1] > 15 || n[2] > 15) return Value::of(nullptr);
                            const char* hex = "0123456789abcdef";
                            return Value::of("gfx" + std::to_string(n[0]) + hex[n[1]] + hex[n[2]]);
                          }};
  return f;
}

}  // namespace rocmdoc
