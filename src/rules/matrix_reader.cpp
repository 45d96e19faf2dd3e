// Reading rules/matrix/*.yaml into the Matrix's records, strictly: the keys
// below are every key the shipped files use, and nothing else is allowed.
// Sections no query reads (install_templates, therock, ...) are checked the
// same way and then dropped.
#include <algorithm>
#include <cctype>
#include <set>

#include "base/text.h"
#include "rules/matrix.h"

namespace rocmdoc {

class MatrixReader {
 public:
  MatrixReader(Matrix& m, const RuleFile& file, std::vector<LoadError>& errors)
      : m_(m), file_(file), errors_(errors), y_(file.name, errors) {}

  void read() {
    auto tree = rule_file_tree(file_, errors_);
    if (!tree) return;
    // The records' text points into the tree's scalars. A built-in file's
    // scalars are views into its packed bytes, which are static data, so its
    // nodes go once it is read: 1.4 MiB for the matrix, otherwise held
    // through all of explain's scan (bench/README.md). A file read at run
    // time owns its text: its tree stays.
    auto kept = std::make_shared<const YamlTree>(std::move(*tree));
    if (file_.packed.empty()) m_.trees_.push_back(kept);
    const YamlNode& doc = kept->root();
    y_.guard([&] {
      const YamlNode* schema = doc.find("schema");
      if (!doc.is_map() || !schema || schema->text != "1") y_.fail(doc, "a matrix file starts with 'schema: 1'");
      y_.allow_keys(doc, {"schema", "as_of", "sources", "releases", "install_templates", "kmd_userspace_compat",
                          "latest_instinct_matrix", "gpu_lifecycle", "os_lifecycle", "gfx_targets", "devices",
                          "overrides", "index_rule", "wheels", "therock", "amd_radeon_repo",
                          "amd_radeon_repo_caution", "distributions", "libraries"});
      std::string_view as_of = y_.string(y_.required(doc, "as_of"), "as_of");
      if (as_of > m_.as_of_) m_.as_of_ = std::string(as_of);
      read_sources(y_.required(doc, "sources"));
      each(doc, "releases", [&](const YamlNode& n) { m_.releases_.push_back(release(n)); });
      each(doc, "gfx_targets", [&](const YamlNode& n) { m_.gfx_list_.push_back(gfx_target(n)); });
      each(doc, "devices", [&](const YamlNode& n) { m_.devices_list_.push_back(device(n)); });
      each(doc, "overrides", [&](const YamlNode& n) { m_.overrides_list_.push_back(override_entry(n)); });
      each(doc, "wheels", [&](const YamlNode& n) { m_.wheels_.push_back(wheel(n)); });
      each(doc, "therock", [&](const YamlNode& n) { therock(n); });
      each(doc, "amd_radeon_repo", [&](const YamlNode& n) { m_.radeon_wheels_.push_back(radeon_repo(n)); });
      each(doc, "gpu_lifecycle", [&](const YamlNode& n) { gpu_lifecycle(n); });
      each(doc, "distributions", [&](const YamlNode& n) { m_.distributions_.push_back(distribution(n)); });
      each(doc, "libraries", [&](const YamlNode& n) { m_.libraries_.push_back(library(n)); });
      if (doc["os_lifecycle"]) y_.texts(doc["os_lifecycle"], "os_lifecycle");
      if (doc["amd_radeon_repo_caution"]) y_.string(doc["amd_radeon_repo_caution"], "amd_radeon_repo_caution");
      if (doc["index_rule"]) y_.guard([&] { index_rule(doc["index_rule"]); });
      if (doc["install_templates"]) y_.guard([&] { install_templates(doc["install_templates"]); });
      if (doc["kmd_userspace_compat"]) y_.guard([&] { kmd_userspace_compat(doc["kmd_userspace_compat"]); });
      if (doc["latest_instinct_matrix"]) y_.guard([&] { latest_instinct_matrix(doc["latest_instinct_matrix"]); });
    });
  }

 private:
  Matrix& m_;
  const RuleFile& file_;
  std::vector<LoadError>& errors_;
  StrictYaml y_;
  std::set<std::string_view> sources_;

  template <class Read>
  void each(const YamlNode& doc, const char* key, Read read) {
    if (doc[key]) y_.each(doc[key], key, read);
  }

