// The matrix's queries, over the records matrix_reader.cpp loads.
#include "rules/matrix.h"
#include "base/json_text.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "base/text.h"
#include "base/version.h"

namespace rocmdoc {

namespace {

bool contains(const MatrixTexts& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string text(std::optional<MatrixText> t) { return t ? std::string(*t) : ""; }

Json json_or_null(std::optional<MatrixText> t) { return t ? Json(std::string(*t)) : Json(nullptr); }

Json json_list(const MatrixTexts& list) {
  Json out = Json::array();
  for (auto& s : list) out.push_back(std::string(s));
  return out;
}

std::string unconfirmed_note(std::optional<MatrixText> u) {
  return u && !u->empty() ? " (unconfirmed: " + std::string(*u) + ")" : "";
}

// A target can have several reported values (gfx90c: 9.0.0 works, 9.0.12
// fails); the one to suggest is the best reported outcome.
int outcome_rank(const Override& o) {
  if (o.outcome == "works") return 3;
  if (o.outcome == "works_with_caveats") return 2;
  if (o.outcome == "unknown") return 1;
  return 0;
}

bool listed_as_supported(const Value& s) {
  return !s.is_unknown() && (s.json() == "supported" || s.json() == "deprecated");
}

}  // namespace

bool MatrixDistro::matches(std::string_view distro, std::string_view version_id) const {
  if (id != distro) return false;
  if (version == version_id || contains(point_versions, version_id)) return true;
  bool major_only = version.find('.') == std::string_view::npos;
  return major_only && version_id.size() > version.size() && version_id.substr(0, version.size()) == version &&
         version_id[version.size()] == '.';
}

namespace {

// A product name's words, lower case, before any "(...)": "AMD Instinct
// MI300X" gives instinct, mi300x ("AMD" is the vendor, not the product).
std::vector<std::string> product_words(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty() && word != "amd") words.push_back(word);
    word.clear();
  };
  for (char c : name) {
    if (c == '(') break;
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) word += static_cast<char>(std::tolower(u));
    else flush();
  }
  flush();
  return words;
}

// amdgpu.ids' "Instinct MI250X / MI250" is two products: the words before
// the first one's model are the others' too.
std::vector<std::string> split_products(std::string_view name) {
  std::vector<std::string> out;
  size_t slash = name.find('/');
  if (slash == std::string_view::npos) return {std::string(name)};
  std::string first(name.substr(0, slash));
  while (!first.empty() && first.back() == ' ') first.pop_back();
  size_t space = first.rfind(' ');
  std::string prefix = space == std::string::npos ? "" : first.substr(0, space + 1);
  out.push_back(first);
  for (size_t start = slash + 1; start <= name.size();) {
    size_t end = std::min(name.find('/', start), name.size());
    std::string part(name.substr(start, end - start));
    size_t b = part.find_first_not_of(' '), e = part.find_last_not_of(' ');
    if (b != std::string::npos) out.push_back(prefix + part.substr(b, e - b + 1));
    start = end + 1;
  }
  return out;
}

// A device's product is one of AMD's listed products when its words begin
// with the listed product's: "Instinct MI300X VF" (a virtual function of the
// MI300X) is the MI300X; "Radeon RX 7900 XTX" is not the "Radeon RX 7900 XT".
bool is_product(const std::vector<std::string>& device, const std::vector<std::string>& listed) {
  return !listed.empty() && device.size() >= listed.size() && std::equal(listed.begin(), listed.end(), device.begin());
}

// Every product of the device, as words: amdgpu.ids' marketing names;
// where it has none, pci.ids' bracketed products ("Aqua Vanjaram [Instinct
// MI325X VF]"). What a row's product limit is matched against, and what its
// names are checked against at load (Matrix::check_product_names).
std::vector<std::vector<std::string>> device_products(const GpuDevice& device) {
  std::vector<std::string_view> names(device.names.begin(), device.names.end());
  if (names.empty() && device.pci_ids_name) {
    std::string_view p = *device.pci_ids_name;
    size_t open = p.find('['), close = p.rfind(']');
    if (open != std::string_view::npos && close != std::string_view::npos && close > open)
      names.push_back(p.substr(open + 1, close - open - 1));
  }
  std::vector<std::vector<std::string>> out;
  for (auto name : names)
    for (auto& product : split_products(name)) out.push_back(product_words(product));
  return out;
}

// Whether the device is one of the products: true, false, or nullopt where
// the matrix does not know its products or they are some listed, some not
// (one device id for the RX 7900 XT and XTX).
std::optional<bool> device_among(const GpuDevice& device, const MatrixTexts& products) {
  bool in = false, out = false;
  for (auto& words : device_products(device)) {
    bool listed = false;
    for (auto p : products) listed = listed || is_product(words, product_words(p));
    (listed ? in : out) = true;
  }
  if (in == out) return std::nullopt;  // none known, or both
  return in;
}

}  // namespace

