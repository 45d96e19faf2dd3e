// The probe stage may not include install's headers (stages include only
// the stages below them: cmake/check_layers.cmake), so the journal is read
// here as install writes it (src/install/run/journal.cpp, format 1):
//   {"format": 1, "plan_key": "install ubuntu-24.04 rocm-7.2.4 ... torch",
//    "done": [{"step": "venv", "finished_at": ..., "boot_id": ...}, ...], ...}
// It does not keep the venv's path: docs/install.md gives the default,
// ~USER/rocm-venv, which is where this looks; a venv made with --venv
// elsewhere is said to be missing rather than guessed at.
#include "probe/python/install_venv.h"

#include "base/json_input.h"

namespace rocmdoc {

namespace {

constexpr int kJournalFormat = 1;
constexpr size_t kJournalLimit = 1u << 20;  // install refuses bigger ones too
constexpr const char* kDefaultVenvDir = "rocm-venv";

// Whether the journal records the venv step done; unknown when it cannot
// be read as a journal.
Json venv_step_done(ProbeContext& ctx) {
  FileStat st = ctx.fs().stat(kInstallJournal);
  if (st.type == FileType::missing) return st.error.empty() ? Json(false) : unknown(std::string(kInstallJournal) + ": " + st.error);
  auto text = ctx.fs().read_file(kInstallJournal, kJournalLimit);
  if (!text) return unknown(text.error());
  auto parsed = parse_json_bounded(*text, 64);
  if (!parsed) return unknown(std::string(kInstallJournal) + ": " + parsed.error());
  const Json& doc = *parsed;
  if (!doc.is_object()) return unknown(std::string(kInstallJournal) + ": not a JSON object");
  const Json& format = field(doc, "format");
  if (!format.is_number_integer() || format.get<int>() != kJournalFormat)
    return unknown(std::string(kInstallJournal) + ": not a journal of format " + std::to_string(kJournalFormat));
  const Json& done = field(doc, "done");
  if (!done.is_array()) return unknown(std::string(kInstallJournal) + ": \"done\" is not a list");
  for (auto& entry : done)
    if (entry.is_object() && field(entry, "step") == "venv") return true;
  return false;
}

}  // namespace

PlaceSearch install_venv_places(ProbeContext& ctx, const Json& home) {
  PlaceSearch out;
  Json done = venv_step_done(ctx);
  const std::string what = "the venv rocmdoc install made: ";
  if (is_unknown(done)) {
    out.not_searched.push_back(what + unknown_reason(done));
  } else if (done.get<bool>()) {
    if (is_unknown(home)) {
      out.not_searched.push_back(what + unknown_reason(home));
    } else {
      std::string venv = home.get<std::string>() + "/" + kDefaultVenvDir;
      out.prefixes.push_back({venv, "rocmdoc install",
                              std::string(kInstallJournal) + " has the venv step done (it does not keep --venv), but " +
                                  venv + ", the default,"});
    }
  }
  return out;
}

}  // namespace rocmdoc