  // Short names for the reader's typed values.
  MatrixText str(const YamlNode& map, const char* key) const { return y_.string(y_.required(map, key), key); }
  std::optional<MatrixText> opt(const YamlNode& map, const char* key) const { return y_.string_or_null(map[key], key); }
  MatrixTexts strs(const YamlNode& map, const char* key) const { return y_.strings(y_.required(map, key), key); }
  MatrixTexts opt_strs(const YamlNode& map, const char* key) const {
    return map[key] ? y_.strings(map[key], key) : MatrixTexts{};
  }
  std::optional<MatrixTexts> null_or_strs(const YamlNode& map, const char* key) const {
    if (!map[key] || map[key].is_null()) return std::nullopt;
    return y_.strings(map[key], key);
  }
  MatrixText one_of(const YamlNode& map, const char* key, std::initializer_list<std::string_view> values) const {
    MatrixText v = str(map, key);
    check_one_of(map[key], key, v, values);
    return v;
  }
  void check_one_of(const YamlNode& n, const char* key, MatrixText v, std::initializer_list<std::string_view> values) const {
    for (auto& a : values)
      if (a == v) return;
    std::string allowed;
    for (auto& a : values) (allowed += allowed.empty() ? "" : ", ") += a;
    y_.fail(n, "'" + std::string(key) + "' is one of " + allowed + " (not '" + std::string(v) + "')");
  }

  void read_sources(const YamlNode& n) {
    y_.mapping(n, "'sources' must map a source id to what was read");
    for (size_t i = 0; i < n.pair_count(); ++i) {
      y_.string(n.value(i), "source " + std::string(n.key(i).text));
      sources_.insert(n.key(i).text);
    }
  }

  // An entry's provenance: confidence, what is unconfirmed, its sources (ids
  // of this file's `sources`). Returns the confidence.
  MatrixText provenance(const YamlNode& n) {
    MatrixText confidence = one_of(n, "confidence", {"high", "medium", "low"});
    opt(n, "unconfirmed");
    opt(n, "corrected");
    for (auto& s : y_.list(y_.required(n, "sources"), "sources")) {
      if (!sources_.count(y_.string(s, "sources item")))
        y_.fail(s, "unknown source '" + std::string(s.text) + "' (define it under 'sources')");
    }
    return confidence;
  }

  // An entry's provenance into its fields: the confidence, what no primary
  // source states, and its source ids (each checked by provenance()).
  template <typename Entry>
  void read_provenance(const YamlNode& n, Entry& e) {
    e.confidence = provenance(n);
    e.unconfirmed = opt(n, "unconfirmed");
    e.sources = strs(n, "sources");
  }

  MatrixKernel kernel(const YamlNode& n) {
    y_.allow_keys(n, {"series", "kind", "version", "families", "note"});
    MatrixKernel k;
    k.series = str(n, "series");
    k.kind = one_of(n, "kind", {"ga", "hwe", "uek", "unspecified"});
    k.version = opt(n, "version");
    k.families = opt_strs(n, "families");
    for (auto f : k.families) check_one_of(n["families"], "families", f, {"instinct", "radeon", "apu"});
    opt(n, "note");
    return k;
  }

  MatrixDistro distro(const YamlNode& n) {
    y_.allow_keys(n, {"id", "version", "point_versions", "kernels", "limited_to", "glibc", "repo_codename", "note"});
    MatrixDistro d;
    d.id = str(n, "id");
    d.version = str(n, "version");
    d.point_versions = opt_strs(n, "point_versions");
    for (auto& k : y_.list(y_.required(n, "kernels"), "kernels")) d.kernels.push_back(kernel(k));
    if (const YamlNode& limit = n["limited_to"]) limited_to(limit, d);
    opt(n, "glibc");
    opt(n, "repo_codename");
    opt(n, "note");
    return d;
  }