std::string MatrixDistro::limit_leaves_out(std::string_view family, std::string_view gfx, const GpuDevice* device) const {
  auto names = [](const MatrixTexts& list) {
    std::string out;
    for (size_t i = 0; i < list.size(); ++i)
      out += (i == 0 ? "" : i + 1 == list.size() ? " and " : ", ") + std::string(list[i]);
    return out;
  };
  if (!family.empty() && !limited_families.empty() && !contains(limited_families, family))
    return "only for " + names(limited_families) + " GPUs";
  if (!gfx.empty() && !limited_gfx.empty() && !contains(limited_gfx, gfx)) return "only for " + names(limited_gfx);
  if (device && !limited_products.empty() && device_among(*device, limited_products) == false)
    return "only for " + names(limited_products);
  if (device && !excepted_products.empty() && device_among(*device, excepted_products) == true)
    return "not for the " + names(excepted_products);
  return "";
}

std::string MatrixDistro::leaves_out(std::string_view family, std::string_view gfx, const GpuDevice* device) const {
  if (std::string limit = limit_leaves_out(family, gfx, device); !limit.empty()) return limit;
  // Kernel rows for other families only: AMD does not list this family
  // there. No kernels at all is "not known", and leaves nobody out.
  if (family.empty() || kernels.empty()) return "";
  for (auto& k : kernels)
    if (k.for_family(family)) return "";
  return "with no kernel for " + std::string(family) + " GPUs";
}

std::vector<const MatrixDistro*> Release::distro_rows(std::string_view distro, std::string_view version_id) const {
  std::vector<const MatrixDistro*> rows;
  for (auto& d : distros)
    if (d.matches(distro, version_id)) rows.push_back(&d);
  return rows;
}

void Matrix::index() {
  for (size_t i = 0; i < devices_list_.size(); ++i)
    devices_.insert_or_assign(to_lower(std::string(devices_list_[i].device_id)), i);
  for (size_t i = 0; i < gfx_list_.size(); ++i) gfx_targets_.insert_or_assign(gfx_list_[i].gfx, i);
  for (size_t i = 0; i < overrides_list_.size(); ++i) {
    auto it = overrides_.find(overrides_list_[i].gfx);
    if (it == overrides_.end()) overrides_.emplace(overrides_list_[i].gfx, i);
    else if (outcome_rank(overrides_list_[i]) > outcome_rank(overrides_list_[it->second])) it->second = i;
  }
}

const GpuDevice* Matrix::device(std::string_view device_id) const {
  auto it = devices_.find(to_lower(std::string(device_id)));
  return it == devices_.end() ? nullptr : &devices_list_[it->second];
}

const GpuDevice* Matrix::device_or_null(const std::string& device_id) const {
  return device_id.empty() ? nullptr : device(device_id);
}

const GfxTarget* Matrix::gfx_target(std::string_view gfx) const {
  auto it = gfx_targets_.find(gfx);
  return it == gfx_targets_.end() ? nullptr : &gfx_list_[it->second];
}

const GfxTarget* Matrix::gfx_for_gc_version(std::string_view version) const {
  const GfxTarget* found = nullptr;
  for (auto& t : gfx_list_) {
    bool conditional = std::find(t.gc_versions_conditional.begin(), t.gc_versions_conditional.end(), version) !=
                       t.gc_versions_conditional.end();
    bool plain = std::find(t.gc_versions.begin(), t.gc_versions.end(), version) != t.gc_versions.end();
    if (conditional || (plain && found)) return nullptr;  // the version alone does not decide
    if (plain) found = &t;
  }
  return found;
}

const Override* Matrix::hsa_override(std::string_view gfx) const {
  auto it = overrides_.find(gfx);
  return it == overrides_.end() ? nullptr : &overrides_list_[it->second];
}

// The words of a product name that tell one GPU from another (matrix.h):
// lower case, without the brand words people leave out or add ("AMD Radeon RX 6700 XT",
// "rx6700xt" and "6700 XT" are one key), and without a parenthesised note
// ("Instinct MI8 (GCN3, Fiji)").
std::string product_key(std::string_view name) {
  // "780M iGPU", "8060S integrated GPU": what users put after an iGPU's
  // name is not part of it.
  static const std::set<std::string, std::less<>> brand = {"amd",  "ati",        "radeon", "instinct", "graphics",
                                                           "pro",  "ai",         "igpu",   "apu",      "gpu",
                                                           "integrated"};
  std::string key, word;
  bool first = true;
  auto flush = [&] {
    if (word.empty()) return;
    if (!brand.count(word) && !(first && word == "rx")) key += word;
    if (!brand.count(word)) first = false;
    word.clear();
  };
  for (char c : name) {
    if (c == '(') break;
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      // "RX580": the letters and the number are separate words.
      if (!word.empty() && std::isdigit(u) && word == "rx") flush();
      word += static_cast<char>(std::tolower(u));
    } else {
      flush();
    }
  }
  flush();
  return key;
}

