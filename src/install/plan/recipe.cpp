#include "install/plan/recipe.h"

#include <algorithm>
#include <optional>
#include <set>

#include "formats/gpg_key_listing.h"
#include "base/text.h"
#include "base/version.h"
#include "formats/yaml_tree.h"

namespace rocmdoc {

bool RecipeRelease::supports(const RecipeDistro& d) const {
  return std::find(distros.begin(), distros.end(), d.name()) != distros.end();
}

bool RecipeRelease::picked_by_default(const RecipeDistro& d) const {
  return supports(d) && (!on_request || std::find(default_for.begin(), default_for.end(), d.name()) != default_for.end());
}

const RecipeDistro* InstallRecipes::distro(const std::string& id, const std::string& version) const {
  for (auto& d : distros)
    if (d.id == id && d.version == version) return &d;
  return nullptr;
}

const RecipeRelease* InstallRecipes::release(const std::string& version) const {
  for (auto& r : releases)
    if (r.version == version) return &r;
  return nullptr;
}

bool RecipeOwnPackages::matches(const std::string& distro_id, const std::string& version_id) const {
  return id == distro_id && (versions.empty() || std::find(versions.begin(), versions.end(), version_id) != versions.end());
}

std::vector<std::string> RecipeOwnPackages::install_argv() const {
  std::vector<std::string> argv;
  if (manager == "apt") argv = {"apt-get", "install", "-y"};
  else if (manager == "dnf") argv = {"dnf", "install", "-y"};
  else argv = {"pacman", "-S", "--needed"};
  argv.insert(argv.end(), packages.begin(), packages.end());
  return argv;
}

const RecipeOwnPackages* InstallRecipes::own_packages_for(const std::string& id, const std::string& version) const {
  for (auto& p : own_packages)
    if (p.matches(id, version)) return &p;
  return nullptr;
}

RecipeKey InstallRecipes::key_for(const RecipeRelease& r) const { return r.key ? *r.key : key; }

std::string RecipeRelease::package_for_gfx(const std::string& gfx) const {
  if (gfx_package.empty() || std::find(gfx_packages.begin(), gfx_packages.end(), gfx) == gfx_packages.end()) return "";
  return replace_all(gfx_package, "{gfx}", gfx);
}

std::string RecipeSourceFile::uri_for(const RecipeDistro& d) const {
  for (auto& [name, dist] : dists)
    if (name == d.name()) return replace_all(uri, "{dist}", dist);
  return "";
}

std::string RecipeSourceFile::content_for(const RecipeDistro& d, const std::string& keyring) const {
  return replace_all(replace_all(replace_all(content, "{uri}", uri_for(d)), "{suite}", suite), "{keyring}", keyring);
}

std::string InstallRecipes::list_line_for(const std::string& arch, const std::string& keyring, const std::string& uri,
                                          const std::string& codename) const {
  std::string s = replace_all(list_line, "{arch}", arch);
  s = replace_all(s, "{keyring}", keyring);
  s = replace_all(s, "{uri}", uri);
  return replace_all(s, "{codename}", codename);
}

namespace {

// One file, strictly: every key known, every value of the right shape.
class RecipeReader {
 public:
  RecipeReader(const RuleFile& file, InstallRecipes& out, std::vector<LoadError>& errors)
      : file_(file), out_(out), errors_(errors), y_(file.name, errors) {}

