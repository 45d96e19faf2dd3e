#include "rules/derived_facts.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>
#include <utility>
#include <vector>

#include "base/text.h"
#include "base/version.h"

namespace rocmdoc {

namespace {

// A text fact, or "" where it is unknown, null or of another type: a
// recorded machine may hold any of them (an old kernel's KFD node has no
// PCI address), and json's value("key", "") throws on all but a missing key.
std::string text_field(const Json& obj, const char* key) {
  const Json& v = field(obj, key);
  return v.is_string() ? v.get<std::string>() : "";
}

// The KFD node of a PCI address, if the topology has one.
const Json* kfd_gpu_at(const Json& facts, const std::string& address) {
  const Json& gpus = field(field(facts, "kfd"), "gpus");
  if (!gpus.is_array() || address.empty()) return nullptr;
  for (auto& g : gpus)
    if (g.is_object() && text_field(g, "pci_address") == address) return &g;
  return nullptr;
}

Json text_list(const MatrixTexts& list) {
  Json out = Json::array();
  for (auto& t : list) out.push_back(std::string(t));
  return out;
}

// The name people know the GPU by: the machine's pci.ids, else the matrix's
// (a distribution's pci.ids can be older than the GPU: Debian 12's lacks
// 0x7550, the RX 9070), else "unknown name", so no text shows "null" or a
// bare id where a name belongs.
Json gpu_name(const Json& pci_gpu, const GpuDevice* entry) {
  std::string from_pci = text_field(pci_gpu, "name");
  if (!from_pci.empty()) return from_pci;
  if (entry && entry->pci_ids_name && !entry->pci_ids_name->empty()) return std::string(*entry->pci_ids_name);
  if (entry && !entry->names.empty()) {
    // pci.ids' form: the chip, then its products.
    std::string products;
    for (auto& n : entry->names) products += (products.empty() ? "" : " / ") + std::string(n);
    return entry->asic.empty() ? products : std::string(entry->asic) + " [" + products + "]";
  }
  if (entry && !entry->asic.empty()) return std::string(entry->asic);
  return "unknown name";
}

// Why the matrix gives no gfx target for a device: not in it, in it without
// one, or AMD's sources disagree ("unconfirmed: AMD's sources name gfx1152
// and gfx1153"), so no text asserts either.
std::string matrix_gfx_gap(const std::string& device_id, const GpuDevice* entry) {
  if (!entry) return "device " + device_id + " is not in the matrix";
  std::string named = entry->asic.empty() ? "" : " (" + std::string(entry->asic) + ")";
  if (entry->gfx_disputed.empty()) return "the matrix has no gfx target for device " + device_id + named;
  std::string targets;
  for (size_t i = 0; i < entry->gfx_disputed.size(); ++i)
    targets += (i == 0 ? "" : i + 1 == entry->gfx_disputed.size() ? " and " : ", ") + std::string(entry->gfx_disputed[i]);
  return "the gfx target of device " + device_id + named + " is unconfirmed: AMD's sources name " + targets;
}

Json joined_gpu(const Json& facts, const Json& pci_gpu, const Matrix& matrix) {
  std::string address = text_field(pci_gpu, "address");
  std::string device_id = text_field(pci_gpu, "device_id");
  const GpuDevice* entry = device_id.empty() ? nullptr : matrix.device(device_id);
  Json g = Json::object();
  g["address"] = address.empty() ? field(pci_gpu, "address") : Json(address);
  g["device_id"] = device_id.empty() ? field(pci_gpu, "device_id") : Json(device_id);
  g["name"] = gpu_name(pci_gpu, entry);
  g["driver"] = pci_gpu.contains("driver") ? pci_gpu["driver"] : Json(nullptr);
  g["in_matrix"] = entry != nullptr;
  g["matrix_names"] = entry ? text_list(entry->names) : Json::array();
  // The GC version amdgpu read from the GPU's discovery table names its
  // target through the kernel's own mapping (the matrix's gc_ip), for a
  // device newer than the matrix and one whose target sources dispute.
  std::string gc_version = text_field(pci_gpu, "gc_version");
  const GfxTarget* by_gc = gc_version.empty() ? nullptr : matrix.gfx_for_gc_version(gc_version);
  g["apu"] = entry ? Json(entry->apu)
             : by_gc ? Json(by_gc->apu)
                     : unknown("device " + device_id + " is not in the matrix");
  // The kernel's number wins over the tables; they only fill in when the
  // driver is not running.
  const Json* node = kfd_gpu_at(facts, address);
  if (node && node->contains("gfx") && (*node)["gfx"].is_string()) {
    g["gfx"] = (*node)["gfx"];
    g["gfx_source"] = "kfd";
  } else if (by_gc) {
    g["gfx"] = std::string(by_gc->gfx);
    g["gfx_source"] = "ip_discovery";
  } else if (entry && entry->gfx) {
    g["gfx"] = std::string(*entry->gfx);
    g["gfx_source"] = "matrix";
  } else {
    const Json gc_fact = pci_gpu.is_object() ? pci_gpu.value("gc_version", Json()) : Json();
    std::string gc = !gc_version.empty()    ? "; amdgpu reports GC " + gc_version + ", which gives no single target in the matrix"
                     : is_unknown(gc_fact) ? "; its GC version is not known: " + unknown_reason(gc_fact)
                                           : "";
    g["gfx"] = unknown("no KFD node for " + address + " and " + matrix_gfx_gap(device_id, entry) + gc);
    g["gfx_source"] = nullptr;
  }
  // The targets AMD's sources disagree on for the device (Krackan2: gfx1152
  // and gfx1153), also where the KFD node answers: null where they agree.
  g["gfx_disputed"] = entry && !entry->gfx_disputed.empty() ? text_list(entry->gfx_disputed) : Json(nullptr);
  g["vram_bytes"] = node && node->contains("vram_bytes") ? (*node)["vram_bytes"] : unknown("no KFD node for " + address);
  g["render_node"] = node && node->contains("render_node") ? (*node)["render_node"] : Json(nullptr);
  const GfxTarget* target = g["gfx"].is_string() ? matrix.gfx_target(g["gfx"].get<std::string>()) : nullptr;
  g["architecture"] = target ? Json(std::string(target->architecture)) : Json(nullptr);
  // What rule texts name for an unsupported GPU: where it is supported, and
  // the override users report for it.
  if (g["gfx"].is_string()) {
    std::string gfx = g["gfx"].get<std::string>();
    g["rocm_releases"] = matrix.releases_for_gfx(gfx);
    const Override* o = matrix.hsa_override(gfx);
    g["hsa_override"] = o ? Json{{"value", o->value ? Json(std::string(*o->value)) : Json(nullptr)},
                                 {"outcome", std::string(o->outcome)}, {"caveats", std::string(o->caveats)}}
                          : Json(nullptr);
  } else {
    g["rocm_releases"] = g["gfx"];
    g["hsa_override"] = g["gfx"];
  }
  return g;
}

// What the matrix says of the release itself, so the report can say
// "unconfirmed" where the matrix does, instead of stating it as fact.
void describe_release(Json& t, const Matrix& matrix) {
  if (!t["rocm"].is_string()) return;
  const Release* r = matrix.find_release(t["rocm"].get<std::string>());
  if (!r) return;
  t["release_date"] = r->date ? Json(std::string(*r->date)) : Json(nullptr);
  t["confidence"] = std::string(r->confidence);
  t["unconfirmed"] = r->unconfirmed ? Json(std::string(*r->unconfirmed)) : Json(nullptr);
  t["sources"] = text_list(r->sources);
  Json distros = Json::array();
  for (auto& d : r->distros) distros.push_back(std::string(d.id) + " " + std::string(d.version));
  t["distros"] = distros;
}

// The "ROCm on Radeon" pages to read for a release: the track's own pages
// for it where the matrix knows them, else the track's current compatibility
// page, which has the version list.
constexpr const char* kRadeonTrackPages = "https://rocm.docs.amd.com/projects/radeon/en/latest/docs/compatibility.html";

// "unconfirmed: <what>" where the matrix says what of an entry no primary
// source states, else "confirmed at <its sources>", so the report shows the
// difference rather than stating both alike.
Json provenance_status(const std::optional<MatrixText>& unconfirmed, const MatrixTexts& sources) {
  if (unconfirmed) return "unconfirmed: " + std::string(*unconfirmed);
  std::string joined;
  for (auto& s : sources) joined += (joined.empty() ? "" : ", ") + std::string(s);
  return "confirmed at " + joined;
}

// The PyTorch wheels AMD built for the track's release on repo.radeon.com,
// or null where the matrix has seen none for exactly that release.
Json radeon_wheels(const Matrix& matrix, const std::string& release) {
  const RadeonWheel* w = matrix.radeon_wheel(release);
  if (!w) return nullptr;
  return Json{{"find_links", std::string(w->find_links)},
              {"torch", w->torch ? Json(std::string(*w->torch)) : Json(nullptr)},
              {"python", w->python ? text_list(*w->python) : Json(nullptr)},
              {"sources", text_list(w->sources)},
              {"status", provenance_status(w->unconfirmed, w->sources)}};
}

// gpus[].support_track: where the target release supports a GPU only
// through AMD's separate "ROCm on Radeon" documents (RX 7900 XTX on 5.7.x,
// every GPU of the track's own releases such as 6.1.3), that track with its
// own sources, what of it is unconfirmed, the track's pages for the release
// and the PyTorch wheels AMD built for it; null where the release's own
// table answers (or nothing does).
void describe_tracks(Json& facts, const Matrix& matrix) {
  Json& gpus = facts["gpus"];
  if (!gpus.is_array()) return;
  const Json& rocm = facts["target"]["rocm"];
  for (auto& g : gpus) {
    const ReleaseGpu* t = rocm.is_string() && g["gfx"].is_string()
                              ? matrix.gpu_track(rocm.get<std::string>(), g["gfx"].get<std::string>())
                              : nullptr;
    if (!t) {
      g["support_track"] = nullptr;
      continue;
    }
    std::string release = rocm.get<std::string>();
    const Release* r = matrix.find_release(release);
    const bool pages = r && r->radeon_track && r->radeon_track->docs;
    g["support_track"] = Json{{"track", std::string(*t->track)},
                              {"product", t->product ? Json(std::string(*t->product)) : Json(nullptr)},
                              {"sources", text_list(t->sources)},
                              {"status", provenance_status(t->unconfirmed, t->sources)},
                              {"docs", pages ? std::string(*r->radeon_track->docs) : std::string(kRadeonTrackPages)},
                              {"torch_wheels", radeon_wheels(matrix, release)}};
  }
}

// target.radeon_track: what the "ROCm on Radeon" documents published for the
// target release (its pages, the Radeon Software for Linux driver named with
// it, its WSL support), or null where the matrix has nothing from the track
// for it. WSL's `releases` are the releases the track lists WSL support for,
// so a release without it can name where to go.
void describe_radeon_track(Json& t, const Matrix& matrix) {
  t["radeon_track"] = nullptr;
  if (!t["rocm"].is_string()) return;
  const Release* r = matrix.find_release(t["rocm"].get<std::string>());
  if (!r || !r->radeon_track) return;
  const RadeonTrack& track = *r->radeon_track;
  Json wsl = nullptr;
  if (track.wsl) {
    Json releases = Json::array();
    for (auto& other : matrix.releases())
      if (other.radeon_track && other.radeon_track->wsl && other.radeon_track->wsl->status != "none")
        releases.push_back(std::string(other.version));
    std::string named;
    for (auto& p : track.wsl->gpus) named += (named.empty() ? "" : ", ") + std::string(p);
    wsl = Json{{"status", std::string(track.wsl->status)},
               {"gpus", text_list(track.wsl->gpus)},
               {"gpus_named", named.empty() ? "none named in the sources rocmdoc's matrix read" : named},
               {"releases", releases}};
  }
  t["radeon_track"] = Json{{"docs", track.docs ? Json(std::string(*track.docs)) : Json(nullptr)},
                           {"driver", track.driver ? Json(std::string(*track.driver)) : Json(nullptr)},
                           {"wsl", wsl},
                           {"sources", text_list(track.sources)},
                           {"status", provenance_status(track.unconfirmed, track.sources)}};
}

// The release /opt/rocm points to, as the matrix names releases: "6.4.1"
// from .info/version's "6.4.1-83". null without a default install; unknown
// where there is one whose version cannot be read, so the target is then
// the matrix's choice and never a guessed release.
Json installed_release(const Json& facts) {
  const Json& rocm = field(facts, "rocm");
  if (is_unknown(rocm)) return rocm;
  const Json& default_install = field(rocm, "default");
  if (is_unknown(default_install)) return default_install;
  if (!default_install.is_string()) return nullptr;
  const Json& installs = field(rocm, "installs");
  if (is_unknown(installs)) return installs;
  if (installs.is_array())
    for (auto& i : installs) {
      if (field(i, "path") != "/opt/rocm") continue;
      const Json& version = field(i, "version");
      if (is_unknown(version)) return version;
      std::string core = version.is_string() ? version_core(version.get<std::string>()) : "";
      if (core.empty()) return unknown("/opt/rocm: the install's version has no release number");
      return core;
    }
  return unknown("/opt/rocm is the default install but is not in rocm.installs");
}

// The GPU a release is chosen for: a discrete GPU when there is one, since
// that is what people compute on; nullptr when no gfx target is known.
const Json* deciding_gpu(const Json& gpus) {
  const Json* chosen = nullptr;
  for (auto& g : gpus)
    if (g["gfx"].is_string() && (!chosen || (g["apu"] == false && (*chosen)["apu"] != false))) chosen = &g;
  return chosen;
}

// Why no release can be named for this distribution: its ID's own reason
// where os-release could not be read; a rolling release (Arch) has an ID but
// no VERSION_ID, and AMD's lists name versions, so none lists it. nullptr
// where ID and VERSION_ID are both known.
std::optional<Json> unversioned_distro(const Json& facts, const Matrix& matrix) {
  const Json& id = field(field(facts, "distro"), "id");
  const Json& version = field(field(facts, "distro"), "version_id");
  if (!id.is_string()) return is_unknown(id) ? id : unknown("the distribution is not known");
  if (version.is_string()) return std::nullopt;
  if (is_unknown(version)) return version;
  return unknown("no ROCm release lists " + matrix.distribution_name(id.get<std::string>()) +
                 ", a rolling release without VERSION_ID (AMD lists distribution versions)");
}

// The newest production release whose lists name the GPU's gfx and this
// distribution for it, else the newest Core SDK release that does (what
// `rocmdoc install` then installs), or unknown with the reason none can be
// named.
// for_gpu: set to the address of the GPU that decided.
Json newest_for_gpu(const Json& facts, const Json& gpus, const Matrix& matrix, Json& for_gpu) {
  if (auto why = unversioned_distro(facts, matrix)) return *why;
  const Json& distro = field(field(facts, "distro"), "id");
  const Json& version = field(field(facts, "distro"), "version_id");
  const Json* chosen = deciding_gpu(gpus);
  if (!chosen) return unknown(gpus.empty() ? "no AMD GPU" : "the GPU's gfx target is not known");
  std::string gfx = (*chosen)["gfx"].get<std::string>();
  for_gpu = (*chosen)["address"];
  Json family = gpu_family(chosen);
  // Its PCI device id: rows limited to some products of a target (Rocky
  // Linux 9: the MI300X and MI300A, not the MI325X) are judged by it.
  std::string device_id = text_field(*chosen, "device_id");
  Json newest = matrix.newest_release_for(gfx, distro.get<std::string>(), version.get<std::string>(),
                                          family.is_string() ? family.get<std::string>() : "", device_id);
  if (newest.is_null()) {
    // A release that lists both, but the distribution for other GPUs only
    // (Rocky Linux 9 for the MI300X and MI300A): the news for this GPU.
    std::string limit = matrix.newest_left_out(gfx, distro.get<std::string>(), version.get<std::string>(),
                                               family.is_string() ? family.get<std::string>() : "", device_id);
    return unknown("no release in the matrix lists " + gfx + " on " + matrix.distribution_name(distro.get<std::string>()) + " " +
                   version.get<std::string>() + (limit.empty() ? "" : " (" + limit + ")"));
  }
  return newest;
}

// target.kernels and target.kernel_packages: the kernel series the target
// release lists for this distribution and GPU, and the packages that install
// them (Matrix::listed_kernels).
void describe_kernels(Json& t, const Json& facts, const Matrix& matrix) {
  // By value: `why` is often t["rocm"], and adding a key to t (an ordered
  // object, a vector inside) moves its members, which would leave a
  // reference dangling for the second assignment.
  auto both = [&](Json why) {
    t["kernels"] = why;
    t["kernel_packages"] = why;
    t["kernel_newer_than_listed"] = why;
  };
  if (!t["rocm"].is_string()) return both(t["rocm"]);
  if (auto why = unversioned_distro(facts, matrix)) return both(*why);
  const Json& distro = field(facts, "distro");
  Matrix::ListedKernels k = matrix.listed_kernels(
      t["rocm"].get<std::string>(), text_field(distro, "id"), text_field(distro, "version_id"),
      text_field(field(facts, "kernel"), "release"), text_field(t, "gpu_family"), text_field(t, "gpu_gfx"),
      text_field(t, "gpu_device_id"));
  if (!k.unknown_why.empty()) return both(unknown(k.unknown_why));
  t["kernels"] = k.labels;
  t["kernel_newer_than_listed"] =
      k.running_newer.is_unknown() ? unknown(k.running_newer.why()) : k.running_newer.json();
  t["kernel_packages"] = !k.packages.empty() ? Json(k.packages) : unknown(k.packages_why);
}

// The PyTorch ROCm index for the target release: the newest release-channel
// torch whose index variant is the target's series ("6.2.4" -> rocm6.2.4,
// else rocm6.2). A wheel the matrix knows to lack the deciding GPU's gfx is
// skipped; one whose gfx list the matrix has not read is kept, since most
// lists are not read and the index is the target release's own (whether the
// installed wheel has the GPU is torch_wheel_has_gfx's question, not this).
void describe_torch(Json& t, const Json& gpus, const Matrix& matrix) {
  auto both = [&](Json why) {  // by value, as in describe_kernels
    t["torch_index"] = why;
    t["torch"] = why;
  };
  if (!t["rocm"].is_string()) return both(t["rocm"]);
  std::string rocm = t["rocm"].get<std::string>();
  const Json* gpu = deciding_gpu(gpus);
  std::string gfx = gpu ? (*gpu)["gfx"].get<std::string>() : "";
  auto fits = [&](const Wheel& w) { return w.rocm == rocm || rocm.rfind(std::string(w.rocm) + ".", 0) == 0; };
  std::vector<const Wheel*> candidates;
  for (auto& w : matrix.wheels())
    if (w.channel == "release" && fits(w)) candidates.push_back(&w);
  // The most specific index first (rocm6.2.4 before rocm6.2), then the newest torch.
  std::sort(candidates.begin(), candidates.end(), [](const Wheel* a, const Wheel* b) {
    if (a->rocm.size() != b->rocm.size()) return a->rocm.size() > b->rocm.size();
    return compare_versions(a->torch, b->torch) > 0;
  });
  for (auto* w : candidates) {
    if (!gfx.empty() && matrix.wheel_has_gfx(*w, gfx).is_false()) continue;
    t["torch_index"] = std::string(w->index_url);
    t["torch"] = std::string(w->torch);
    return;
  }
  both(unknown("no PyTorch release wheel in the matrix (as of " + matrix.as_of() + ") is built for ROCm " + rocm +
               (gfx.empty() ? "" : " and " + gfx)));
}


// The release a check is for: --rocm; else the installed one, since every
// answer should be about the release the user has (a newer one is the
// info line rocm-older-than-target); else the newest the matrix lists for
// this GPU and distribution, which is what `rocmdoc install --auto` aims at.
Json target_release(const Json& facts, const Json& gpus, const Matrix& matrix, const std::optional<std::string>& requested) {
  Json t = Json::object();
  t["matrix_as_of"] = matrix.as_of();
  Json installed = installed_release(facts);
  Json for_gpu;
  Json newest = newest_for_gpu(facts, gpus, matrix, for_gpu);
  if (requested) {
    t["rocm"] = *requested;
    t["chosen_by"] = "--rocm";
  } else if (installed.is_string()) {
    t["rocm"] = installed;
    t["chosen_by"] = "installed";
  } else {
    t["rocm"] = newest;
    t["chosen_by"] = "matrix";
  }
  if (!for_gpu.is_null()) t["for_gpu"] = for_gpu;
  t["gpu_family"] = gpu_family(deciding_gpu(gpus));
  // Its gfx target, for the rows AMD limits to some targets (limited_to).
  const Json* deciding = deciding_gpu(gpus);
  t["gpu_gfx"] = deciding ? (*deciding)["gfx"] : Json(nullptr);
  // And its PCI device id, for the rows AMD limits to some products.
  t["gpu_device_id"] = deciding ? field(*deciding, "device_id") : Json(nullptr);
  // Where the release lists this distribution for other GPUs only, why.
  std::string left_out;
  const Json& distro = field(field(facts, "distro"), "id");
  const Json& version = field(field(facts, "distro"), "version_id");
  if (t["rocm"].is_string() && distro.is_string() && version.is_string() && t["gpu_gfx"].is_string())
    left_out = matrix.gpu_left_out(t["rocm"].get<std::string>(), distro.get<std::string>(), version.get<std::string>(),
                                   t["gpu_family"].is_string() ? t["gpu_family"].get<std::string>() : "",
                                   t["gpu_gfx"].get<std::string>(),
                                   t["gpu_device_id"].is_string() ? t["gpu_device_id"].get<std::string>() : "");
  t["gpu_left_out"] = left_out.empty() ? Json(nullptr) : Json(left_out);
  if (t["rocm"].is_string()) t["in_matrix"] = matrix.find_release(t["rocm"].get<std::string>()) != nullptr;
  t["installed"] = installed;
  t["newest_for_gpu"] = newest;
  return t;
}

// Releases that say which distributions they support: production and the
// Core SDK line (previews list none), and only where the list is known.
bool lists_distributions(const Release& r) { return r.line != "preview" && !r.distros.empty(); }

// "9.6" -> 9006, "24.04" -> 24004, "15" -> 15000; -1 when not numeric. For
// picking the nearest listed version, not for ordering releases.
long version_number(std::string_view v) {
  long major = 0, minor = 0;
  size_t i = 0;
  auto digits = [&](long& out) {
    size_t start = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9' && i - start < 6) out = out * 10 + (v[i++] - '0');
    return i > start;
  };
  if (!digits(major)) return -1;
  if (i < v.size() && v[i] == '.') {
    ++i;
    if (!digits(minor)) return -1;
  }
  return major * 1000 + minor;
}

// The machine's GPU as the matrix's rows are judged by (target.gpu_*): an
// empty gfx is not known, and then every row counts, as before a GPU is
// found.
struct GpuKey {
  std::string family, gfx, device_id;
};

GpuKey target_gpu(const Json& facts) {
  const Json& t = field(facts, "target");
  auto text = [&](const char* k) { return field(t, k).is_string() ? field(t, k).get<std::string>() : std::string(); };
  return {text("gpu_family"), text("gpu_gfx"), text("gpu_device_id")};
}

// Whether release r's row d is advice for this GPU: the release has code for
// its target and the row is not limited to other GPUs. An RX 7900 XTX on
// openSUSE Leap is not helped by SLES 15.7, which ROCm 10.1.0 lists for
// Instinct GPUs only.
bool row_fits(const Matrix& matrix, const Release& r, const MatrixDistro& d, const GpuKey& gpu) {
  if (gpu.gfx.empty()) return true;
  std::string v(r.version);
  return matrix.has_gpu(v, gpu.gfx) &&
         matrix.lists_gpu(v, std::string(d.id), std::string(d.version), gpu.family, gpu.gfx, gpu.device_id).is_true();
}

// The version of `id` nearest to `version_id` among those the newest
// production release listing `id` for this GPU names (of the machine's
// major release; else the newest release of any line), as "RHEL 9.6", with that release; empty
// when no release lists `id` for it. same_major: only versions of the
// machine's major release (CentOS 7 is no advice for CentOS Stream 9). A
// machine version of a major only ("9": CentOS Stream) is nearest to that
// major's newest minor.
std::pair<std::string, std::string> nearest_listed(const Matrix& matrix, std::string_view id,
                                                   const std::string& version_id, bool same_major, const GpuKey& gpu) {
  long want = version_number(version_id);
  bool major_only = !version_id.empty() && version_id.find('.') == std::string::npos;
  if (major_only && want >= 0) want += 999;
  // The version nearest to the machine's in the newest release of a line
  // (or of any line) listing the distribution for this GPU, and its number.
  auto nearest_in = [&](bool production_only) -> std::tuple<std::string, std::string, long> {
    const Release* newest = nullptr;
    for (auto& r : matrix.releases()) {
      if (!lists_distributions(r) || (production_only && r.line != "production")) continue;
      bool has = std::any_of(r.distros.begin(), r.distros.end(),
                             [&](auto& d) { return d.id == id && row_fits(matrix, r, d, gpu); });
      if (has && (!newest || compare_versions(r.version, newest->version) > 0)) newest = &r;
    }
    if (!newest) return {};
    std::string best;
    long best_distance = 0, best_number = -1;
    for (auto& d : newest->distros) {
      if (d.id != id || !row_fits(matrix, *newest, d, gpu)) continue;
      long n = version_number(d.version);
      if ((same_major || major_only) && (want < 0 || n < 0 || n / 1000 != want / 1000)) continue;
      // Without a comparable version (a rolling release) the newest is nearest.
      long distance = want < 0 || n < 0 ? -n : std::labs(n - want);
      if (best.empty() || distance < best_distance || (distance == best_distance && n > best_number)) {
        best = std::string(d.version);
        best_distance = distance;
        best_number = n;
      }
    }
    if (best.empty()) return {};
    return {matrix.distribution_name(id) + " " + best, std::string(newest->version), best_number};
  };
  // The newest production release's version of the machine's major release
  // first, as check's target and install's default pick production
  // releases: CentOS Stream 9 (RHEL 9.7's kernel) is told RHEL 9.7 of
  // 7.2.4, not RHEL 9.8 of the Core SDK's 10.1.0. Of another major release
  // the newest of any line is nearer: Ubuntu 25.10 is told Ubuntu 26.04 of
  // 10.1.0, an upgrade, not 24.04 of 7.2.4.
  auto [name, release, number] = nearest_in(true);
  if (!name.empty() && want >= 0 && number >= 0 && number / 1000 == want / 1000) return {name, release};
  auto any_line = nearest_in(false);
  if (!std::get<0>(any_line).empty()) return {std::get<0>(any_line), std::get<1>(any_line)};
  return {name, release};
}

// "7.2" of "7.2.0" and of "7.2.3": what a distribution's packages of one
// release share with its later point releases.
std::string release_series(const std::string& release) {
  auto first = release.find('.');
  if (first == std::string::npos) return release;
  return release.substr(0, release.find('.', first + 1));
}

// The GPU targets of a distribution's own packages, as the rules compare
// them with the machine's GPUs: unknown with the reason where the matrix
// has read no list, and where the installed release of the distribution's
// ROCm is of another series than the list was read for (a rolling release,
// Arch, moves on from the release rocmdoc read).
Json own_gpu_targets(const OwnPackages& own, const std::string& name, const Json& facts) {
  std::string release(own.release);
  if (own.gpu_targets.empty())
    return unknown("rocmdoc has read no GPU target list for " + name + "'s own ROCm " + release + " (" +
                   std::string(own.targets_from) + ")");
  const Json& installed = field(field(field(facts, "rocm"), "distro_release"), "release");
  if (installed.is_string() && release_series(installed.get<std::string>()) != release_series(release))
    return unknown(name + "'s own ROCm " + installed.get<std::string>() + " is installed; rocmdoc has read the GPU " +
                   "targets of its " + release + " packages only");
  return text_list(own.gpu_targets);
}

// The newest release that lists any distribution for this GPU, and its
// distributions for it, one name each with its versions in the release's
// order: "Ubuntu 26.04/24.04, Debian 13/12". Empty when none does.
using ListedElsewhere = std::pair<std::string, std::string>;
ListedElsewhere listed_elsewhere(const Matrix& matrix, const GpuKey& gpu) {
  const Release* newest = nullptr;
  for (auto& r : matrix.releases()) {
    if (!lists_distributions(r) || (newest && compare_versions(r.version, newest->version) <= 0)) continue;
    if (std::any_of(r.distros.begin(), r.distros.end(), [&](auto& d) { return row_fits(matrix, r, d, gpu); }))
      newest = &r;
  }
  if (!newest) return {};
  std::vector<std::pair<std::string, std::vector<std::string>>> by_name;
  for (auto& d : newest->distros) {
    if (!row_fits(matrix, *newest, d, gpu)) continue;
    std::string name = matrix.distribution_name(d.id), version(d.version);
    auto it = std::find_if(by_name.begin(), by_name.end(), [&](auto& e) { return e.first == name; });
    if (it == by_name.end()) it = by_name.insert(by_name.end(), {name, {}});
    if (std::find(it->second.begin(), it->second.end(), version) == it->second.end()) it->second.push_back(version);
  }
  std::string names;
  for (auto& [name, versions] : by_name) {
    names += (names.empty() ? "" : ", ") + name + " ";
    for (size_t i = 0; i < versions.size(); ++i) names += (i ? "/" : "") + versions[i];
  }
  return {std::string(newest->version), names};
}

// distro_support: whether any ROCm release lists this distribution and
// version, for which releases; where none does, what to use instead (the
// nearest listed version of it or of the distribution it follows, or its
// own ROCm packages).
Json distro_support(const Json& facts, const Matrix& matrix) {
  const Json& id = field(field(facts, "distro"), "id");
  const Json& version = field(field(facts, "distro"), "version_id");
  if (!id.is_string()) return is_unknown(id) ? id : unknown("the distribution is not known");
  std::string distro = id.get<std::string>();
  // Rolling releases (Arch, Debian sid) have no VERSION_ID: no release lists them.
  std::string version_id = version.is_string() ? version.get<std::string>() : "";
  Json s = Json::object();
  const MatrixDistribution* entry = matrix.distribution(distro);
  s["name"] = entry ? Json(std::string(entry->name)) : Json(nullptr);
  Json releases = Json::array();
  for (auto& r : matrix.releases()) {
    if (!lists_distributions(r) || version_id.empty()) continue;
    if (std::any_of(r.distros.begin(), r.distros.end(), [&](auto& d) { return d.matches(distro, version_id); }))
      releases.push_back(std::string(r.version));
  }
  std::sort(releases.begin(), releases.end(), [](const Json& a, const Json& b) {
    return compare_versions(a.get<std::string>(), b.get<std::string>()) < 0;
  });
  s["listed"] = !releases.empty();
  s["releases"] = releases;
  // Listed for this GPU: Debian 13 is listed, for Instinct GPUs only. Not
  // known without a GPU's target.
  GpuKey gpu = target_gpu(facts);
  Json for_gpu_releases = Json::array();
  for (auto& r : releases) {
    const Release* rel = matrix.find_release(r.get<std::string>());
    if (!rel) continue;
    auto rows = rel->distro_rows(distro, version_id);
    if (std::any_of(rows.begin(), rows.end(), [&](auto* row) { return row_fits(matrix, *rel, *row, gpu); }))
      for_gpu_releases.push_back(r);
  }
  // A GPU no release has code for (gfx1031) is not a matter of the
  // distribution: its own finding says so.
  bool some_release_has_it = !gpu.gfx.empty() && std::any_of(matrix.releases().begin(), matrix.releases().end(), [&](auto& r) {
    return matrix.has_gpu(std::string(r.version), gpu.gfx);
  });
  Json not_known = gpu.gfx.empty() ? unknown("no AMD GPU with a known target")
                                   : unknown("no ROCm release in the matrix has code for " + gpu.gfx);
  s["releases_for_gpu"] = some_release_has_it ? for_gpu_releases : not_known;
  s["listed_for_gpu"] = some_release_has_it ? Json(!for_gpu_releases.empty()) : not_known;
  s["first"] = releases.empty() ? Json(nullptr) : releases.front();
  s["last"] = releases.empty() ? Json(nullptr) : releases.back();
  // The advice for a distribution no release lists.
  // The distribution's own nearest version of the same major release, else
  // the distribution it follows, else its own nearest of any release
  // (Ubuntu 25.10: Ubuntu 26.04).
  // All of it for this machine's GPU: a row limited to other GPUs is no
  // advice. Where no release lists any distribution for the GPU (gfx803),
  // the advice is for any GPU, and says so by naming no target.
  bool follows = entry && entry->follows;
  // A distribution rocmdoc does not describe, built on Ubuntu (Linux Mint,
  // Pop!_OS, KDE neon): its UBUNTU_CODENAME names the Ubuntu release whose
  // packages it runs, which is the advice (Mint's VERSION_ID, "22", is no
  // Ubuntu version).
  std::string base_version;
  if (!entry) {
    const Json& like = field(field(facts, "distro"), "id_like");
    const Json& codename = field(field(facts, "distro"), "ubuntu_codename");
    bool ubuntu_like = like.is_array() && std::any_of(like.begin(), like.end(), [](const Json& w) { return w == "ubuntu"; });
    if (const MatrixDistribution* ubuntu = matrix.distribution("ubuntu"); ubuntu && ubuntu_like && codename.is_string())
      for (auto& [v, c] : ubuntu->codenames)
        if (c == codename.get<std::string>()) base_version = std::string(v);
  }
  s["based_on"] = base_version.empty() ? Json(nullptr) : Json("Ubuntu " + base_version);
  auto nearest_for = [&](const GpuKey& g) {
    auto found = nearest_listed(matrix, distro, version_id, follows, g);
    if (found.first.empty() && follows) found = nearest_listed(matrix, *entry->follows, version_id, false, g);
    if (found.first.empty() && !base_version.empty()) found = nearest_listed(matrix, "ubuntu", base_version, false, g);
    return found;
  };
  const std::string machine_gfx = gpu.gfx;  // before the advice below may drop the GPU
  auto [nearest, nearest_release] = nearest_for(gpu);
  auto [elsewhere_release, elsewhere] = nearest.empty() ? listed_elsewhere(matrix, gpu) : ListedElsewhere{};
  if (!gpu.gfx.empty() && nearest.empty() && elsewhere_release.empty()) {
    gpu = GpuKey{};
    std::tie(nearest, nearest_release) = nearest_for(gpu);
    std::tie(elsewhere_release, elsewhere) = nearest.empty() ? listed_elsewhere(matrix, gpu) : ListedElsewhere{};
  }
  std::string for_gpu = gpu.gfx.empty() ? "" : " for " + gpu.gfx;
  s["nearest"] = nearest.empty() ? Json(nullptr) : Json(nearest);
  s["nearest_release"] = nearest.empty() ? Json(nullptr) : Json(nearest_release);
  s["own_rocm"] = entry && entry->own_rocm ? Json(std::string(*entry->own_rocm)) : Json(nullptr);
  // This version's own packages: their release and the GPU targets their
  // libraries are built for, which check compares with the machine's GPUs.
  const OwnPackages* own = entry ? entry->own_packages_for(version_id) : nullptr;
  s["own_packages"] = own ? Json{{"release", std::string(own->release)},
                                 {"gpu_targets", own_gpu_targets(*own, std::string(entry->name), facts)},
                                 {"targets_from", std::string(own->targets_from)},
                                 {"confidence", std::string(own->confidence)},
                                 {"unconfirmed", own->unconfirmed ? Json(std::string(*own->unconfirmed)) : Json(nullptr)},
                                 {"caveat", own->unconfirmed ? " Not confirmed: " + std::string(*own->unconfirmed) + "."
                                                             : std::string()},
                                 {"sources", text_list(own->sources)}}
                          : Json(nullptr);
  s["unconfirmed"] = entry && entry->unconfirmed ? Json(std::string(*entry->unconfirmed)) : Json(nullptr);
  // How the report names it: "Rocky Linux 9.6" rather than PRETTY_NAME's
  // "Rocky Linux 9.6 (Blue Onyx)"; PRETTY_NAME where rocmdoc has no name.
  const Json& pretty = field(field(facts, "distro"), "pretty_name");
  std::string label = entry ? std::string(entry->name) + (version_id.empty() ? "" : " " + version_id)
                            : (pretty.is_string() ? pretty.get<std::string>() : distro + " " + version_id);
  // CentOS's os-release says "CentOS Stream" in NAME, which the matrix's
  // "CentOS" (7 and Stream alike) does not.
  const Json& name = field(field(facts, "distro"), "name");
  if (name.is_string() && entry && starts_with(name.get<std::string>(), std::string(entry->name) + " "))
    label = name.get<std::string>() + (version_id.empty() ? "" : " " + version_id);
  s["label"] = label;
  // A sentence for the report, "" when nothing about it is unconfirmed.
  s["caveat"] = entry && entry->unconfirmed ? "Not confirmed: " + std::string(*entry->unconfirmed) + "." : "";
  std::string use;
  if (!nearest.empty()) use = nearest + ", which ROCm " + nearest_release + " lists" + for_gpu;
  if (!nearest.empty() && !base_version.empty())
    use += " (" + label + " is built on Ubuntu " + base_version +
           (nearest == "Ubuntu " + base_version ? ": AMD's packages for it may install here, untested by AMD)" : ")");
  // Its own packages, unless this version's are known to be built without
  // the GPU's target (Debian 12's 5.2.3 for an RX 9070 XT): no way forward
  // then. Installed already, they are named as such, not to install.
  bool own_installed = field(field(field(facts, "rocm"), "distro_release"), "release").is_string();
  bool own_lacks_gpu = own && !machine_gfx.empty() && !own->gpu_targets.empty() &&
                       std::none_of(own->gpu_targets.begin(), own->gpu_targets.end(),
                                    [&](auto& t) { return t == machine_gfx; });
  if (entry && entry->own_rocm && !own_lacks_gpu)
    use += (use.empty() ? "" : ", or ") +
           (own_installed ? std::string(entry->name) + "'s own ROCm packages, installed here" : std::string(*entry->own_rocm));
  // No version of it, or of what it follows, is listed (Fedora, Arch, a
  // distribution rocmdoc does not describe): the newest release's list is
  // the way to AMD's support, beside its own packages where it has them.
  if (!elsewhere_release.empty())
    use += (use.empty() ? "" : ", or ") +
           ("a distribution ROCm " + elsewhere_release + " lists" + for_gpu + " (" + elsewhere + ")");
  s["use"] = use.empty() ? unknown("the matrix lists no distributions") : Json(use);
  s["use_for_gpu"] = !gpu.gfx.empty();
  return s;
}

}  // namespace

Json gpu_family(const Json* gpu) {
  if (!gpu) return nullptr;
  if ((*gpu)["apu"] == true) return "apu";
  const Json& arch = (*gpu)["architecture"];
  if (!arch.is_string()) return nullptr;
  return arch.get<std::string>().rfind("CDNA", 0) == 0 ? "instinct" : "radeon";
}

void add_derived_facts(Json& facts, const Matrix& matrix, const std::optional<std::string>& requested_rocm) {
  Json gpus = Json::array();
  const Json& pci_gpus = field(field(facts, "pci"), "gpus");
  if (pci_gpus.is_array()) {
    for (auto& p : pci_gpus)
      if (p.is_object() && field(p, "vendor") == "amd") gpus.push_back(joined_gpu(facts, p, matrix));
    facts["gpus"] = gpus;
  } else {
    // Read, not facts["pci"]: that would add a null "pci" to a document
    // without one (explain --no-probe), and pci.gpus would then be null, not
    // unknown, ruling out every problem that asks for an AMD GPU there.
    Json pci = field(facts, "pci");
    facts["gpus"] = is_unknown(pci) ? pci : unknown("no PCI device list");
  }
  facts["target"] = target_release(facts, gpus, matrix, requested_rocm);
  describe_tracks(facts, matrix);
  describe_release(facts["target"], matrix);
  describe_radeon_track(facts["target"], matrix);
  describe_kernels(facts["target"], facts, matrix);
  describe_torch(facts["target"], gpus, matrix);
  facts["distro_support"] = distro_support(facts, matrix);
}

}  // namespace rocmdoc