std::optional<std::string> Matrix::gfx_for_product_name(std::string_view name) const {
  // Asked once per explained text, over ~1,000 names: no index is kept.
  std::string want = product_key(name);
  if (want.empty()) return std::nullopt;
  std::optional<std::string> found;
  auto offer = [&](std::string_view candidate, std::string_view gfx) {
    if (product_key(candidate) != want) return true;
    if (found && *found != gfx) return false;  // two targets share the name: say nothing
    found = std::string(gfx);
    return true;
  };
  // "Radeon RX 470/480/570/580/590" names five cards: the words before the
  // first one's number are every other one's too ("Radeon RX 570").
  auto offer_each = [&](std::string_view candidate, std::string_view gfx) {
    size_t slash = candidate.find('/');
    if (slash == std::string_view::npos) return offer(candidate, gfx);
    std::string first = trim(candidate.substr(0, slash));
    size_t space = first.rfind(' ');
    std::string prefix = space == std::string::npos ? "" : first.substr(0, space + 1);
    if (!offer(first, gfx)) return false;
    for (size_t start = slash + 1; start <= candidate.size();) {
      size_t end = std::min(candidate.find('/', start), candidate.size());
      std::string part = trim(candidate.substr(start, end - start));
      if (!part.empty() && !offer(prefix + part, gfx)) return false;
      start = end + 1;
    }
    return true;
  };
  for (auto& d : devices_list_) {
    if (!d.gfx) continue;
    for (auto n : d.names)
      if (!offer_each(n, *d.gfx)) return std::nullopt;
  }
  for (auto& t : gfx_list_)
    for (auto n : t.products)
      if (!offer_each(n, t.gfx)) return std::nullopt;
  return found;
}

const Release* Matrix::find_release(std::string_view version) const {
  for (auto& r : releases_)
    if (r.version == version) return &r;
  return nullptr;
}

Json Matrix::release(const std::string& version) const {
  const Release* r = find_release(version);
  if (!r) return nullptr;
  Json distros = Json::array();
  for (auto& d : r->distros) distros.push_back(std::string(d.id) + " " + std::string(d.version));
  return {{"version", std::string(r->version)}, {"date", json_or_null(r->date)},
          {"line", std::string(r->line)},       {"confidence", std::string(r->confidence)},
          {"unconfirmed", json_or_null(r->unconfirmed)}, {"sources", json_list(r->sources)},
          {"distros", distros}};
}

Json Matrix::hsa_override_reported(const std::string& gfx, const std::string& value) const {
  for (auto& o : overrides_list_)
    if (o.gfx == gfx && text(o.value) == value) return std::string(o.outcome);
  return nullptr;
}

const Wheel* Matrix::rocm_wheel(const std::string& torch_version) const {
  // "2.5.1+rocm6.2" -> torch 2.5.1 from the rocm6.2 index
  auto plus = torch_version.find("+rocm");
  if (plus == std::string::npos) return nullptr;
  std::string torch = torch_version.substr(0, plus), rocm = torch_version.substr(plus + 5);
  for (auto& w : wheels_)
    if (w.torch == torch && w.rocm == rocm) return &w;
  return nullptr;
}

Value Matrix::torch_wheel_has_gfx(const std::string& torch_version, const std::string& gfx) const {
  if (torch_version.find("+rocm") == std::string::npos)
    return Value::unknown("torch " + torch_version + " is not a ROCm wheel from download.pytorch.org");
  const Wheel* w = rocm_wheel(torch_version);
  if (!w) return Value::unknown("torch " + torch_version + " is not in the matrix (as of " + as_of_ + ")");
  return wheel_has_gfx(*w, gfx);
}

Value Matrix::wheel_has_gfx(const Wheel& w, const std::string& gfx) const {
  if (contains(w.gfx_absent, gfx)) return Value::of(false);
  if (w.gfx && contains(*w.gfx, gfx)) return Value::of(true);
  // Named for the unknown reasons only.
  std::string torch_version = std::string(w.torch) + "+rocm" + std::string(w.rocm);
  // A list of low confidence does not rule a GPU out: "your wheel lacks
  // this GPU" on an inferred list would send the user to replace a wheel
  // that may work.
  if (w.gfx && w.gfx_confidence == "low")
    return Value::unknown("torch " + torch_version + "'s gfx list, which does not name " + gfx +
                          ", is of low confidence" + unconfirmed_note(w.unconfirmed));
  if (w.gfx) return Value::of(false);
  return Value::unknown("the matrix has no gfx list for torch " + torch_version + unconfirmed_note(w.unconfirmed));
}