  void read() {
    // The tree stays with the reader: distro_refs_ point into it.
    tree_ = rule_file_tree(file_, errors_);
    if (!tree_) return;
    const YamlNode& doc = tree_->root();
    if (doc.is_null()) return;
    try {
      y_.mapping(doc, "an install recipe file is a mapping that starts with 'schema: 1'");
      y_.allow_keys(doc, {"schema", "as_of", "sources", "key", "pin", "lists", "distros", "packages", "groups", "ld_so_conf",
                  "disk", "apt_locks", "venv_dir", "releases", "distro_gives_up", "distro_gives_up_amd_none", "distro_gives_up_sources", "distro_disk",
                  "distro_packages"});
      if (y_.text(y_.required(doc, "schema"), "schema") != "1") y_.fail(doc["schema"], "'schema' must be 1");
      std::string as_of = y_.text(y_.required(doc, "as_of"), "as_of");
      if (as_of > out_.as_of) out_.as_of = as_of;
      if (doc["sources"]) read_sources(doc["sources"]);
      if (doc["key"]) read_key(doc["key"]);
      if (doc["pin"]) read_pin(doc["pin"]);
      if (doc["lists"]) read_lists(doc["lists"]);
      if (doc["packages"]) read_packages(doc["packages"]);
      if (doc["groups"]) out_.groups = y_.texts(doc["groups"], "groups");
      if (doc["ld_so_conf"]) read_ld_so_conf(doc["ld_so_conf"]);
      if (doc["disk"]) y_.each(doc["disk"], "disk", [&](const YamlNode& n) { read_disk(n); });
      if (doc["apt_locks"]) out_.apt_locks = y_.texts(doc["apt_locks"], "apt_locks");
      if (doc["venv_dir"]) out_.venv_dir = y_.text(doc["venv_dir"], "venv_dir");
      if (doc["distros"]) y_.each(doc["distros"], "distros", [&](const YamlNode& n) { read_distro(n); });
      if (doc["releases"]) y_.each(doc["releases"], "releases", [&](const YamlNode& n) { read_release(n); });
      read_own_packages(doc);
    } catch (const StrictYaml::Failure& f) {
      errors_.push_back(f.error);
    }
  }

 private:
  const RuleFile& file_;
  InstallRecipes& out_;
  std::vector<LoadError>& errors_;
  StrictYaml y_;
  std::set<std::string> sources_;
  std::optional<YamlTree> tree_;

  std::string https(const YamlNode& n, const std::string& what) const {
    std::string s = y_.text(n, what);
    if (s.rfind("https://", 0) != 0) y_.fail(n, "'" + what + "' must be an https:// URL");
    return s;
  }

  std::string absolute(const YamlNode& n, const std::string& what) const {
    std::string s = y_.text(n, what);
    if (s.empty() || s[0] != '/') y_.fail(n, "'" + what + "' must be an absolute path");
    return s;
  }

  void read_sources(const YamlNode& n) {
    y_.mapping(n, "'sources' must map a source key to its description");
    for (size_t i = 0; i < n.pair_count(); ++i) {
      std::string key(n.key(i).text);
      y_.text(n.value(i), "source " + key);
      sources_.insert(key);
    }
  }

  // Every value names where it comes from, and the name must be defined.
  void check_sources(const YamlNode& map) const {
    const YamlNode& list = y_.required(map, "sources");
    if (!list.is_sequence()) y_.fail(list, "'sources' must be a list of source keys");
    for (auto& s : list.children) {
      std::string key = y_.text(s, "sources item");
      if (!sources_.count(key)) y_.fail(s, "unknown source '" + key + "' (define it under 'sources')");
    }
  }

  // A key names its fingerprint, or says why none is known (a release's own
  // key only: the shared key is the one every default install uses).
  RecipeKey read_key_fields(const YamlNode& n, bool may_lack_fingerprint) {
    y_.allow_keys(n, {"url", "fingerprint", "fingerprint_unknown", "fingerprint_note", "keyring", "download", "sources"});
    RecipeKey k;
    k.url = https(y_.required(n, "url"), "url");
    if (n["fingerprint_note"] && !n["fingerprint"])
      y_.fail(n["fingerprint_note"], "'fingerprint_note' says where a 'fingerprint' comes from; this key has none");
    if (n["fingerprint_unknown"]) {
      if (!may_lack_fingerprint)
        y_.fail(n["fingerprint_unknown"], "the shared key must give its 'fingerprint' (only a release's own key may lack one)");
      if (n["fingerprint"]) y_.fail(n["fingerprint_unknown"], "'fingerprint_unknown' goes with a key that has no 'fingerprint'");
      k.fingerprint_unknown = y_.text(n["fingerprint_unknown"], "fingerprint_unknown");
    } else {
      k.fingerprint = y_.text(y_.required(n, "fingerprint"), "fingerprint");
      if (!is_fingerprint(k.fingerprint)) y_.fail(n["fingerprint"], "'fingerprint' must be 40 upper-case hex digits");
      if (n["fingerprint_note"]) k.fingerprint_note = y_.text(n["fingerprint_note"], "fingerprint_note");
    }
    k.keyring = absolute(y_.required(n, "keyring"), "keyring");
    k.download = absolute(y_.required(n, "download"), "download");
    check_sources(n);
    return k;
  }

