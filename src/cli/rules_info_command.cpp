// rocmdoc rules info [DIR]: how current the rules are. The matrix's as-of
// date, the newest ROCm release of each line with its date, the newest
// PyTorch release, and what the rules hold, so a user can tell at a glance
// whether rocmdoc knows their release (docs/updating-the-matrix.md).
#include <fmt/format.h>

#include "base/version.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "facts/facts_document.h"
#include "install/plan/recipe.h"
#include "rules/knowledge.h"

namespace rocmdoc {

namespace {

// The newest release of one line ("" for any line), or nullptr.
const Release* newest_release(const Matrix& m, std::string_view line) {
  const Release* best = nullptr;
  for (auto& r : m.releases())
    if ((line.empty() || r.line == line) && (!best || compare_versions(r.version, best->version) > 0)) best = &r;
  return best;
}

Json release_json(const Release* r) {
  if (!r) return nullptr;
  return {{"version", std::string(r->version)},
          {"line", std::string(r->line)},
          {"date", r->date ? Json(std::string(*r->date)) : Json(nullptr)},
          {"confidence", std::string(r->confidence)},
          {"unconfirmed", r->unconfirmed ? Json(std::string(*r->unconfirmed)) : Json(nullptr)}};
}

// The newest torch with a ROCm wheel on the release channel, and the ROCm
// variants it is built for.
Json newest_torch(const Matrix& m) {
  std::string best;
  for (auto& w : m.wheels())
    if (w.channel == "release" && (best.empty() || compare_versions(w.torch, best) > 0)) best = std::string(w.torch);
  if (best.empty()) return nullptr;
  Json rocm = Json::array();
  for (auto& w : m.wheels())
    if (w.channel == "release" && w.torch == best) rocm.push_back(std::string(w.rocm));
  return {{"torch", best}, {"rocm", rocm}};
}

Json info_json(const Knowledge& k, const InstallRecipes& recipes, const std::string& dir) {
  const Matrix& m = *k.matrix;
  Json lines = Json::object();
  for (const char* line : {"production", "preview", "core_sdk"}) lines[line] = release_json(newest_release(m, line));
  size_t checked = 0;
  for (auto& p : k.catalogue.problems) checked += p.checked();
  return {{"rules", dir.empty() ? Json("built-in") : Json(dir)},
          {"matrix_as_of", m.as_of()},
          {"newest_rocm", release_json(newest_release(m, ""))},
          {"newest_rocm_by_line", lines},
          {"newest_torch", newest_torch(m)},
          {"counts",
           {{"releases", m.releases().size()},
            {"gpu_devices", m.devices().size()},
            {"gfx_targets", m.gfx_targets().size()},
            {"torch_wheels", m.wheels().size()},
            {"problems", k.catalogue.problems.size()},
            {"problems_checked_on_facts", checked},
            {"symptoms", k.catalogue.symptoms.size()},
            {"signatures", k.catalogue.signatures.size()},
            {"install_recipes", recipes.releases.size()},
            {"install_distributions", recipes.distros.size()}}},
          {"install_recipes_as_of", recipes.as_of}};
}

std::string text_of(const Json& v) { return v.is_string() ? v.get<std::string>() : ""; }

// "7.2.4, 2026-05-29" with what the matrix does not confirm.
std::string release_text(const Json& r) {
  if (r.is_null()) return "none in the matrix";
  std::string out = text_of(r["version"]) + ", " + (r["date"].is_string() ? text_of(r["date"]) : "date not known");
  if (text_of(r["confidence"]) != "high") out += ", confidence " + text_of(r["confidence"]);
  return out;
}

std::string info_text(const Json& info) {
  const Json& c = info["counts"];
  const Json& lines = info["newest_rocm_by_line"];
  const Json& newest = info["newest_rocm"];
  std::string out = fmt::format("rules: {}\nmatrix as of {}\n", text_of(info["rules"]), text_of(info["matrix_as_of"]));
  out += "newest ROCm release: " + (newest.is_null() ? "none in the matrix" : text_of(newest["line"]) + " " + release_text(newest)) + "\n";
  out += "  production " + release_text(lines["production"]) + "\n";
  out += "  preview    " + release_text(lines["preview"]) + "\n";
  out += "  core_sdk   " + release_text(lines["core_sdk"]) + "\n";
  const Json& torch = info["newest_torch"];
  if (torch.is_null()) out += "newest PyTorch release: none in the matrix\n";
  else {
    std::string rocm;
    for (auto& r : torch["rocm"]) rocm += (rocm.empty() ? "" : ", ") + text_of(r);
    out += "newest PyTorch release: " + text_of(torch["torch"]) + " (ROCm " + rocm + " wheels)\n";
  }
  out += fmt::format("matrix: {} releases, {} GPU devices, {} gfx targets, {} torch wheels\n",
                     c["releases"].get<size_t>(), c["gpu_devices"].get<size_t>(), c["gfx_targets"].get<size_t>(),
                     c["torch_wheels"].get<size_t>());
  out += fmt::format("catalogue: {} problems ({} checked on facts), {} symptoms, {} signatures\n",
                     c["problems"].get<size_t>(), c["problems_checked_on_facts"].get<size_t>(),
                     c["symptoms"].get<size_t>(), c["signatures"].get<size_t>());
  out += fmt::format("install recipes: {} releases on {} distributions (as of {})\n", c["install_recipes"].get<size_t>(),
                     c["install_distributions"].get<size_t>(), text_of(info["install_recipes_as_of"]));
  return out;
}

}  // namespace

int run_rules_info(const std::string& dir, bool json, std::ostream& out, std::ostream& err) {
  // Counts only: the signatures' patterns need not be compiled.
  Knowledge k = load_knowledge({dir, ""});
  InstallRecipes recipes = load_install_recipes_from(dir, k.errors);
  if (!k.errors.empty()) {
    print_load_errors(k.errors, err);
    return kExitUsage;
  }
  Json info = info_json(k, recipes, dir);
  out << (json ? facts_to_string(info) + "\n" : info_text(info));
  return kExitOk;
}

}  // namespace rocmdoc
