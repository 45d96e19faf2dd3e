#include "rules/derived_facts.h"

#include "base/version.h"

namespace rocmdoc {

namespace {

// The KFD node of a PCI address, if the topology has one.
const Json* kfd_gpu_at(const Json& facts, const std::string& address) {
  const Json& gpus = field(field(facts, "kfd"), "gpus");
  if (!gpus.is_array()) return nullptr;
  for (auto& g : gpus)
    if (g.is_object() && g.value("pci_address", "") == address) return &g;
  return nullptr;
}

Json text_list(const MatrixTexts& list) {
  Json out = Json::array();
  for (auto& t : list) out.push_back(std::string(t));
  return out;
}

Json joined_gpu(const Json& facts, const Json& pci_gpu, const Matrix& matrix) {
  std::string address = pci_gpu.value("address", "");
  std::string device_id = pci_gpu.value("device_id", "");
  const GpuDevice* entry = matrix.device(device_id);
  Json g = Json::object();
  g["address"] = address;
  g["device_id"] = device_id;
  g["name"] = pci_gpu.contains("name") ? pci_gpu["name"] : Json(nullptr);
  g["driver"] = pci_gpu.contains("driver") ? pci_gpu["driver"] : Json(nullptr);
  g["in_matrix"] = entry != nullptr;
  g["matrix_names"] = entry ? text_list(entry->names) : Json::array();
  g["apu"] = entry ? Json(entry->apu) : unknown("device " + device_id + " is not in the matrix");
  // The kernel's number wins over the table; the table only fills in when
  // the driver is not running.
  const Json* node = kfd_gpu_at(facts, address);
  if (node && node->contains("gfx") && (*node)["gfx"].is_string()) {
    g["gfx"] = (*node)["gfx"];
    g["gfx_source"] = "kfd";
  } else if (entry && entry->gfx) {
    g["gfx"] = std::string(*entry->gfx);
    g["gfx_source"] = "matrix";
  } else {
    g["gfx"] = unknown("no KFD node for " + address + " and device " + device_id + " is not in the matrix");
    g["gfx_source"] = nullptr;
  }
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

Json target_release(const Json& facts, const Json& gpus, const Matrix& matrix, const std::optional<std::string>& requested) {
  Json t = Json::object();
  t["matrix_as_of"] = matrix.as_of();
  if (requested) {
    t["rocm"] = *requested;
    t["chosen_by"] = "--rocm";
    t["in_matrix"] = matrix.find_release(*requested) != nullptr;
    return t;
  }
  t["chosen_by"] = "matrix";
  const Json& distro = field(field(facts, "distro"), "id");
  const Json& version = field(field(facts, "distro"), "version_id");
  if (!distro.is_string() || !version.is_string()) {
    t["rocm"] = unknown("the distribution is not known");
    return t;
  }
  // A discrete GPU decides when there is one: it is what people compute on.
  const Json* chosen = nullptr;
  for (auto& g : gpus)
    if (g["gfx"].is_string() && (!chosen || (g["apu"] == false && (*chosen)["apu"] != false))) chosen = &g;
  if (!chosen) {
    t["rocm"] = unknown(gpus.empty() ? "no AMD GPU" : "the GPU's gfx target is not known");
    return t;
  }
  std::string gfx = (*chosen)["gfx"].get<std::string>();
  Json newest = matrix.newest_release_for(gfx, distro.get<std::string>(), version.get<std::string>());
  t["for_gpu"] = (*chosen)["address"];
  if (newest.is_null()) {
    t["rocm"] = unknown("no release in the matrix lists " + gfx + " on " + distro.get<std::string>() + " " +
                        version.get<std::string>());
    return t;
  }
  t["rocm"] = newest;
  t["in_matrix"] = true;
  return t;
}

}  // namespace

void add_derived_facts(Json& facts, const Matrix& matrix, const std::optional<std::string>& requested_rocm) {
  Json gpus = Json::array();
  const Json& pci_gpus = field(field(facts, "pci"), "gpus");
  if (pci_gpus.is_array()) {
    for (auto& p : pci_gpus)
      if (p.is_object() && p.value("vendor", "") == "amd") gpus.push_back(joined_gpu(facts, p, matrix));
    facts["gpus"] = gpus;
  } else {
    facts["gpus"] = is_unknown(facts["pci"]) ? facts["pci"] : unknown("no PCI device list");
  }
  facts["target"] = target_release(facts, gpus, matrix, requested_rocm);
  describe_release(facts["target"], matrix);
}

}  // namespace rocmdoc