  void read_key(const YamlNode& n) { out_.key = read_key_fields(n, false); }

  RecipeSourceFile read_source_file(const YamlNode& n) {
    y_.allow_keys(n, {"path", "uri", "suite", "dists", "content"});
    RecipeSourceFile f;
    f.path = absolute(y_.required(n, "path"), "path");
    if (!ends_with(f.path, ".sources"))
      y_.fail(n["path"], "'path' must name a deb822 file ending in .sources");
    f.uri = https(y_.required(n, "uri"), "uri");
    if (f.uri.find("{dist}") == std::string::npos) y_.fail(n["uri"], "'uri' must contain {dist}");
    f.suite = y_.text(y_.required(n, "suite"), "suite");
    f.content = y_.text(y_.required(n, "content"), "content");
    for (const char* field : {"{uri}", "{suite}", "{keyring}"})
      if (f.content.find(field) == std::string::npos) y_.fail(n["content"], std::string("'content' must contain ") + field);
    const YamlNode& dists = y_.required(n, "dists");
    y_.mapping(dists, "'dists' must map a distribution (\"ubuntu 24.04\") to its repository directory");
    for (size_t i = 0; i < dists.pair_count(); ++i) {
      std::string name(dists.key(i).text);
      if (std::any_of(f.dists.begin(), f.dists.end(), [&](auto& p) { return p.first == name; }))
        y_.fail(dists.key(i), "'" + name + "' is named twice in 'dists'");
      f.dists.emplace_back(name, y_.text(dists.value(i), "dists value"));
      dist_refs_.push_back(&dists.key(i));
    }
    return f;
  }

  RecipeGap read_gap(const YamlNode& n) {
    y_.allow_keys(n, {"reason", "instead"});
    return {y_.text(y_.required(n, "reason"), "reason"), y_.text(y_.required(n, "instead"), "instead")};
  }

  void read_pin(const YamlNode& n) {
    y_.allow_keys(n, {"path", "content", "sources"});
    out_.pin_path = absolute(y_.required(n, "path"), "path");
    out_.pin_content = y_.text(y_.required(n, "content"), "content");
    check_sources(n);
  }

  void read_lists(const YamlNode& n) {
    y_.allow_keys(n, {"driver", "rocm", "line", "rocm_arch", "leftovers_to", "sources"});
    out_.driver_list = absolute(y_.required(n, "driver"), "driver");
    out_.rocm_list = absolute(y_.required(n, "rocm"), "rocm");
    out_.list_line = y_.text(y_.required(n, "line"), "line");
    for (const char* field : {"{arch}", "{keyring}", "{uri}", "{codename}"})
      if (out_.list_line.find(field) == std::string::npos) y_.fail(n["line"], std::string("'line' must contain ") + field);
    out_.rocm_arch = y_.text(y_.required(n, "rocm_arch"), "rocm_arch");
    out_.leftovers_to = absolute(y_.required(n, "leftovers_to"), "leftovers_to");
    check_sources(n);
  }

  void read_packages(const YamlNode& n) {
    y_.allow_keys(n, {"base", "python", "driver", "rocm", "venv", "secure_boot", "shadowing", "sources"});
    out_.base_packages = y_.texts(y_.required(n, "base"), "base");
    out_.python_packages = y_.texts(y_.required(n, "python"), "python");
    out_.driver_packages = y_.texts(y_.required(n, "driver"), "driver");
    out_.rocm_packages = y_.texts(y_.required(n, "rocm"), "rocm");
    out_.venv_packages = y_.texts(y_.required(n, "venv"), "venv");
    out_.secure_boot_packages = y_.texts(y_.required(n, "secure_boot"), "secure_boot");
    out_.shadowing_packages = y_.texts(y_.required(n, "shadowing"), "shadowing");
    check_sources(n);
  }