Value Matrix::gpu_support(const std::string& version, const std::string& gfx) const {
  const Release* r = find_release(version);
  if (!r) return Value::unknown("ROCm " + version + " is not in the matrix (as of " + as_of_ + ")");
  if (r->gpus.empty()) return Value::unknown("the matrix has no GPU list for ROCm " + version + unconfirmed_note(r->unconfirmed));
  std::string_view best = "not_listed";
  for (auto& g : r->gpus) {
    if (g.gfx != gfx) continue;
    std::string_view s = g.support;
    // A target with several products can be listed twice; the best wins.
    if (s == "supported" || (s == "deprecated" && best != "supported") || best == "not_listed") best = s;
  }
  // Some releases are known only by their compatibility matrix's target
  // column (every entry gfx-level, no product), which leaves out targets
  // AMD's product tables list: 6.3.1's names the Radeon PRO V710 (gfx1101)
  // and the deprecated gfx906, 6.3.3's column neither. A target another
  // release of the line lists by product is then not known to be left out.
  bool gfx_level_only = std::none_of(r->gpus.begin(), r->gpus.end(), [](auto& g) { return g.product.has_value(); });
  if (best == "not_listed" && gfx_level_only) {
    for (auto& other : releases_) {
      if (other.line != r->line) continue;
      bool by_product = std::any_of(other.gpus.begin(), other.gpus.end(), [&](auto& g) {
        return g.gfx == gfx && g.product && !g.track && (g.support == "supported" || g.support == "deprecated");
      });
      if (by_product)
        return Value::unknown("the matrix holds only ROCm " + version + "'s compatibility-matrix target list, not its " +
                              "product list; " + gfx + " is not on it, but ROCm " + std::string(other.version) +
                              "'s product list names it");
    }
  }
  return Value::of(std::string(best));
}

const ReleaseGpu* Matrix::gpu_track(const std::string& version, const std::string& gfx) const {
  const Release* r = find_release(version);
  if (!r) return nullptr;
  const ReleaseGpu* track = nullptr;
  for (auto& g : r->gpus) {
    if (g.gfx != gfx || (g.support != "supported" && g.support != "deprecated")) continue;
    if (!g.track) return nullptr;  // the release's own table lists it: no track to name
    if (!track) track = &g;
  }
  return track;
}

const RadeonWheel* Matrix::radeon_wheel(std::string_view version) const {
  for (auto& w : radeon_wheels_)
    if (w.rocm == version) return &w;
  return nullptr;
}

Value Matrix::distro_support(const std::string& version, const std::string& distro, const std::string& version_id) const {
  const Release* r = find_release(version);
  if (!r) return Value::unknown("ROCm " + version + " is not in the matrix (as of " + as_of_ + ")");
  if (r->distros.empty())
    return Value::unknown("the matrix has no distribution list for ROCm " + version + unconfirmed_note(r->unconfirmed));
  for (auto& d : r->distros)
    if (d.matches(distro, version_id)) return Value::of(true);
  return Value::of(false);
}

Value Matrix::kernel_support(const std::string& version, const std::string& distro, const std::string& version_id,
                             const std::string& kernel_release, const std::string& family, const std::string& gfx,
                             const std::string& device_id) const {
  const Release* r = find_release(version);
  if (!r) return Value::unknown("ROCm " + version + " is not in the matrix");
  auto rows = r->distro_rows(distro, version_id);
  if (rows.empty()) return Value::unknown("ROCm " + version + " does not list " + distribution_name(distro) + " " + version_id);
  // A kernel any row lists is listed (distro_rows). A row limited to other
  // GPUs lists none for this one; a row for it without kernels leaves them
  // not known, so a kernel no other row lists is unknown there, not unlisted.
  bool fits_with_kernels = false, fits_without_kernels = false, any_family = false;
  std::string left_out;
  const GpuDevice* device = device_or_null(device_id);
  for (auto* d : rows) {
    if (std::string why = d->limit_leaves_out(family, gfx, device); !why.empty()) {
      if (left_out.empty() && !d->kernels.empty()) left_out = why;
      continue;
    }
    if (d->kernels.empty()) {
      fits_without_kernels = true;
      continue;
    }
    fits_with_kernels = true;
    for (auto& k : d->kernels) {
      if (!k.for_family(family)) continue;
      any_family = true;
      if (version_in_series(kernel_release, k.series)) return Value::of(true);
    }
  }
  std::string where = " for ROCm " + version + " on " + distribution_name(distro) + " " + version_id;
  if (fits_without_kernels || (!fits_with_kernels && left_out.empty()))
    return Value::unknown("the matrix lists no kernels" + where);
  if (!fits_with_kernels)
    return Value::unknown("ROCm " + version + " lists " + distribution_name(distro) + " " + version_id + " " + left_out +
                          ", so none of its kernels is for this GPU");
  if (!any_family) return Value::unknown("the matrix lists no kernels" + where + " for " + family + " GPUs");
  return Value::of(false);
}