  // The GPUs a distribution row is limited to. A limit that names nothing
  // would read as "every GPU" to the queries, the opposite of a limit.
  void limited_to(const YamlNode& n, MatrixDistro& d) {
    y_.mapping(n, "'limited_to' must map families and/or gfx to lists");
    y_.allow_keys(n, {"families", "gfx", "products", "except_products"});
    d.limited_families = opt_strs(n, "families");
    // AMD's product names, where the row lists some products of a target
    // and not others; never alone (the check below), so the families or
    // targets still limit a GPU whose device the matrix does not know.
    d.limited_products = opt_strs(n, "products");
    // The other way round, where AMD lists a row for every GPU of its
    // families but a few products (Ubuntu 22.04 in 10.x: every Instinct GPU
    // but the MI350P, and the Radeon GPUs): those products' names.
    d.excepted_products = opt_strs(n, "except_products");
    for (const char* key : {"products", "except_products"})
      if (n[key])
        for (auto& p : y_.list(n[key], key)) m_.product_names_.emplace_back(std::string(p.text), y_.at(p));
    if (!d.limited_products.empty() && !d.excepted_products.empty())
      y_.fail(n, "'limited_to' names 'products' and 'except_products': give one list");
    for (auto f : d.limited_families) check_one_of(n["families"], "families", f, {"instinct", "radeon", "apu"});
    d.limited_gfx = opt_strs(n, "gfx");
    if (n["gfx"])
      for (auto& g : y_.list(n["gfx"], "gfx"))
        if (g.text.rfind("gfx", 0) != 0 || g.text.size() < 6 ||
            g.text.find_first_not_of("0123456789abcdef", 3) != std::string_view::npos)
          y_.fail(g, "'gfx' lists gfx targets (\"gfx942\"), not '" + std::string(g.text) + "'");
    if (d.limited_families.empty() && d.limited_gfx.empty())
      y_.fail(n, "'limited_to' names no GPU family and no gfx target (leave it out for every GPU)");
  }

  MatrixDistribution distribution(const YamlNode& n) {
    y_.allow_keys(n, {"id", "name", "follows", "own_rocm", "own_packages", "codenames", "note", "confidence", "unconfirmed",
                      "sources"});
    MatrixDistribution d;
    d.id = str(n, "id");
    d.name = str(n, "name");
    d.follows = opt(n, "follows");
    d.own_rocm = opt(n, "own_rocm");
    each(n, "own_packages", [&](const YamlNode& p) {
      OwnPackages o = own_packages(p);
      if (d.own_packages_for(o.version)) y_.fail(p, "own packages of version '" + std::string(o.version) + "' are given twice");
      d.own_packages.push_back(o);
    });
    each(n, "codenames", [&](const YamlNode& c) {
      y_.allow_keys(c, {"version", "codename"});
      d.codenames.push_back({str(c, "version"), str(c, "codename")});
    });
    opt(n, "note");
    d.confidence = provenance(n);
    d.unconfirmed = opt(n, "unconfirmed");
    return d;
  }

  // A library and its packages. The name is a stem ("libamdhip64") or a
  // soname with its major version ("libtinfo.so.5"), so that a lookup by
  // whatever version the log names finds it (library_lookup_names).
  LibraryPackage library(const YamlNode& n) {
    y_.allow_keys(n, {"library", "origin", "deb", "rpm", "renamed", "distribution_packages", "note", "confidence",
                      "unconfirmed", "corrected", "sources"});
    LibraryPackage l;
    l.library = str(n, "library");
    bool stem_or_major = l.library.rfind("lib", 0) == 0 && l.library.find('/') == std::string_view::npos;
    if (size_t so = l.library.find(".so"); so != std::string_view::npos) {
      std::string_view major = l.library.substr(so);
      stem_or_major = stem_or_major && major.size() > 4 && major[3] == '.' &&
                      major.find_first_not_of("0123456789", 4) == std::string_view::npos;
    }
    if (!stem_or_major)
      y_.fail(n["library"], "a library is a soname stem (\"libamdhip64\") or a soname with its major version "
                            "(\"libtinfo.so.5\"), not '" + std::string(l.library) + "'");
    for (auto& other : m_.libraries_)
      if (other.library == l.library) y_.fail(n["library"], "library '" + std::string(l.library) + "' is given twice");
    l.origin = one_of(n, "origin", {"amd", "distribution"});
    l.deb = str(n, "deb");
    l.rpm = opt(n, "rpm");
    each(n, "renamed", [&](const YamlNode& r) {
      y_.allow_keys(r, {"distro", "from_version", "package"});
      LibraryRename rename;
      rename.distro = one_of(r, "distro", {"debian", "ubuntu"});
      rename.from_version = str(r, "from_version");
      rename.package = y_.string_or_null(y_.required(r, "package"), "package");
      l.renamed.push_back(rename);
    });
    each(n, "distribution_packages", [&](const YamlNode& d) {
      y_.allow_keys(d, {"distro", "version", "package", "soname", "source"});
      if (l.origin != "amd") y_.fail(d, "distribution_packages are for ROCm's own libraries (origin amd)");
      DistributionLibraryPackage p;
      p.distro = one_of(d, "distro", {"debian", "ubuntu"});
      p.version = str(d, "version");
      p.package = str(d, "package");
      p.soname = str(d, "soname");
      p.source = str(d, "source");
      // The soname is what the lookup compares: the library's own name with
      // a major version, so a typo cannot make the entry unreachable.
      std::string stem = std::string(l.library.substr(0, l.library.find(".so")));
      if (p.soname.substr(0, stem.size() + 4) != stem + ".so." ||
          p.soname.find_first_not_of("0123456789", stem.size() + 4) != std::string_view::npos ||
          p.soname.size() == stem.size() + 4)
        y_.fail(d["soname"], "soname '" + std::string(p.soname) + "' is not " + stem + ".so.<major>");
      if (!sources_.count(p.source)) y_.fail(d["source"], "unknown source '" + std::string(p.source) + "' (define it under 'sources')");
      l.distribution_packages.push_back(p);
    });
    opt(n, "note");
    read_provenance(n, l);
    return l;
  }