  void read_ld_so_conf(const YamlNode& n) {
    y_.allow_keys(n, {"path", "content", "sources"});
    out_.ld_conf_path = absolute(y_.required(n, "path"), "path");
    out_.ld_conf_content = y_.text(y_.required(n, "content"), "content");
    check_sources(n);
  }

  void read_disk(const YamlNode& n) { out_.disk.push_back(disk_need(n)); }

  DiskNeed disk_need(const YamlNode& n) {
    y_.allow_keys(n, {"path", "min_bytes"});
    DiskNeed d;
    d.path = absolute(y_.required(n, "path"), "path");
    std::string bytes = y_.text(y_.required(n, "min_bytes"), "min_bytes");
    if (bytes.empty() || bytes.size() > 19 || !std::all_of(bytes.begin(), bytes.end(), ::isdigit))
      y_.fail(n["min_bytes"], "'min_bytes' must be a whole number of bytes");
    d.min_bytes = std::stoull(bytes);
    return d;
  }

  // distro-packages.yaml: the distributions' own ROCm, what a plan from it
  // gives up, and the room it needs.
  void read_own_packages(const YamlNode& doc) {
    if (doc["distro_gives_up"]) {
      out_.own_gives_up = y_.texts(doc["distro_gives_up"], "distro_gives_up");
      const YamlNode& list = y_.required(doc, "distro_gives_up_sources");
      for (auto& s : list.children)
        if (!sources_.count(y_.text(s, "distro_gives_up_sources item")))
          y_.fail(s, "unknown source '" + std::string(s.text) + "' (define it under 'sources')");
    } else if (doc["distro_gives_up_sources"]) {
      y_.fail(doc["distro_gives_up_sources"], "'distro_gives_up_sources' names the sources of 'distro_gives_up'");
    }
    if (doc["distro_gives_up_amd_none"]) {
      if (!doc["distro_gives_up"])
        y_.fail(doc["distro_gives_up_amd_none"], "'distro_gives_up_amd_none' replaces lines of 'distro_gives_up', which is missing");
      out_.own_gives_up_amd_none = y_.texts(doc["distro_gives_up_amd_none"], "distro_gives_up_amd_none");
    }
    if (doc["distro_disk"]) y_.each(doc["distro_disk"], "distro_disk", [&](const YamlNode& n) { out_.own_disk.push_back(disk_need(n)); });
    if (doc["distro_packages"])
      y_.each(doc["distro_packages"], "distro_packages", [&](const YamlNode& n) { read_own_entry(n); });
  }

  void read_own_entry(const YamlNode& n) {
    y_.allow_keys(n, {"id", "versions", "manager", "packages", "rocminfo", "torch_rocm", "notes", "auto_prefer", "sources"});
    RecipeOwnPackages p;
    p.id = y_.text(y_.required(n, "id"), "id");
    if (n["versions"]) p.versions = y_.texts(n["versions"], "versions");
    p.manager = y_.text(y_.required(n, "manager"), "manager");
    if (p.manager != "apt" && p.manager != "dnf" && p.manager != "pacman")
      y_.fail(n["manager"], "'manager' is one of apt, dnf, pacman (not '" + p.manager + "')");
    p.packages = y_.texts(y_.required(n, "packages"), "packages");
    if (p.packages.empty()) y_.fail(n["packages"], "'packages' must name at least one package");
    // What only a plan rocmdoc runs needs: apt's.
    if (p.manager == "apt") {
      p.rocminfo = y_.texts(y_.required(n, "rocminfo"), "rocminfo");
      if (p.rocminfo.empty()) y_.fail(n["rocminfo"], "a verification command must be an argv with at least one item");
      p.torch_rocm = y_.text(y_.required(n, "torch_rocm"), "torch_rocm");
    } else {
      for (const char* k : {"rocminfo", "torch_rocm", "auto_prefer"})
        if (n[k]) y_.fail(n[k], std::string("'") + k + "' is for a plan rocmdoc runs (manager apt); " + p.manager + " is planned as a command for the user");
    }
    if (n["notes"]) p.notes = y_.texts(n["notes"], "notes");
    if (n["auto_prefer"]) p.auto_prefer = y_.text(n["auto_prefer"], "auto_prefer");
    check_sources(n);
    for (auto& other : out_.own_packages) {
      bool overlap = other.id == p.id && (other.versions.empty() || p.versions.empty() ||
                                          std::any_of(p.versions.begin(), p.versions.end(), [&](auto& v) {
                                            return other.matches(p.id, v);
                                          }));
      if (overlap) y_.fail(n, "the own packages of " + p.id + " are given twice for one version");
    }
    out_.own_packages.push_back(p);
  }