namespace {

std::string kernel_label(const MatrixKernel& k) {
  std::string label(k.series);
  if (k.kind == "ga") label += " (GA";
  else if (k.kind == "hwe") label += " (HWE";
  else if (k.kind == "uek") label += " (UEK";
  else return k.version ? label + " (" + std::string(*k.version) + ")" : label;
  return label + (k.version ? ", " + std::string(*k.version) : "") + ")";
}

// The distribution's package that installs a kernel of this kind, where a
// primary source names it (packages.ubuntu.com: linux-generic is the GA
// kernel, linux-generic-hwe-<release> the HWE one, which follows Ubuntu's
// newest HWE series; packages.debian.org: linux-image-amd64 the release's
// kernel). "" elsewhere: rocmdoc does not guess a package name.
bool names_kernel_packages(const std::string& distro) { return distro == "ubuntu" || distro == "debian"; }

std::string kernel_package(const std::string& distro, const std::string& version_id, const MatrixKernel& k) {
  if (!names_kernel_packages(distro)) return "";
  if (distro == "ubuntu" && k.kind == "ga") return "linux-generic";
  if (distro == "ubuntu" && k.kind == "hwe") return "linux-generic-hwe-" + version_id;
  if (distro == "debian" && k.kind == "ga") return "linux-image-amd64";
  return "";
}

// "6.5" of "6.5.0-45-generic"; "" where it has no series.
std::string kernel_series(const std::string& release) {
  size_t dot = release.find('.');
  size_t end = dot == std::string::npos ? dot : release.find_first_not_of("0123456789", dot + 1);
  if (dot == std::string::npos || dot == 0 || end == dot + 1) return "";
  return release.substr(0, end);
}

}  // namespace

Matrix::ListedKernels Matrix::listed_kernels(const std::string& version, const std::string& distro,
                                             const std::string& version_id, const std::string& running_kernel,
                                             const std::string& family, const std::string& gfx,
                                             const std::string& device_id) const {
  ListedKernels out;
  const Release* r = find_release(version);
  if (!r) {
    out.unknown_why = "ROCm " + version + " is not in the matrix (as of " + as_of_ + ")";
    return out;
  }
  std::string where = "ROCm " + version + " on " + distribution_name(distro) + " " + version_id;
  if (r->distros.empty()) {
    out.unknown_why = "the matrix has no distribution list for ROCm " + version;
    return out;
  }
  // Every row of the version, in kernel_support's way (Release::distro_rows),
  // so the kernels named in a fix are the ones the check judged by.
  auto rows = r->distro_rows(distro, version_id);
  if (rows.empty()) {
    out.unknown_why = "ROCm " + version + " does not list " + distribution_name(distro) + " " + version_id;
    return out;
  }
  if (std::all_of(rows.begin(), rows.end(), [](auto* d) { return d->kernels.empty(); })) {
    out.unknown_why = "the matrix lists no kernels for " + where;
    return out;
  }
  const GpuDevice* device = device_or_null(device_id);
  auto fits = [&](const MatrixDistro* d) { return !d->kernels.empty() && d->limit_leaves_out(family, gfx, device).empty(); };
  // Rows with kernels, all limited to other GPUs, list no kernel for this
  // one: unknown, with kernel_support's reason.
  if (std::none_of(rows.begin(), rows.end(), fits)) {
    out.unknown_why = kernel_support(version, distro, version_id, "", family, gfx, device_id).why();
    return out;
  }
  std::vector<const MatrixKernel*> listed;
  for (auto* d : rows) {
    if (!fits(d)) continue;
    for (auto& k : d->kernels)
      if (k.for_family(family)) listed.push_back(&k);
  }
  std::string running = kernel_series(running_kernel);
  if (!running.empty()) {
    auto older = std::stable_partition(listed.begin(), listed.end(),
                                       [&](const MatrixKernel* k) { return compare_versions(k->series, running) > 0; });
    // The older ones nearest the running kernel first: past a mainline 6.15,
    // HWE 6.11 before GA 6.8 (whichever is chosen in GRUB's menu, the newer
    // one keeps more of what the running kernel had).
    std::stable_sort(older, listed.end(), [](const MatrixKernel* a, const MatrixKernel* b) {
      return compare_versions(a->series, b->series) > 0;
    });
    out.running_newer = Value::of(!listed.empty() && older == listed.begin() &&
                                  std::none_of(listed.begin(), listed.end(), [&](const MatrixKernel* k) {
                                    return version_in_series(running_kernel, k->series);
                                  }));
  } else {
    out.running_newer = Value::unknown("the running kernel's series is not known (" + running_kernel + ")");
  }
  for (auto* k : listed) {
    std::string label = kernel_label(*k);
    if (std::find(out.labels.begin(), out.labels.end(), label) == out.labels.end()) out.labels.push_back(label);
    if (std::find(out.series.begin(), out.series.end(), k->series) == out.series.end()) out.series.emplace_back(k->series);
    std::string package = kernel_package(distro, version_id, *k);
    if (!package.empty() && std::find(out.packages.begin(), out.packages.end(), package) == out.packages.end()) {
      out.packages.push_back(package);
      if (out.newer_package.empty() && !running.empty() && compare_versions(k->series, running) > 0) {
        out.newer_package = package;
        out.newer_package_series = k->series;
      }
    }
  }
  if (out.labels.empty()) out.unknown_why = "the matrix lists no kernels for " + where + " for " + family + " GPUs";
  if (out.packages.empty())
    out.packages_why = names_kernel_packages(distro)
                           ? "the matrix names no GA or HWE kind for these kernels, which would name their packages"
                           : "rocmdoc knows the kernel packages of Ubuntu and Debian only";
  return out;
}

