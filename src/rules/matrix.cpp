#include "rules/matrix.h"

#include "base/text.h"
#include "base/version.h"
#include "formats/yaml_json.h"

namespace rocmdoc {

namespace {

// A scalar the way the matrix's JSON holds it (yaml_to_json): a string
// unless YAML reads it unquoted as a bool, null or integer; "" otherwise.
std::string string_of(const YamlNode* n) {
  return n && n->is_scalar() && yaml_scalar_is_string(*n) ? std::string(n->text) : "";
}

std::string str(const YamlNode& n, const char* key) { return string_of(n.find(key)); }

bool in_list(const YamlNode* list, const std::string& value) {
  if (!list || !list->is_sequence()) return false;
  for (auto& v : list->children)
    if (v.is_scalar() && string_of(&v) == value) return true;
  return false;
}

// An empty or absent list means "not known".
const YamlNode* listed(const YamlNode& n, const char* key) {
  const YamlNode* list = n.find(key);
  return list && list->is_sequence() && !list->children.empty() ? list : nullptr;
}

// "distro 24.04 point 24.04.2" matches a machine's VERSION_ID "24.04".
bool distro_matches(const YamlNode& row, const std::string& distro, const std::string& version_id) {
  if (str(row, "id") != distro) return false;
  return str(row, "version") == version_id || in_list(row.find("point_versions"), version_id);
}

std::string unconfirmed_note(const YamlNode& r) {
  std::string u = str(r, "unconfirmed");
  return u.empty() ? "" : " (unconfirmed: " + u + ")";
}

std::span<const YamlNode> entries(const YamlNode& doc, const char* key) {
  const YamlNode* n = doc.find(key);
  return n && n->is_sequence() ? n->children : std::span<const YamlNode>{};
}

Json json_or_null(const YamlNode* n) { return n ? yaml_to_json(*n) : Json(nullptr); }

}  // namespace

// The matrix stays in the parsed trees and is queried there: converting all
// of it to JSON was most of what a `check` run spent loading rules. Only
// the entries a caller asks for become JSON.
Matrix Matrix::load(const std::vector<RuleFile>& files, std::vector<LoadError>& errors) {
  Matrix m;
  for (auto& f : files) {
    auto tree = rule_file_tree(f, errors);
    if (!tree) continue;
    auto& kept = m.trees_.emplace_back(std::make_shared<const YamlTree>(std::move(*tree)));
    const YamlNode& doc = kept->root();
    const YamlNode* schema = doc.find("schema");
    if (!schema || schema->text != "1") {
      errors.push_back({{f.name, 1, 1}, "a matrix file starts with 'schema: 1'"});
      continue;
    }
    const YamlNode* as_of = doc.find("as_of");
    if (as_of && as_of->text > m.as_of_) m.as_of_ = std::string(as_of->text);
    for (auto& r : entries(doc, "releases")) m.releases_.push_back(&r);
    for (auto& d : entries(doc, "devices"))
      if (d.find("device_id")) m.devices_.insert_or_assign(to_lower(str(d, "device_id")), &d);
    for (auto& g : entries(doc, "gfx_targets")) m.gfx_targets_.insert_or_assign(str(g, "gfx"), &g);
    for (auto& o : entries(doc, "overrides")) m.add_override(o);
    for (auto& w : entries(doc, "wheels")) m.wheels_.push_back(&w);
  }
  if (m.releases_.empty() && !files.empty()) errors.push_back({{"rules/matrix", 0, 0}, "no ROCm releases in the matrix"});
  return m;
}

// A target can have several reported values (gfx90c: 9.0.0 works, 9.0.12
// fails); the one to suggest is the best reported outcome.
static int outcome_rank(const YamlNode& o) {
  std::string outcome = str(o, "outcome");
  if (outcome == "works") return 3;
  if (outcome == "works_with_caveats") return 2;
  if (outcome == "unknown") return 1;
  return 0;
}

void Matrix::add_override(const YamlNode& o) {
  std::string gfx = str(o, "gfx");
  auto it = overrides_.find(gfx);
  if (it == overrides_.end() || outcome_rank(o) > outcome_rank(*it->second)) overrides_[gfx] = &o;
  override_reports_.push_back(&o);
}

Json Matrix::hsa_override_reported(const std::string& gfx, const std::string& value) const {
  for (auto* o : override_reports_)
    if (str(*o, "gfx") == gfx && str(*o, "value") == value) return json_or_null(o->find("outcome"));
  return nullptr;
}

Value Matrix::torch_wheel_has_gfx(const std::string& torch_version, const std::string& gfx) const {
  // "2.5.1+rocm6.2" -> torch 2.5.1 from the rocm6.2 index
  auto plus = torch_version.find("+rocm");
  if (plus == std::string::npos) return Value::unknown("torch " + torch_version + " is not a ROCm wheel from download.pytorch.org");
  std::string torch = torch_version.substr(0, plus), rocm = torch_version.substr(plus + 5);
  for (auto* w : wheels_) {
    if (str(*w, "torch") != torch || str(*w, "rocm") != rocm) continue;
    if (const YamlNode* list = w->find("gfx"); list && list->is_sequence()) return Value::of(in_list(list, gfx));
    if (in_list(w->find("gfx_absent"), gfx)) return Value::of(false);
    return Value::unknown("the matrix has no gfx list for torch " + torch_version + unconfirmed_note(*w));
  }
  return Value::unknown("torch " + torch_version + " is not in the matrix (as of " + as_of_ + ")");
}

Json Matrix::device(const std::string& device_id) const {
  auto it = devices_.find(to_lower(device_id));
  return json_or_null(it == devices_.end() ? nullptr : it->second);
}

Json Matrix::gfx_target(const std::string& gfx) const {
  auto it = gfx_targets_.find(gfx);
  return json_or_null(it == gfx_targets_.end() ? nullptr : it->second);
}

const YamlNode* Matrix::release_node(const std::string& version) const {
  for (auto* r : releases_)
    if (str(*r, "version") == version) return r;
  return nullptr;
}

Json Matrix::release(const std::string& version) const { return json_or_null(release_node(version)); }

Json Matrix::releases() const {
  Json out = Json::array();
  for (auto* r : releases_) out.push_back(yaml_to_json(*r));
  return out;
}

Json Matrix::wheels() const {
  Json out = Json::array();
  for (auto* w : wheels_) out.push_back(yaml_to_json(*w));
  return out;
}

Value Matrix::gpu_support(const std::string& version, const std::string& gfx) const {
  const YamlNode* r = release_node(version);
  if (!r) return Value::unknown("ROCm " + version + " is not in the matrix (as of " + as_of_ + ")");
  const YamlNode* gpus = listed(*r, "gpus");
  if (!gpus) return Value::unknown("the matrix has no GPU list for ROCm " + version + unconfirmed_note(*r));
  std::string best = "not_listed";
  for (auto& g : gpus->children) {
    if (str(g, "gfx") != gfx) continue;
    std::string s = str(g, "support");
    // A target with several products can be listed twice; the best wins.
    if (s == "supported" || (s == "deprecated" && best != "supported") || best == "not_listed") best = s;
  }
  return Value::of(best);
}

Value Matrix::distro_support(const std::string& version, const std::string& distro, const std::string& version_id) const {
  const YamlNode* r = release_node(version);
  if (!r) return Value::unknown("ROCm " + version + " is not in the matrix (as of " + as_of_ + ")");
  const YamlNode* distros = listed(*r, "distros");
  if (!distros) return Value::unknown("the matrix has no distribution list for ROCm " + version + unconfirmed_note(*r));
  for (auto& d : distros->children)
    if (distro_matches(d, distro, version_id)) return Value::of(true);
  return Value::of(false);
}

Value Matrix::kernel_support(const std::string& version, const std::string& distro, const std::string& version_id,
                             const std::string& kernel_release) const {
  const YamlNode* r = release_node(version);
  if (!r) return Value::unknown("ROCm " + version + " is not in the matrix");
  for (auto& d : entries(*r, "distros")) {
    if (!distro_matches(d, distro, version_id)) continue;
    const YamlNode* kernels = listed(d, "kernels");
    if (!kernels) return Value::unknown("the matrix lists no kernels for ROCm " + version + " on " + distro + " " + version_id);
    for (auto& k : kernels->children)
      if (version_in_series(kernel_release, str(k, "series"))) return Value::of(true);
    return Value::of(false);
  }
  return Value::unknown("ROCm " + version + " does not list " + distro + " " + version_id);
}

Json Matrix::releases_for_gfx(const std::string& gfx) const {
  Json out = Json::array();
  for (auto* r : releases_) {
    if (str(*r, "line") != "production") continue;
    Value s = gpu_support(str(*r, "version"), gfx);
    if (!s.is_unknown() && (s.json() == "supported" || s.json() == "deprecated")) out.push_back(str(*r, "version"));
  }
  return out;
}

Json Matrix::newest_release_for(const std::string& gfx, const std::string& distro, const std::string& version_id) const {
  Json best = nullptr;
  for (auto* r : releases_) {
    std::string v = str(*r, "version");
    if (str(*r, "line") != "production") continue;
    Value g = gpu_support(v, gfx);
    Value d = distro_support(v, distro, version_id);
    bool ok = !g.is_unknown() && (g.json() == "supported" || g.json() == "deprecated") && d.is_true();
    if (ok && (best.is_null() || compare_versions(v, best.get<std::string>()) > 0)) best = v;
  }
  return best;
}

Json Matrix::hsa_override(const std::string& gfx) const {
  auto it = overrides_.find(gfx);
  return json_or_null(it == overrides_.end() ? nullptr : it->second);
}

void Matrix::add_functions(std::map<std::string, Function>& f) const {
  auto s = [](const Value& v) { return v.json().is_string() ? v.json().get<std::string>() : v.json().dump(); };
  // The matrix outlives the function table (both belong to one check run).
  const Matrix* m = this;
  f["gpu_gfx"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                    Json d = m->device(s(a[0]));
                    return Value::of(d.is_null() ? Json(nullptr) : field(d, "gfx"));
                  }};
  f["gpu_in_matrix"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                          return Value::of(!m->device(s(a[0])).is_null());
                        }};
  f["rocm_gpu_support"] = {2, 2, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                             return m->gpu_support(s(a[0]), s(a[1]));
                           }};
  f["rocm_distro_supported"] = {3, 3, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                  return m->distro_support(s(a[0]), s(a[1]), s(a[2]));
                                }};
  f["rocm_kernel_supported"] = {4, 4, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                  return m->kernel_support(s(a[0]), s(a[1]), s(a[2]), s(a[3]));
                                }};
  f["rocm_releases_for_gfx"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                  return Value::of(m->releases_for_gfx(s(a[0])));
                                }};
  f["rocm_release_known"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                               return Value::of(m->release_node(s(a[0])) != nullptr);
                             }};
  f["hsa_override_value"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                               Json o = m->hsa_override(s(a[0]));
                               return Value::of(o.is_null() ? Json(nullptr) : field(o, "value"));
                             }};
  f["hsa_override_outcome"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                 Json o = m->hsa_override(s(a[0]));
                                 return Value::of(o.is_null() ? Json(nullptr) : field(o, "outcome"));
                               }};
  f["hsa_override_reported"] = {2, 2, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                  return Value::of(m->hsa_override_reported(s(a[0]), s(a[1])));
                                }};
  f["gfx_kfd_value"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                          Json g = m->gfx_target(s(a[0]));
                          return Value::of(g.is_null() ? Json(nullptr) : field(g, "kfd_target_version"));
                        }};
  f["rocm_architectures"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                               const YamlNode* r = m->release_node(s(a[0]));
                               if (!r) return Value::unknown("ROCm " + s(a[0]) + " is not in the matrix");
                               // Empty is "not captured" (previews, the Core SDK line): unknown, or
                               // every machine would be "not a supported architecture".
                               const YamlNode* archs = r->find("architectures");
                               if (!archs || !archs->is_sequence() || archs->children.empty())
                                 return Value::unknown("the matrix lists no architectures for ROCm " + s(a[0]));
                               return Value::of(yaml_to_json(*archs));
                             }};
  f["newest_rocm"] = {0, 0, false, [m](const std::vector<Value>&, EvalContext&) {
                        Json best = nullptr;
                        for (auto* r : m->releases_)
                          if (str(*r, "line") == "production" &&
                              (best.is_null() || compare_versions(str(*r, "version"), best.get<std::string>()) > 0))
                            best = str(*r, "version");
                        return best.is_null() ? Value::unknown("the matrix has no releases") : Value::of(best);
                      }};
  f["torch_wheel_has_gfx"] = {2, 2, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                return m->torch_wheel_has_gfx(s(a[0]), s(a[1]));
                              }};
  // Python versions ("3.12") that have a ROCm wheel of any torch release.
  f["torch_rocm_wheel_for_python"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                        for (auto* w : m->wheels_)
                                          if (in_list(w->find("python"), s(a[0]))) return Value::of(true);
                                        return Value::of(false);
                                      }};
}

}  // namespace rocmdoc