  // What the "ROCm on Radeon" documents published for a release: its own
  // provenance, as its track entries in `gpus` have.
  RadeonTrack radeon_track(const YamlNode& n) {
    y_.allow_keys(n, {"docs", "driver", "wsl", "confidence", "unconfirmed", "sources"});
    RadeonTrack t;
    t.docs = opt(n, "docs");
    t.driver = opt(n, "driver");
    if (const YamlNode& w = n["wsl"]; w && !w.is_null()) {
      y_.allow_keys(w, {"status", "gpus"});
      t.wsl = RadeonTrackWsl{one_of(w, "status", {"beta", "supported", "none"}), opt_strs(w, "gpus")};
    }
    read_provenance(n, t);
    return t;
  }

  OwnPackages own_packages(const YamlNode& n) {
    y_.allow_keys(n, {"version", "release", "gpu_targets", "targets_from", "note", "confidence", "unconfirmed", "sources"});
    OwnPackages o;
    o.version = str(n, "version");
    o.release = str(n, "release");
    o.gpu_targets = strs(n, "gpu_targets");
    for (size_t i = 0; i < o.gpu_targets.size(); ++i)
      if (o.gpu_targets[i].rfind("gfx", 0) != 0) y_.fail(n["gpu_targets"].children[i], "a GPU target is a gfx name (\"gfx1100\")");
    o.targets_from = str(n, "targets_from");
    opt(n, "note");
    read_provenance(n, o);
    return o;
  }

  ReleaseGpu release_gpu(const YamlNode& n) {
    y_.allow_keys(n, {"gfx", "product", "family", "support", "note", "track", "confidence", "unconfirmed", "sources"});
    ReleaseGpu g;
    g.gfx = str(n, "gfx");
    g.product = opt(n, "product");
    g.family = opt(n, "family");
    if (g.family) check_one_of(n["family"], "family", *g.family, {"instinct", "radeon_pro", "radeon", "apu"});
    g.support = one_of(n, "support", {"supported", "deprecated", "unsupported"});
    opt(n, "note");
    // An entry from AMD's separate "ROCm on Radeon" documents rather than the
    // release's own table: it carries its own provenance, so a reader can
    // tell (and the report can say) where the support comes from.
    g.track = opt(n, "track");
    if (g.track) {
      check_one_of(n["track"], "track", *g.track, {"radeon"});
      provenance(n);
      g.unconfirmed = opt(n, "unconfirmed");
      for (auto& s : n["sources"].children) g.sources.push_back(s.text);
    } else {
      for (const char* k : {"confidence", "unconfirmed", "sources"})
        if (n[k]) y_.fail(n[k], std::string("'") + k + "' on a GPU entry goes with 'track' (the release's own list uses the release's)");
    }
    return g;
  }