std::optional<std::string> Matrix::resolve_release(const std::string& wanted) const {
  if (find_release(wanted)) return wanted;
  const Release* newest = nullptr;
  for (auto& r : releases_)
    if (names_release(wanted, r.version) && (!newest || compare_versions(r.version, newest->version) > 0))
      newest = &r;
  if (!newest) return std::nullopt;
  return std::string(newest->version);
}

bool Matrix::has_gpu(const std::string& version, const std::string& gfx) const {
  return listed_as_supported(gpu_support(version, gfx));
}

Value Matrix::lists_gpu(const std::string& version, const std::string& distro, const std::string& version_id,
                        const std::string& family, const std::string& gfx, const std::string& device_id) const {
  const Release* r = find_release(version);
  if (!r) return Value::unknown("ROCm " + version + " is not in the matrix (as of " + as_of_ + ")");
  if (r->distros.empty())
    return Value::unknown("the matrix has no distribution list for ROCm " + version + unconfirmed_note(r->unconfirmed));
  return Value::of(gpu_left_out(version, distro, version_id, family, gfx, device_id).empty() &&
                   !r->distro_rows(distro, version_id).empty());
}

std::string Matrix::gpu_left_out(const std::string& version, const std::string& distro, const std::string& version_id,
                                 const std::string& family, const std::string& gfx, const std::string& device_id) const {
  // Left out only where every row of the version leaves it out; the first
  // row's reason names why.
  const Release* r = find_release(version);
  if (!r) return "";
  const GpuDevice* device = device_or_null(device_id);
  std::string first;
  for (auto* d : r->distro_rows(distro, version_id)) {
    std::string why = d->leaves_out(family, gfx, device);
    if (why.empty()) return "";
    if (first.empty()) first = why;
  }
  return first.empty() ? "" : "ROCm " + version + " lists " + distribution_name(distro) + " " + version_id + " " + first;
}

const OwnPackages* MatrixDistribution::own_packages_for(std::string_view version_id) const {
  for (auto& p : own_packages)
    if (p.version == version_id) return &p;
  return nullptr;
}

std::optional<std::string> Matrix::library_package(std::string_view library, std::string_view distro,
                                                   std::string_view version_id) const {
  std::string family = package_family(distro);
  std::string_view listed = distro;  // the ID AMD's lists would name
  if (const MatrixDistribution* d = distribution(distro); d && d->follows) {
    listed = *d->follows;
    if (family.empty()) family = package_family(listed);
  }
  // AMD's packages only where some release of AMD's lists the distribution:
  // Fedora's and Arch's ROCm are the distribution's own, under other names.
  bool amd_repository = false;
  for (auto& r : releases_)
    for (auto& d : r.distros) amd_repository = amd_repository || d.id == listed;
  return package_for_library(libraries_, library, family, distro, version_id, amd_repository);
}

const MatrixDistribution* Matrix::distribution(std::string_view id) const {
  for (auto& d : distributions_)
    if (d.id == id) return &d;
  return nullptr;
}

std::string Matrix::distribution_name(std::string_view id) const {
  const MatrixDistribution* d = distribution(id);
  return d ? std::string(d->name) : std::string(id);
}

Json Matrix::releases_for_gfx(const std::string& gfx, std::string_view line) const {
  Json out = Json::array();
  for (auto& r : releases_) {
    if (r.line != line) continue;
    std::string version(r.version);
    if (has_gpu(version, gfx)) out.push_back(version);
  }
  return out;
}

Json Matrix::newest_release_for(const std::string& gfx, const std::string& distro, const std::string& version_id,
                                const std::string& family, const std::string& device_id) const {
  // The production line first; the Core SDK line where no production
  // release lists both the GPU and the distribution: Ubuntu 26.04, which AMD
  // lists from 7.14.1 and 10.0.0 on, or a GPU the production tables do not
  // name yet (Strix Halo's gfx1151 on Ubuntu 24.04). `rocmdoc install`
  // installs that line with --rocm, by default on Ubuntu 26.04, and where
  // this falls back to it (install's on_request_listing asks lists_gpu too).
  for (const char* line : {"production", "core_sdk"}) {
    Json best = nullptr;
    for (auto& r : releases_) {
      if (r.line != line) continue;
      std::string v(r.version);
      bool ok = has_gpu(v, gfx) && lists_gpu(v, distro, version_id, family, gfx, device_id).is_true();
      if (ok && (best.is_null() || compare_versions(v, best.get<std::string>()) > 0)) best = v;
    }
    if (!best.is_null()) return best;
  }
  return nullptr;
}

std::string Matrix::newest_left_out(const std::string& gfx, const std::string& distro, const std::string& version_id,
                                    const std::string& family, const std::string& device_id) const {
  const Release* newest = nullptr;
  for (auto& r : releases_) {
    if (r.line == "preview" || (newest && compare_versions(r.version, newest->version) <= 0)) continue;
    std::string v(r.version);
    if (has_gpu(v, gfx) && !gpu_left_out(v, distro, version_id, family, gfx, device_id).empty())
      newest = &r;
  }
  return newest ? gpu_left_out(std::string(newest->version), distro, version_id, family, gfx, device_id) : "";
}