  void read_distro(const YamlNode& n) {
    y_.allow_keys(n, {"id", "version", "codename", "repo_codename", "driver_arch", "headers", "mok_key", "mok_new_key", "notes",
              "sources"});
    RecipeDistro d;
    d.id = y_.text(y_.required(n, "id"), "id");
    d.version = y_.text(y_.required(n, "version"), "version");
    d.codename = y_.text(y_.required(n, "codename"), "codename");
    d.repo_codename = y_.text(y_.required(n, "repo_codename"), "repo_codename");
    d.driver_arch = y_.text(y_.required(n, "driver_arch"), "driver_arch");
    d.headers = y_.texts(y_.required(n, "headers"), "headers");
    d.mok_key = absolute(y_.required(n, "mok_key"), "mok_key");
    d.mok_new_key = y_.texts(y_.required(n, "mok_new_key"), "mok_new_key");
    if (d.mok_new_key.empty()) y_.fail(n["mok_new_key"], "'mok_new_key' must be a command (argv)");
    if (n["notes"]) d.notes = y_.texts(n["notes"], "notes");
    check_sources(n);
    if (out_.distro(d.id, d.version)) y_.fail(n, "distribution " + d.name() + " is defined twice");
    out_.distros.push_back(d);
  }

  void read_release(const YamlNode& n) {
    y_.allow_keys(n, {"version", "on_request", "default_for", "rocm_repo", "graphics_repo", "source_file", "key", "driver", "driver_repo",
              "driver_package_marker", "driver_gap", "torch_rocm", "torch_gap", "packages", "remove_first", "ld_so_conf",
              "verify", "distros", "unverified", "sources"});
    RecipeRelease r;
    r.version = y_.text(y_.required(n, "version"), "version");
    if (std::count(r.version.begin(), r.version.end(), '.') != 2) y_.fail(n["version"], "'version' must be X.Y.Z");
    if (n["on_request"]) r.on_request = y_.flag(n["on_request"], "on_request");
    if (n["default_for"]) {
      if (!r.on_request) y_.fail(n["default_for"], "'default_for' names where an on_request release is the default; this one is not on request");
      r.default_for = y_.texts(n["default_for"], "default_for");
    }
    read_release_repositories(n, r);
    read_release_driver(n, r);
    if (n["torch_gap"] && n["torch_rocm"]) y_.fail(n["torch_gap"], "a release has 'torch_rocm' or 'torch_gap', not both");
    if (n["torch_gap"]) r.torch_gap = read_gap(n["torch_gap"]);
    else r.torch_rocm = y_.text(y_.required(n, "torch_rocm"), "torch_rocm");
    if (n["packages"]) read_release_packages(n["packages"], r);
    if (n["remove_first"]) {
      y_.allow_keys(n["remove_first"], {"packages", "how"});
      r.remove_first = y_.texts(y_.required(n["remove_first"], "packages"), "packages");
      r.remove_first_how = y_.text(y_.required(n["remove_first"], "how"), "how");
    }
    if (n["ld_so_conf"]) r.ld_so_conf = y_.flag(n["ld_so_conf"], "ld_so_conf");
    if (n["verify"]) read_release_verify(n["verify"], r);
    r.distros = y_.texts(y_.required(n, "distros"), "distros");
    for (size_t i = 0; i < r.default_for.size(); ++i)
      if (std::find(r.distros.begin(), r.distros.end(), r.default_for[i]) == r.distros.end())
        y_.fail(n["default_for"].children[i], "'" + r.default_for[i] + "' in 'default_for' is not among the release's distros");
    for (auto& d : n["distros"].children) r.distros_where.push_back(y_.at(d));
    r.unverified = y_.texts(y_.required(n, "unverified"), "unverified");
    if (r.source_file)
      for (auto& d : r.distros)
        if (std::none_of(r.source_file->dists.begin(), r.source_file->dists.end(), [&](auto& p) { return p.first == d; }))
          y_.fail(n["source_file"]["dists"], "'dists' has no repository directory for '" + d + "', one of the release's distros");
    check_sources(n);
    if (out_.release(r.version)) y_.fail(n, "release " + r.version + " is defined twice");
    distro_refs_.push_back({r.version, &n["distros"]});
    out_.releases.push_back(r);
  }