  void release_install(const YamlNode& n) {
    if (n.is_null()) return;  // not known
    y_.allow_keys(n, {"amdgpu_install_dir", "amdgpu_install_pkg", "verified", "ubuntu_codenames", "native_packages",
                      "native_repo", "pip_multi_arch", "rpm_examples", "tarballs"});
    opt(n, "amdgpu_install_dir");
    opt(n, "amdgpu_install_pkg");
    y_.flag(y_.required(n, "verified"), "verified");
    for (const char* list : {"ubuntu_codenames", "native_packages", "rpm_examples"}) opt_strs(n, list);
    for (const char* text : {"native_repo", "pip_multi_arch", "tarballs"}) opt(n, text);
  }

  Release release(const YamlNode& n) {
    y_.allow_keys(n, {"version", "date", "date_note", "line", "architectures", "distros", "gpus", "radeon_track",
                      "install", "restrictions", "notes", "amdgpu_driver", "driver_repo_debian", "driver_repo_ubuntu",
                      "confidence", "unconfirmed", "corrected", "sources"});
    Release r;
    r.version = str(n, "version");
    r.date = opt(n, "date");
    opt(n, "date_note");
    r.line = one_of(n, "line", {"production", "preview", "core_sdk"});
    r.architectures = strs(n, "architectures");
    for (auto& d : y_.list(y_.required(n, "distros"), "distros")) r.distros.push_back(distro(d));
    for (auto& g : y_.list(y_.required(n, "gpus"), "gpus")) r.gpus.push_back(release_gpu(g));
    if (const YamlNode& t = n["radeon_track"]) r.radeon_track = radeon_track(t);
    release_install(y_.required(n, "install"));
    opt_strs(n, "restrictions");
    opt_strs(n, "notes");
    for (const char* text : {"amdgpu_driver", "driver_repo_debian", "driver_repo_ubuntu"}) opt(n, text);
    read_provenance(n, r);
    return r;
  }

  // "10.3.6 / 10.3.7", "9.4.3 (rev_id>=1) / 9.4.4": versions, each maybe
  // followed by the condition under which it gives the target.
  void gc_versions(const YamlNode& at, MatrixText text, GfxTarget& g) {
    if (trim_view(text).empty()) y_.fail(at, "'gc_ip' is empty: leave it out where the kernel gives the target no GC version");
    while (!text.empty()) {
      size_t cut = text.find(" / ");
      MatrixText part = text.substr(0, cut);
      text = cut == MatrixText::npos ? MatrixText() : text.substr(cut + 3);
      size_t end = 0;
      for (int dots = 0; end < part.size() && (std::isdigit(static_cast<unsigned char>(part[end])) || (part[end] == '.' && ++dots <= 2));)
        ++end;
      MatrixText version = part.substr(0, end);
      if (std::count(version.begin(), version.end(), '.') != 2 || version.back() == '.' || version.front() == '.' ||
          version.find("..") != MatrixText::npos)
        y_.fail(at, "'gc_ip' lists versions MAJOR.MINOR.REVISION separated by ' / ', each maybe with a condition in brackets: '" +
                        std::string(part) + "'");
      MatrixText rest = trim_view(part.substr(end));
      if (rest.empty()) {
        // The probe maps a GPU's version to its one target (derived_facts):
        // a plain version on two targets would name neither, silently.
        for (auto& other : m_.gfx_list_)
          if (std::find(other.gc_versions.begin(), other.gc_versions.end(), version) != other.gc_versions.end())
            y_.fail(at, "'gc_ip' " + std::string(version) + " is also " + std::string(other.gfx) +
                            "'s: a version without a condition names one target");
        g.gc_versions.push_back(version);
      } else if (rest.front() == '(' && rest.back() == ')') g.gc_versions_conditional.push_back(version);
      else y_.fail(at, "'gc_ip': a condition after the version goes in brackets: '" + std::string(part) + "'");
    }
  }

  GfxTarget gfx_target(const YamlNode& n) {
    y_.allow_keys(n, {"gfx", "kfd_target_version", "architecture", "apu", "products", "gc_ip", "note", "confidence",
                      "unconfirmed", "sources"});
    GfxTarget g;
    g.gfx = str(n, "gfx");
    g.kfd_target_version = y_.integer(y_.required(n, "kfd_target_version"), "kfd_target_version");
    g.architecture = str(n, "architecture");
    g.apu = y_.flag(y_.required(n, "apu"), "apu");
    g.products = strs(n, "products");
    if (auto gc = opt(n, "gc_ip")) gc_versions(n["gc_ip"], *gc, g);
    opt(n, "note");
    provenance(n);
    return g;
  }

