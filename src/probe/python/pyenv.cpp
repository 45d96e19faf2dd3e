#include "probe/python/pyenv.h"

#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr size_t kVersionFileLimit = 64 * 1024;

// The names set, and by what; or unknown.
struct VersionSetting {
  std::vector<std::string> names;
  Json set_by;
};

VersionSetting version_setting(ProbeContext& ctx, const std::string& root) {
  Json env = ctx.machine().env("PYENV_VERSION");
  if (is_unknown(env)) return {{}, env};
  if (env.is_string() && !env.get<std::string>().empty()) {
    std::vector<std::string> names;
    for (auto& n : split(env.get<std::string>(), ':'))
      if (!n.empty()) names.push_back(n);
    return {names, "PYENV_VERSION"};
  }
  const std::string file = root + "/version";
  FileStat st = ctx.fs().stat(file);
  if (st.absent()) return {{"system"}, "default"};
  auto text = ctx.fs().read_file(file, kVersionFileLimit);
  if (!text) return {{}, unknown(text.error())};
  auto names = parse_pyenv_version_file(*text);
  // pyenv treats a version file naming nothing like no file at all.
  if (names.empty()) return {{"system"}, "default"};
  return {names, file};
}

std::string installed_name(ProbeContext& ctx, const std::string& versions, const std::string& name) {
  if (ctx.fs().stat_follow(versions + "/" + name).type == FileType::directory) return name;
  // pyenv accepts "python-3.12.1" for "3.12.1".
  if (starts_with(name, "python-") && ctx.fs().stat_follow(versions + "/" + name.substr(7)).type == FileType::directory)
    return name.substr(7);
  return "";
}

}  // namespace

std::vector<std::string> parse_pyenv_version_file(std::string_view text) {
  std::vector<std::string> names;
  if (looks_binary(text)) return names;
  for (auto& line : split_lines(text)) {
    std::string word = trim(line);
    auto space = word.find_first_of(" \t\r");
    if (space != std::string::npos) word.resize(space);
    if (word.empty() || word.front() == '#' || word == ".." || word.find('/') != std::string::npos) continue;
    names.push_back(word);
  }
  return names;
}

PyenvChoice pyenv_shim_choice(ProbeContext& ctx, const std::string& root, const std::string& command,
                              const Json& system_command) {
  VersionSetting setting = version_setting(ctx, root);
  if (is_unknown(setting.set_by)) return {unknown("the pyenv version is unknown: " + unknown_reason(setting.set_by)), setting.set_by};
  const std::string by = setting.set_by.get<std::string>();
  const std::string versions = root + "/versions";
  // pyenv refuses to run anything when one named version is missing.
  std::vector<std::string> installed;
  for (auto& name : setting.names) {
    if (name == "system") {
      installed.push_back(name);
      continue;
    }
    std::string have = installed_name(ctx, versions, name);
    if (have.empty())
      return {unknown("pyenv version " + name + " (set by " + by + ") is not installed: " + versions + "/" + name +
                      " does not exist, so the shim fails instead of running Python"),
              setting.set_by};
    installed.push_back(have);
  }
  for (auto& name : installed) {
    if (name == "system") {
      if (system_command.is_string() || is_unknown(system_command)) return {system_command, setting.set_by};
      continue;
    }
    std::string path = versions + "/" + name + "/bin/" + command;
    if (ctx.fs().stat_follow(path).type == FileType::regular) return {path, setting.set_by};
  }
  if (installed.size() == 1 && installed.front() == "system")
    return {unknown("pyenv's version is system (set by " + by + "), and PATH has no " + command + " outside the shims"),
            setting.set_by};
  std::string listed;
  for (auto& name : setting.names) listed += (listed.empty() ? "" : ", ") + name;
  return {unknown("no pyenv version set by " + by + " (" + listed + ") has bin/" + command), setting.set_by};
}

}  // namespace rocmdoc