  // One-line lists (rocm_repo, graphics_repo) or a deb822 file; the shared
  // key or its own.
  void read_release_repositories(const YamlNode& n, RecipeRelease& r) {
    if (n["source_file"] && (n["rocm_repo"] || n["graphics_repo"]))
      y_.fail(n["source_file"], "a release has 'rocm_repo' (one-line lists) or 'source_file' (deb822), not both");
    if (n["source_file"]) {
      r.source_file = read_source_file(n["source_file"]);
    } else {
      r.rocm_repo = https(y_.required(n, "rocm_repo"), "rocm_repo");
      if (n["graphics_repo"]) r.graphics_repo = https(n["graphics_repo"], "graphics_repo");
    }
    if (n["key"]) r.key = read_key_fields(n["key"], true);
  }

  void read_release_driver(const YamlNode& n, RecipeRelease& r) {
    if (n["driver_gap"]) {
      for (const char* k : {"driver", "driver_repo", "driver_package_marker"})
        if (n[k]) y_.fail(n[k], std::string("a release with 'driver_gap' has no '") + k + "'");
      r.driver_gap = read_gap(n["driver_gap"]);
      return;
    }
    r.driver = y_.text(y_.required(n, "driver"), "driver");
    r.driver_repo = https(y_.required(n, "driver_repo"), "driver_repo");
    r.driver_package_marker = y_.text(y_.required(n, "driver_package_marker"), "driver_package_marker");
  }

  void read_release_packages(const YamlNode& n, RecipeRelease& r) {
    y_.allow_keys(n, {"prerequisites", "rocm", "gfx_package", "gfx"});
    if (n["prerequisites"]) r.prerequisites = y_.texts(n["prerequisites"], "prerequisites");
    r.rocm_packages = y_.texts(y_.required(n, "rocm"), "rocm");
    if (r.rocm_packages.empty()) y_.fail(n["rocm"], "'rocm' must name at least one package");
    if (n["gfx_package"]) {
      r.gfx_package = y_.text(n["gfx_package"], "gfx_package");
      if (r.gfx_package.find("{gfx}") == std::string::npos) y_.fail(n["gfx_package"], "'gfx_package' must contain {gfx}");
      r.gfx_packages = y_.texts(y_.required(n, "gfx"), "gfx");
      if (r.gfx_packages.empty()) y_.fail(n["gfx"], "'gfx' must name the targets 'gfx_package' is built for");
    } else if (n["gfx"]) {
      y_.fail(n["gfx"], "'gfx' lists the targets of 'gfx_package'");
    }
  }

  void read_release_verify(const YamlNode& n, RecipeRelease& r) {
    y_.allow_keys(n, {"rocminfo", "version", "version_text"});
    if (n["rocminfo"]) r.rocminfo = y_.texts(n["rocminfo"], "rocminfo");
    if (n["version"]) {
      r.version_argv = y_.texts(n["version"], "version");
      r.version_text = y_.text(y_.required(n, "version_text"), "version_text");
    } else if (n["version_text"]) {
      y_.fail(n["version_text"], "'version_text' goes with 'version', the command whose output must contain it");
    }
    if ((n["rocminfo"] && r.rocminfo.empty()) || (n["version"] && r.version_argv.empty()))
      y_.fail(n, "a verification command must be an argv with at least one item");
  }

