#include "probe/python/torch.h"

#include <algorithm>
#include <map>
#include <optional>

#include "base/text.h"

namespace rocmdoc {

namespace {

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A Python literal as repr() writes it for the fields we read: None, or a
// quoted string without escapes. Anything else (an expression, an
// unrendered template) is not something a text reader can evaluate.
std::optional<Json> python_literal(std::string_view v) {
  std::string value = trim(v);
  if (auto hash = value.find(" #"); hash != std::string::npos && value.front() != '\'' && value.front() != '"')
    value = trim(std::string_view(value).substr(0, hash));
  if (value == "None") return Json(nullptr);
  if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"')) {
    char quote = value.front();
    auto close = value.find(quote, 1);
    if (close == std::string::npos || value.find('\\') < close) return std::nullopt;
    std::string rest = trim(std::string_view(value).substr(close + 1));
    if (!rest.empty() && rest.front() != '#') return std::nullopt;
    return Json(value.substr(1, close - 1));
  }
  return std::nullopt;
}

// "name = value" or "name: Type = value" at the start of a line; the
// name must end there, so "cuda_version = ..." is not "cuda".
struct Assignment {
  std::string name;
  std::string_view value;
};
std::optional<Assignment> assignment(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && identifier_char(line[i])) ++i;
  if (i == 0) return std::nullopt;
  std::string name(line.substr(0, i));
  auto rest = line.substr(i);
  auto eq = rest.find('=');
  if (eq == std::string_view::npos || (eq + 1 < rest.size() && rest[eq + 1] == '=')) return std::nullopt;
  std::string between = trim(rest.substr(0, eq));
  if (!between.empty() && between.front() != ':') return std::nullopt;
  return Assignment{name, rest.substr(eq + 1)};
}

Json decide_build(const std::string& path, const std::map<std::string, Json>& f) {
  auto set = [&](const char* k) { return f.count(k) && f.at(k).is_string(); };
  auto none = [&](const char* k) { return f.count(k) && f.at(k).is_null(); };
  int builds = set("hip") + set("cuda") + set("xpu");
  if (builds > 1) return unknown(path + ": more than one of hip, cuda and xpu is set");
  if (set("hip")) return "rocm";
  if (set("cuda")) return "cuda";
  if (set("xpu")) return "xpu";
  // xpu is absent before torch 2.4: its absence means no XPU build.
  if (none("hip") && none("cuda") && (!f.count("xpu") || none("xpu"))) return "cpu";
  return unknown(path + ": hip and cuda do not both read as None, so the build cannot be told");
}

}  // namespace

Json parse_torch_version_py(const std::string& path, std::string_view text) {
  Json out = Json::object();
  if (looks_binary(text)) {
    Json why = unknown(path + ": binary content, not a Python file");
    for (const char* k : {"version", "hip", "cuda", "build"}) out[k] = why;
    return out;
  }
  std::map<std::string, Json> fields;
  for (auto& raw : split_lines(text)) {
    auto a = assignment(raw);
    if (!a || (a->name != "__version__" && a->name != "hip" && a->name != "cuda" && a->name != "xpu")) continue;
    auto literal = python_literal(a->value);
    if (!literal) {
      fields[a->name] = unknown(path + ": " + a->name + " is not a literal: " + quote_for_reason(trim(a->value)));
    } else if (literal->is_string() && literal->get<std::string>().empty()) {
      fields[a->name] = unknown(path + ": " + a->name + " is an empty string");
    } else {
      fields[a->name] = *literal;  // a later assignment wins, as in Python
    }
  }
  auto field = [&](const char* name, const char* key) -> Json {
    auto it = fields.find(name);
    return it != fields.end() ? it->second : unknown(path + ": no " + key + " line");
  };
  out["version"] = field("__version__", "__version__");
  if (out["version"].is_null()) out["version"] = unknown(path + ": __version__ is None");
  out["hip"] = field("hip", "hip");
  out["cuda"] = field("cuda", "cuda");
  out["build"] = decide_build(path, fields);
  return out;
}

std::string python_version_of_name(std::string_view name) {
  if (!starts_with(name, "python3.")) return "";
  auto minor = name.substr(8);
  if (minor.empty() || minor.size() > 3 || !std::all_of(minor.begin(), minor.end(), [](char c) {
        return c >= '0' && c <= '9';
      }))
    return "";
  return "3." + std::string(minor);
}

std::string python_version_in_path(std::string_view path) {
  for (auto& part : split(path, '/'))
    if (auto v = python_version_of_name(part); !v.empty()) return v;
  return "";
}

}  // namespace rocmdoc