  GpuDevice device(const YamlNode& n) {
    y_.allow_keys(n, {"device_id", "asic", "gfx", "gfx_disputed", "names", "apu", "pci_ids_name", "revision_names",
                      "confidence", "unconfirmed", "sources"});
    GpuDevice d;
    d.device_id = str(n, "device_id");
    d.asic = str(n, "asic");
    d.gfx = opt(n, "gfx");
    // A disputed target is no target: the entry names the candidates, with
    // gfx null and an `unconfirmed` that says which source names which.
    d.gfx_disputed = opt_strs(n, "gfx_disputed");
    if (!d.gfx_disputed.empty()) {
      if (d.gfx) y_.fail(n["gfx"], "'gfx' must be null where 'gfx_disputed' names the targets sources disagree on");
      if (d.gfx_disputed.size() < 2) y_.fail(n["gfx_disputed"], "'gfx_disputed' names at least two targets");
      if (!n["unconfirmed"]) y_.fail(n, "'gfx_disputed' needs an 'unconfirmed' saying which source names which target");
    }
    d.names = strs(n, "names");
    d.apu = y_.flag(y_.required(n, "apu"), "apu");
    d.pci_ids_name = opt(n, "pci_ids_name");
    if (const YamlNode& revisions = n["revision_names"]) text_map(revisions, "revision_names");
    provenance(n);
    return d;
  }

  // A map from data (a PCI revision, a distribution version) to text.
  void text_map(const YamlNode& n, const char* what) {
    y_.mapping(n, "'" + std::string(what) + "' must map a name to text");
    for (size_t i = 0; i < n.pair_count(); ++i) y_.string(n.value(i), what);
  }

  Override override_entry(const YamlNode& n) {
    y_.allow_keys(n, {"gfx", "value", "runs_as", "outcome", "caveats", "confidence", "unconfirmed", "sources"});
    Override o;
    o.gfx = str(n, "gfx");
    o.value = opt(n, "value");
    o.runs_as = opt(n, "runs_as");
    o.outcome = one_of(n, "outcome", {"works", "works_with_caveats", "fails", "unknown"});
    o.caveats = str(n, "caveats");
    provenance(n);
    return o;
  }

  Wheel wheel(const YamlNode& n) {
    y_.allow_keys(n, {"torch", "rocm", "channel", "index_url", "python", "torchvision", "torchaudio", "gfx",
                      "gfx_confidence", "gfx_absent", "notes", "confidence", "unconfirmed", "sources"});
    Wheel w;
    w.torch = str(n, "torch");
    w.rocm = str(n, "rocm");
    w.channel = one_of(n, "channel", {"release", "test", "nightly"});
    w.index_url = str(n, "index_url");
    w.python = null_or_strs(n, "python");
    opt(n, "torchvision");
    opt(n, "torchaudio");
    w.gfx = null_or_strs(n, "gfx");
    w.gfx_confidence = one_of(n, "gfx_confidence", {"high", "medium", "low"});
    w.gfx_absent = opt_strs(n, "gfx_absent");
    opt_strs(n, "notes");
    provenance(n);
    w.unconfirmed = opt(n, "unconfirmed");
    return w;
  }

  void therock(const YamlNode& n) {
    y_.allow_keys(n, {"family", "gfx", "gfx_confidence", "index_url", "nightly_index_url", "torch", "python", "notes",
                      "device_extra_rule", "install_example", "confidence", "unconfirmed", "sources"});
    for (const char* text : {"family", "index_url", "nightly_index_url"}) str(n, text);
    null_or_strs(n, "gfx");
    one_of(n, "gfx_confidence", {"high", "medium", "low"});
    for (const char* list : {"torch", "python"}) strs(n, list);
    opt_strs(n, "notes");
    for (const char* text : {"device_extra_rule", "install_example"}) opt(n, text);
    provenance(n);
  }

  RadeonWheel radeon_repo(const YamlNode& n) {
    y_.allow_keys(n, {"rocm", "torch", "torchvision", "triton", "find_links", "file", "python", "notes", "confidence",
                      "unconfirmed", "corrected", "sources"});
    RadeonWheel w;
    w.rocm = str(n, "rocm");
    w.find_links = str(n, "find_links");
    w.torch = opt(n, "torch");
    for (const char* text : {"torchvision", "triton", "file"}) opt(n, text);
    w.python = null_or_strs(n, "python");
    opt_strs(n, "notes");
    read_provenance(n, w);
    return w;
  }