 public:
  // Releases may name distributions of another file: checked once all are read.
  std::vector<std::pair<std::string, const YamlNode*>> distro_refs_;
  std::vector<const YamlNode*> dist_refs_;  // the distributions a source file's 'dists' names
  LoadError at(const YamlNode& n, const std::string& message) const { return y_.error(n, message); }
};

void check_complete(const InstallRecipes& r, std::vector<LoadError>& errors) {
  auto missing = [&](bool absent, const std::string& what) {
    if (absent) errors.push_back({{"rules/install", 0, 0}, "no " + what + " in the install recipes"});
  };
  missing(r.key.url.empty(), "'key'");
  missing(r.pin_path.empty(), "'pin'");
  missing(r.driver_list.empty(), "'lists'");
  missing(r.base_packages.empty() && r.rocm_packages.empty(), "'packages'");
  missing(r.ld_conf_path.empty(), "'ld_so_conf'");
  missing(r.groups.empty(), "'groups'");
  missing(r.venv_dir.empty(), "'venv_dir'");
  missing(r.distros.empty(), "distribution");
  missing(r.releases.empty(), "release");
}

}  // namespace

InstallRecipes load_install_recipes(const std::vector<RuleFile>& files, std::vector<LoadError>& errors) {
  InstallRecipes out;
  std::vector<std::unique_ptr<RecipeReader>> readers;
  for (auto& f : files) {
    readers.push_back(std::make_unique<RecipeReader>(f, out, errors));
    readers.back()->read();
  }
  auto known = [&](const std::string& name) {
    auto space = name.find(' ');
    return space != std::string::npos && out.distro(name.substr(0, space), name.substr(space + 1));
  };
  for (auto& reader : readers) {
    for (auto& [version, node] : reader->distro_refs_)
      for (auto& d : node->children)
        if (!known(std::string(d.text)))
          errors.push_back(reader->at(d, "release " + version + ": unknown distribution '" + std::string(d.text) + "'"));
    for (const YamlNode* d : reader->dist_refs_)
      if (!known(std::string(d->text)))
        errors.push_back(reader->at(*d, "'dists' names an unknown distribution '" + std::string(d->text) + "'"));
  }
  if (!files.empty()) check_complete(out, errors);
  std::sort(out.releases.begin(), out.releases.end(),
            [](const RecipeRelease& a, const RecipeRelease& b) { return compare_versions(a.version, b.version) > 0; });
  return out;
}

std::vector<LoadError> recipe_pairs_missing_from_matrix(const InstallRecipes& recipes, const Matrix& matrix) {
  std::vector<LoadError> out;
  for (auto& r : recipes.releases) {
    const Release* listed = matrix.find_release(r.version);
    for (size_t i = 0; i < r.distros.size(); ++i) {
      const std::string& name = r.distros[i];
      auto space = name.find(' ');
      std::string id = name.substr(0, space), version = space == std::string::npos ? "" : name.substr(space + 1);
      std::string why;
      if (!listed) why = "ROCm " + r.version + " is not in the matrix";
      else if (listed->distros.empty()) why = "the matrix has no distribution list for ROCm " + r.version;
      else if (std::none_of(listed->distros.begin(), listed->distros.end(),
                            [&](const MatrixDistro& d) { return d.matches(id, version); }))
        why = "the matrix does not list " + name + " for ROCm " + r.version;
      if (why.empty()) continue;
      SourceLocation where = i < r.distros_where.size() ? r.distros_where[i] : SourceLocation{"rules/install", 0, 0};
      out.push_back({where, "release " + r.version + " installs on " + name + ", but " + why +
                                " (rules/matrix/rocm-releases.yaml)"});
    }
  }
  return out;
}

InstallRecipes load_install_recipes_from(const std::string& rules_dir, std::vector<LoadError>& errors) {
  if (rules_dir.empty()) return load_install_recipes(files_under(embedded_rule_files(), "install"), errors);
  auto read = read_rule_files(rules_dir);
  if (!read) {
    // The knowledge loader read the same directory first and said why.
    LoadError e{{rules_dir, 0, 0}, read.error()};
    if (std::none_of(errors.begin(), errors.end(), [&](const LoadError& x) { return x.str() == e.str(); }))
      errors.push_back(std::move(e));
    return {};
  }
  return load_install_recipes(files_under(*read, "install"), errors);
}

}  // namespace rocmdoc