// Each distinct name once, against every device's products split into words
// once: the names repeat over about 140 rows, and checking each row against
// every device afresh cost about 30 ms at every start (measured).
void Matrix::check_product_names(std::vector<LoadError>& errors) const {
  std::vector<std::vector<std::string>> products;
  for (auto& d : devices_list_)
    for (auto& p : device_products(d)) products.push_back(std::move(p));
  std::map<std::string, bool, std::less<>> known;
  for (auto& [product, where] : product_names_) {
    auto [it, added] = known.emplace(product, false);
    if (added) {
      std::vector<std::string> listed = product_words(product);
      for (auto& p : products) it->second = it->second || is_product(p, listed);
    }
    if (!it->second)
      errors.push_back({where, "'" + product + "' is no product of a device in gpus.yaml (its names, or the bracket of its pci_ids_name)"});
  }
}

void Matrix::add_functions(std::map<std::string, Function>& f) const {
  auto s = [](const Value& v) { return v.json().is_string() ? v.json().get<std::string>() : json_text(v.json()); };
  // The matrix outlives the function table (both belong to one check run).
  const Matrix* m = this;
  f["gpu_gfx"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                    const GpuDevice* d = m->device(s(a[0]));
                    return Value::of(d ? json_or_null(d->gfx) : Json(nullptr));
                  }};
  f["gpu_in_matrix"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                          return Value::of(m->device(s(a[0])) != nullptr);
                        }};
  f["rocm_gpu_support"] = {2, 2, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                             return m->gpu_support(s(a[0]), s(a[1]));
                           }};
  f["rocm_distro_supported"] = {3, 3, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                  return m->distro_support(s(a[0]), s(a[1]), s(a[2]));
                                }};
  // The fifth and sixth arguments, the GPU's family (target.gpu_family)
  // and gfx target (target.gpu_gfx), keep the kernel rows AMD lists for
  // that family, and make a row limited to other GPUs unknown; null or
  // absent: every row, every GPU.
  f["rocm_kernel_supported"] = {4, 7, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                  auto text_at = [&](size_t i) { return a.size() > i && a[i].json().is_string() ? s(a[i]) : ""; };
                                  return m->kernel_support(s(a[0]), s(a[1]), s(a[2]), s(a[3]), text_at(4), text_at(5),
                                                           text_at(6));
                                }};
  // The production line's by default; a second argument names another
  // ("core_sdk": 7.14 and 10.x, which list GPUs the production line does
  // not, gfx1152 and gfx1153).
  auto is_line = [](const Json& j) { return j.is_string() && (j == "production" || j == "core_sdk"); };
  f["rocm_releases_for_gfx"] = {1, 2, false,
                                [m, s, is_line](const std::vector<Value>& a, EvalContext&) {
                                  if (a.size() == 2 && !is_line(a[1].json()))
                                    return Value::unknown("rocm_releases_for_gfx: the line is production or core_sdk");
                                  return Value::of(m->releases_for_gfx(s(a[0]), a.size() == 2 ? s(a[1]) : "production"));
                                },
                                [is_line](size_t i, const Json& literal) -> std::string {
                                  if (i != 1 || is_line(literal)) return "";
                                  return "the line is \"production\" or \"core_sdk\", not " + json_text(literal);
                                }};
  f["rocm_release_known"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                               return Value::of(m->find_release(s(a[0])) != nullptr);
                             }};
  f["hsa_override_value"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                               const Override* o = m->hsa_override(s(a[0]));
                               return Value::of(o ? json_or_null(o->value) : Json(nullptr));
                             }};
  f["hsa_override_outcome"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                 const Override* o = m->hsa_override(s(a[0]));
                                 return Value::of(o ? Json(std::string(o->outcome)) : Json(nullptr));
                               }};
  f["hsa_override_caveats"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                 const Override* o = m->hsa_override(s(a[0]));
                                 return Value::of(o ? Json(std::string(o->caveats)) : Json(nullptr));
                               }};
  f["hsa_override_reported"] = {2, 2, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                  return Value::of(m->hsa_override_reported(s(a[0]), s(a[1])));
                                }};
  f["gfx_kfd_value"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                          const GfxTarget* g = m->gfx_target(s(a[0]));
                          return Value::of(g ? Json(g->kfd_target_version) : Json(nullptr));
                        }};
  f["rocm_architectures"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                               const Release* r = m->find_release(s(a[0]));
                               if (!r) return Value::unknown("ROCm " + s(a[0]) + " is not in the matrix");
                               // Empty is "not captured" (previews, the Core SDK line): unknown, or
                               // every machine would be "not a supported architecture".
                               if (r->architectures.empty())
                                 return Value::unknown("the matrix lists no architectures for ROCm " + s(a[0]));
                               return Value::of(json_list(r->architectures));
                             }};
  // rocm_newest_kernel_series(rocm): the newest kernel series any
  // distribution row of the release lists ("6.14"), whatever the GPU family:
  // a kernel of that series or newer is not older than the release expects
  // of the kernel's own amdgpu/KFD anywhere AMD lists it. Unknown where the
  // matrix does not know the release or lists no kernel for it.
  f["rocm_newest_kernel_series"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                      if (!a[0].json().is_string()) return Value::unknown("no ROCm release to look up");
                                      const Release* r = m->find_release(s(a[0]));
                                      if (!r) return Value::unknown("ROCm " + s(a[0]) + " is not in the matrix");
                                      std::string newest;
                                      for (auto& d : r->distros)
                                        for (auto& k : d.kernels)
                                          if (newest.empty() || compare_versions(k.series, newest) > 0)
                                            newest = std::string(k.series);
                                      if (newest.empty())
                                        return Value::unknown("the matrix lists no kernel for ROCm " + s(a[0]));
                                      return Value::of(Json(newest));
                                    }};
  f["newest_rocm"] = {0, 0, false, [m](const std::vector<Value>&, EvalContext&) {
                        Json best = nullptr;
                        for (auto& r : m->releases_)
                          if (r.line == "production" &&
                              (best.is_null() || compare_versions(r.version, best.get<std::string>()) > 0))
                            best = std::string(r.version);
                        return best.is_null() ? Value::unknown("the matrix has no releases") : Value::of(best);
                      }};
  // library_package(text.library, distro.id[, distro.version_id]): the
  // package to install for a library the loader could not find, or null.
  f["library_package"] = {2, 3, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                            // A rolling release has no VERSION_ID (null): no rename applies.
                            std::string version = a.size() > 2 && a[2].json().is_string() ? s(a[2]) : "";
                            auto p = m->library_package(s(a[0]), a[1].json().is_string() ? s(a[1]) : "", version);
                            return Value::of(p ? Json(*p) : Json(nullptr));
                          }};
  // distribution_library_package(text.library, distro.id, distro.version_id):
  // the distribution's own package of a ROCm library of that soname major
  // (libamdhip64-7 for libamdhip64.so.7 on Ubuntu 26.04), or null.
  f["distribution_library_package"] = {3, 3, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                         if (!a[1].json().is_string() || !a[2].json().is_string())
                                           return Value::of(Json(nullptr));
                                         auto* p = distribution_package_for_library(m->libraries_, s(a[0]), s(a[1]), s(a[2]));
                                         return Value::of(p ? Json(std::string(p->package)) : Json(nullptr));
                                       }};
  // library_origin(text.library): "amd" or "distribution"; unknown where
  // the map does not list the library (it may be either, or neither).
  f["library_origin"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                           std::string library = s(a[0]);
                           const LibraryPackage* e = library_entry(m->libraries_, library);
                           if (!e) return Value::unknown("rocmdoc's table of libraries and their packages does not list " + library);
                           return Value::of(std::string(e->origin));
                         }};
  f["torch_wheel_has_gfx"] = {2, 2, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                return m->torch_wheel_has_gfx(s(a[0]), s(a[1]));
                              }};
  // torch_index("2.10.0+rocm7.1"): the index that wheel is installed from,
  // where the matrix lists it; unknown otherwise (a nightly, a wheel from
  // repo.radeon.com, a version the matrix does not hold).
  f["torch_index"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                        std::string version = s(a[0]);
                        if (const Wheel* w = m->rocm_wheel(version)) return Value::of(std::string(w->index_url));
                        return Value::unknown("the matrix (as of " + m->as_of() + ") has no ROCm wheel torch " + version);
                      }};
  // widest_torch_index(): for a fix that has no GPU to fit a wheel to (explain
  // without a machine), the index of the newest release-channel torch whose
  // wheel lists the most gfx targets (2.14.0's rocm7.2 carries gfx900 and
  // gfx906, which its rocm7.14 does not). A rule's text must not name one
  // itself: it goes stale with the next PyTorch release.
  f["widest_torch_index"] = {0, 0, false, [m](const std::vector<Value>&, EvalContext&) {
                               const Wheel* best = nullptr;
                               auto width = [](const Wheel& w) { return w.gfx ? w.gfx->size() : 0; };
                               for (auto& w : m->wheels_) {
                                 if (w.channel != "release") continue;
                                 int newer = best ? compare_versions(w.torch, best->torch) : 1;
                                 if (newer > 0 || (newer == 0 && (width(w) > width(*best) ||
                                                                  (width(w) == width(*best) &&
                                                                   compare_versions(w.rocm, best->rocm) > 0))))
                                   best = &w;
                               }
                               if (!best) return Value::unknown("the matrix (as of " + m->as_of() + ") has no release-channel ROCm wheel");
                               return Value::of(std::string(best->index_url));
                             }};
  // Python versions ("3.12") that have a ROCm wheel of any torch release.
  f["torch_rocm_wheel_for_python"] = {1, 1, false, [m, s](const std::vector<Value>& a, EvalContext&) {
                                        for (auto& w : m->wheels_)
                                          if (w.python && contains(*w.python, s(a[0]))) return Value::of(true);
                                        return Value::of(false);
                                      }};
}

}  // namespace rocmdoc