  void gpu_lifecycle(const YamlNode& n) {
    y_.allow_keys(n, {"gfx", "products", "status", "confidence", "unconfirmed", "corrected", "sources"});
    for (const char* text : {"gfx", "products", "status"}) str(n, text);
    provenance(n);
  }

  void index_rule(const YamlNode& n) {
    y_.allow_keys(n, {"release", "test", "nightly", "local_version_suffix", "note", "confidence", "sources"});
    for (const char* text : {"release", "test", "nightly", "local_version_suffix"}) str(n, text);
    opt(n, "note");
    provenance(n);
  }

  void install_templates(const YamlNode& n) {
    y_.allow_keys(n, {"dir_rule", "pkg_rule_6x", "pkg_rule_7x", "ubuntu_deb_url", "el_rpm_url", "rhel_rpm_url",
                      "sles_rpm_url", "el_path_rule", "apt_pin", "driver_repo_7_0", "driver_repo_7_2_4",
                      "ubuntu_codenames", "debian_repo_suites", "native_repos_6x", "confidence", "unconfirmed",
                      "corrected", "sources"});
    for (const char* text : {"dir_rule", "pkg_rule_6x", "pkg_rule_7x", "ubuntu_deb_url", "el_rpm_url", "rhel_rpm_url",
                             "sles_rpm_url", "el_path_rule", "apt_pin", "driver_repo_7_0", "driver_repo_7_2_4"})
      opt(n, text);
    for (const char* map : {"ubuntu_codenames", "debian_repo_suites"})
      if (n[map]) text_map(n[map], map);
    if (const YamlNode& repos = n["native_repos_6x"]) {
      y_.allow_keys(repos, {"rocm_apt", "amdgpu_apt", "rocm_el", "amdgpu_el", "rocm_sles", "amdgpu_sles", "gpg_key"});
      text_map(repos, "native_repos_6x");
    }
    provenance(n);
  }

  void kmd_userspace_compat(const YamlNode& n) {
    y_.allow_keys(n, {"rule_before_6_4", "rule_from_6_4", "driver_compat", "driver_pairs", "tested", "confidence",
                      "unconfirmed", "sources"});
    for (const char* text : {"rule_before_6_4", "rule_from_6_4"}) opt(n, text);
    each(n, "driver_compat", [&](const YamlNode& c) {
      y_.allow_keys(c, {"amdgpu", "rocm"});
      str(c, "amdgpu");
      strs(c, "rocm");
    });
    each(n, "driver_pairs", [&](const YamlNode& p) {
      y_.allow_keys(p, {"amdgpu", "rocm"});
      str(p, "amdgpu");
      str(p, "rocm");
    });
    if (const YamlNode& tested = n["tested"]) {
      y_.mapping(tested, "'tested' must map a ROCm series to driver versions");
      for (size_t i = 0; i < tested.pair_count(); ++i) y_.strings(tested.value(i), "tested");
    }
    provenance(n);
  }

  void latest_instinct_matrix(const YamlNode& n) {
    y_.allow_keys(n, {"amdgpu_driver", "distros", "gpus", "firmware", "note", "confidence", "unconfirmed", "sources"});
    opt_strs(n, "amdgpu_driver");
    each(n, "distros", [&](const YamlNode& d) { distro(d); });
    each(n, "gpus", [&](const YamlNode& g) { release_gpu(g); });
    each(n, "firmware", [&](const YamlNode& f) {
      y_.allow_keys(f, {"gpu", "pldm"});
      str(f, "gpu");
      strs(f, "pldm");
    });
    opt(n, "note");
    provenance(n);
  }
};

Matrix Matrix::load(const std::vector<RuleFile>& files, std::vector<LoadError>& errors) {
  Matrix m;
  for (auto& f : files) MatrixReader(m, f, errors).read();
  if (m.releases_.empty() && !files.empty()) errors.push_back({{"rules/matrix", 0, 0}, "no ROCm releases in the matrix"});
  m.index();
  if (!m.devices_list_.empty()) m.check_product_names(errors);
  return m;
}

}  // namespace rocmdoc
