// The one strict reader of rules/ YAML (check rules, explain causes, install
// recipes, the matrix): every key allowed by name, every value of the type
// asked for, every problem a LoadError at file:line:column, in one wording:
//
//   rules/matrix/gpus.yaml:12:5: unknown key 'asci' (allowed: device_id, asic, ...)
//   rules/install/releases.yaml:30:3: missing 'version'
//   rules/checks/gpu.yaml:8:11: 'sudo' must be true or false
//
// A reader method that finds a problem throws StrictYaml::Failure; each()
// and read() catch it, record it and carry on with the next item, so one
// load reports every bad entry rather than only the first.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/yaml_tree.h"

namespace rocmdoc {

// Where a loaded thing came from, for messages: "rules/checks/access.yaml:12:5".
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string str() const;  // "file:line:column", or just "file" without a line
};

struct LoadError {
  SourceLocation where;
  std::string message;
  // A message that already starts with its file (a directory that cannot be
  // read says so itself) is not given the file twice.
  std::string str() const {
    if (where.line == 0 && !where.file.empty() && message.rfind(where.file + ": ", 0) == 0) return message;
    return where.str() + ": " + message;
  }
};

class StrictYaml {
 public:
  struct Failure {
    LoadError error;
  };

  // file: the name messages show. errors: where each() and read() record.
  StrictYaml(std::string file, std::vector<LoadError>& errors) : file_(std::move(file)), errors_(&errors) {}

  const std::string& file() const { return file_; }
  SourceLocation at(const YamlNode& n) const { return {file_, n.line, n.column}; }
  LoadError error(const YamlNode& n, const std::string& message) const { return {at(n), message}; }
  [[noreturn]] void fail(const YamlNode& n, const std::string& message) const;

  // Fails with `message` unless n is a mapping.
  void mapping(const YamlNode& n, std::string_view message) const;
  // A mapping whose keys are all in `keys` ("expected a mapping" otherwise).
  void allow_keys(const YamlNode& map, std::initializer_list<std::string_view> keys) const;
  // The value under key, or a failure at the map ("missing 'key'").
  const YamlNode& required(const YamlNode& map, std::string_view key) const;

  // Typed values. `what` names the value in the message ("'what' must be ...").
  std::span<const YamlNode> list(const YamlNode& n, std::string_view what) const;
  // Any scalar: what the rule and recipe files hold (weight: 1 is the text "1").
  std::string text(const YamlNode& n, std::string_view what) const;
  std::string_view text_view(const YamlNode& n, std::string_view what) const;
  // A scalar YAML reads as a string, not as a number, true/false or null:
  // the matrix's version strings, dates and ids (quoted where they look like
  // numbers), so that `version: 10` cannot slip in as a number.
  std::string_view string(const YamlNode& n, std::string_view what) const;
  // The same, or nothing for null (`~`, `null`, an empty value) or an absent key.
  std::optional<std::string_view> string_or_null(const YamlNode& n, std::string_view what) const;
  bool flag(const YamlNode& n, std::string_view what) const;  // true or false
  std::int64_t integer(const YamlNode& n, std::string_view what) const;
  std::vector<std::string> texts(const YamlNode& n, std::string_view what) const;  // a list of text
  std::vector<std::string_view> strings(const YamlNode& n, std::string_view what) const;  // a list of string()

  // Runs read(item) for every item of the list n, recording each item's
  // failure and going on with the next.
  template <class Read>
  void each(const YamlNode& n, std::string_view what, Read read) const {
    for (auto& item : list(n, what)) guard([&] { read(item); });
  }
  // Runs body, recording its failure; false when it failed.
  template <class Body>
  bool guard(Body body) const {
    try {
      body();
      return true;
    } catch (const Failure& f) {
      errors_->push_back(f.error);
      return false;
    }
  }
  void record(LoadError e) const { errors_->push_back(std::move(e)); }

 private:
  std::string file_;
  std::vector<LoadError>* errors_;
};

}  // namespace rocmdoc
