#include "probe/rocm/apt.h"

#include <algorithm>

#include "formats/dpkg_status.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr std::string_view kAmdHosts[] = {"repo.radeon.com", "repo.amd.com"};
constexpr size_t kConfigReadLimit = 4 * 1024 * 1024;

bool names_amd_host(std::string_view text) {
  std::string lower = to_lower(text);
  for (auto host : kAmdHosts)
    if (lower.find(host) != std::string::npos) return true;
  return false;
}

std::string_view skip_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// apt's boolean words (StringToBool); anything else is not a boolean.
Json apt_boolean(const std::string& file, size_t line, const std::string& word) {
  std::string w = to_lower(word);
  for (const char* yes : {"yes", "true", "on", "1", "enable", "with"})
    if (w == yes) return true;
  for (const char* no : {"no", "false", "off", "0", "disable", "without"})
    if (w == no) return false;
  return unknown(file + ":" + std::to_string(line) + ": Enabled is not yes or no: " + quote_for_reason(word));
}

Json source_json(const std::string& file, size_t line, const char* format, const std::string& type,
                 const std::string& uri, const std::string& suite, const std::vector<std::string>& components) {
  Json j = Json::object();
  j["file"] = file;
  j["line"] = line;
  j["format"] = format;
  j["type"] = type;
  j["uri"] = uri;
  j["suite"] = suite;
  j["components"] = components;
  return j;
}

// deb822 Signed-By holds a keyring path, or the key itself on the lines
// that follow (apt >= 2.3): say which, never paste the key.
Json signed_by_of(const ControlStanza& stanza) {
  const ControlField* f = stanza.find("Signed-By");
  if (!f) return nullptr;
  if (f->value.find("-----BEGIN PGP") != std::string::npos) return "(inline key)";
  auto words = split_words(f->value);
  if (words.empty()) return nullptr;
  std::string joined;
  for (auto& w : words) joined += (joined.empty() ? "" : " ") + w;
  return joined;
}

}  // namespace

bool is_amd_repository_uri(std::string_view uri) {
  auto scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos) return false;
  auto rest = uri.substr(scheme_end + 3);
  auto host = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = host.rfind('@'); at != std::string_view::npos) host.remove_prefix(at + 1);
  host = host.substr(0, host.find(':'));
  std::string lower = to_lower(host);
  for (auto h : kAmdHosts)
    if (lower == h) return true;
  return false;
}

std::string OneLineSource::option(std::string_view key) const {
  for (auto& o : options) {
    auto eq = o.find('=');
    if (eq != std::string::npos && o.compare(0, eq, key) == 0) return o.substr(eq + 1);
  }
  return "";
}

std::optional<OneLineSource> parse_one_line_source(std::string_view line) {
  OneLineSource s;
  line = skip_blanks(line);
  if (!line.empty() && line.front() == '#') {
    s.enabled = false;
    while (!line.empty() && line.front() == '#') line.remove_prefix(1);
  }
  line = line.substr(0, line.find('#'));  // the rest of a line after '#' is a comment
  line = skip_blanks(line);
  auto type_end = line.find_first_of(" \t[");
  s.type = std::string(line.substr(0, type_end));
  if (s.type != "deb" && s.type != "deb-src") return std::nullopt;
  line = skip_blanks(line.substr(std::min(type_end, line.size())));
  if (!line.empty() && line.front() == '[') {
    auto close = line.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    s.options = split_words(line.substr(1, close - 1));
    line.remove_prefix(close + 1);
  }
  auto words = split_words(line);
  if (words.size() < 2) return std::nullopt;
  s.uri = words[0];
  s.suite = words[1];
  s.components.assign(words.begin() + 2, words.end());
  return s;
}

Json amd_sources_in_one_line_file(const std::string& file, std::string_view text) {
  Json out = Json::array();
  auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    auto entry = parse_one_line_source(lines[i]);
    if (!entry || !is_amd_repository_uri(entry->uri)) continue;
    Json j = source_json(file, i + 1, "one-line", entry->type, entry->uri, entry->suite, entry->components);
    j["enabled"] = entry->enabled;
    std::string key = entry->option("signed-by");
    j["signed_by"] = key.empty() ? Json(nullptr) : Json(key);
    out.push_back(j);
  }
  return out;
}

Json amd_sources_in_deb822_file(const std::string& file, std::string_view text) {
  Json out = Json::array();
  for (auto& stanza : parse_control_stanzas(text)) {
    const ControlField* enabled_field = stanza.find("Enabled");
    Json enabled = enabled_field ? apt_boolean(file, enabled_field->line, trim(enabled_field->value)) : Json(true);
    auto components = split_words(stanza.find("Components") ? stanza.find("Components")->value : "");
    for (auto& uri : split_words(stanza.find("URIs") ? stanza.find("URIs")->value : "")) {
      if (!is_amd_repository_uri(uri)) continue;
      for (auto& type : split_words(stanza.find("Types") ? stanza.find("Types")->value : ""))
        for (auto& suite : split_words(stanza.find("Suites") ? stanza.find("Suites")->value : "")) {
          Json j = source_json(file, stanza.line, "deb822", type, uri, suite, components);
          j["enabled"] = enabled;
          j["signed_by"] = signed_by_of(stanza);
          out.push_back(j);
        }
    }
  }
  return out;
}

Json amd_pins_in_preferences_file(const std::string& file, std::string_view text) {
  Json out = Json::array();
  for (auto& stanza : parse_control_stanzas(text)) {
    std::string pin = stanza.first_line("Pin");
    if (!names_amd_host(pin)) continue;
    Json j = Json::object();
    j["file"] = file;
    j["line"] = stanza.line;
    j["package"] = stanza.first_line("Package");
    j["pin"] = pin;
    std::string raw = stanza.first_line("Pin-Priority");
    auto priority = parse_int(raw);
    j["priority"] = priority ? Json(*priority)
                             : unknown(file + ":" + std::to_string(stanza.line) +
                                       ": Pin-Priority is not a number: " + quote_for_reason(raw));
    out.push_back(j);
  }
  return out;
}

namespace {

// What a directory of configuration files yields: the files' text, and
// why some could not be read. One unreadable file makes the whole list
// unknown: a partial list could hide the very entry a rule looks for.
struct ConfigFiles {
  std::vector<std::pair<std::string, std::string>> files;  // path, text
  std::vector<std::string> errors;
};

void add_config_file(ProbeContext& ctx, const std::string& path, ConfigFiles& out) {
  FileStat st = ctx.fs().stat_follow(path);
  if (st.absent()) return;  // apt does without it too
  if (st.type == FileType::directory) return;
  auto text = ctx.fs().read_file(path, kConfigReadLimit);
  if (!text) {
    out.errors.push_back(text.error());
  } else if (looks_binary(*text)) {
    out.errors.push_back(path + ": binary content, not an apt configuration file");
  } else {
    out.files.emplace_back(path, std::move(text.value()));
  }
}

// apt reads only some names in its .d directories (apt_preferences(5),
// sources.list(5)): letters, digits, '_', '-', '.', and the right ending.
bool apt_reads_name(const std::string& name) {
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
          c == '.'))
      return false;
  return !name.empty();
}

void add_config_dir(ProbeContext& ctx, const std::string& dir, bool (*wanted)(const std::string&), ConfigFiles& out) {
  auto names = ctx.fs().list_dir(dir);
  if (!names) {
    FileStat st = ctx.fs().stat(dir);
    if (!(st.absent())) out.errors.push_back(names.error());
    return;
  }
  for (auto& name : *names)
    if (apt_reads_name(name) && wanted(name)) add_config_file(ctx, path_join(dir, name), out);
}

bool is_sources_name(const std::string& name) { return ends_with(name, ".list") || ends_with(name, ".sources"); }
bool is_preferences_name(const std::string& name) {
  return name.find('.') == std::string::npos || ends_with(name, ".pref");
}

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

Json amd_sources(ProbeContext& ctx) {
  ConfigFiles cfg;
  add_config_file(ctx, "/etc/apt/sources.list", cfg);
  add_config_dir(ctx, "/etc/apt/sources.list.d", is_sources_name, cfg);
  if (!cfg.errors.empty()) return unknown(joined(cfg.errors));
  Json out = Json::array();
  for (auto& [path, text] : cfg.files) {
    Json found = ends_with(path, ".sources") ? amd_sources_in_deb822_file(path, text)
                                             : amd_sources_in_one_line_file(path, text);
    for (auto& entry : found) out.push_back(entry);
  }
  return out;
}

Json amd_pins(ProbeContext& ctx) {
  ConfigFiles cfg;
  add_config_file(ctx, "/etc/apt/preferences", cfg);
  add_config_dir(ctx, "/etc/apt/preferences.d", is_preferences_name, cfg);
  if (!cfg.errors.empty()) return unknown(joined(cfg.errors));
  Json out = Json::array();
  for (auto& [path, text] : cfg.files)
    for (auto& entry : amd_pins_in_preferences_file(path, text)) out.push_back(entry);
  return out;
}

}  // namespace

void probe_rocm_apt(ProbeContext& ctx, Json& section) {
  // Without /etc/apt at all this is no apt system, or a recording that
  // did not keep it: either way "no AMD sources" would be a guess.
  FileStat apt = ctx.fs().stat_follow("/etc/apt");
  if (apt.type != FileType::directory) {
    std::string why = "/etc/apt: " + (!apt.error.empty()                 ? apt.error
                                      : apt.type == FileType::missing ? std::string("no such directory")
                                                                      : std::string("not a directory"));
    section["apt_sources"] = unknown(why);
    section["apt_pins"] = unknown(why);
    return;
  }
  section["apt_sources"] = amd_sources(ctx);
  section["apt_pins"] = amd_pins(ctx);
}

}  // namespace rocmdoc
