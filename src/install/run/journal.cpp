// The journal's JSON form. It is read before every run and rewritten whole
// after every step, so a reader never sees half of one; a file that is not
// a journal is an error the user must look at, never silently replaced.
#include "install/run/executor.h"
#include "base/fact.h"
#include "base/json_input.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr int kJournalFormat = 1;
// A journal holds a few dozen steps; anything this big is not one.
constexpr size_t kMaxJournalBytes = 1u << 20;

Result<std::string> string_field(const Json& obj, const char* key, bool required) {
  const Json& v = field(obj, key);
  if (v.is_null() && !required) return Result<std::string>::ok("");
  if (!v.is_string()) return Result<std::string>::fail(std::string("\"") + key + "\" is not a string");
  return Result<std::string>::ok(v.get<std::string>());
}

Result<Journal> from_json(const Json& doc) {
  using R = Result<Journal>;
  if (!doc.is_object()) return R::fail("not a JSON object");
  const Json& format = field(doc, "format");
  if (!format.is_number_integer() || format.get<int>() != kJournalFormat)
    return R::fail("\"format\" is not " + std::to_string(kJournalFormat));
  Journal j;
  auto key = string_field(doc, "plan_key", true);
  if (!key) return R::fail(key.error());
  j.plan_key = *key;
  auto reboot = string_field(doc, "reboot_requested_in_boot", false);
  if (!reboot) return R::fail(reboot.error());
  j.reboot_requested_in_boot = *reboot;
  auto by = string_field(doc, "reboot_requested_by", false);
  if (!by) return R::fail(by.error());
  j.reboot_requested_by = *by;
  auto started = string_field(doc, "started_at", false);
  if (!started) return R::fail(started.error());
  j.started_at = *started;
  const Json& done = field(doc, "done");
  if (!done.is_array()) return R::fail("\"done\" is not a list");
  for (auto& item : done) {
    JournalEntry e;
    auto step = string_field(item, "step", true);
    auto at = string_field(item, "finished_at", false);
    auto boot = string_field(item, "boot_id", false);
    if (!item.is_object() || !step || !at || !boot) return R::fail("an entry of \"done\" is not {step, finished_at, boot_id}");
    e.step = *step;
    e.finished_at = *at;
    e.boot_id = *boot;
    j.done.push_back(std::move(e));
  }
  return R::ok(std::move(j));
}

}  // namespace

Result<Journal> read_journal(FileSystem& fs, const std::string& path) {
  using R = Result<Journal>;
  FileStat st = fs.stat(path);
  if (st.type == FileType::missing) {
    if (st.error.empty()) return R::ok(Journal{});
    return R::fail("the journal " + path + " cannot be read: " + st.error);
  }
  auto text = fs.read_file(path, kMaxJournalBytes);
  if (!text) return R::fail("the journal " + path + " cannot be read: " + text.error());
  // A journal is three levels deep; 64 leaves room and keeps the stack safe.
  auto doc = parse_json_bounded(*text, 64);
  if (!doc)
    return R::fail("the journal " + path + " is " +
                   (starts_with(doc.error(), "not valid JSON") ? doc.error() : "not a journal: " + doc.error()) +
                   "; move it aside to start afresh");
  auto journal = from_json(*doc);
  if (!journal) return R::fail("the journal " + path + " is corrupt (" + journal.error() + "); move it aside to start afresh");
  return journal;
}

std::string journal_to_string(const Journal& j) {
  Json doc = Json::object();
  doc["format"] = kJournalFormat;
  doc["plan_key"] = j.plan_key;
  doc["started_at"] = j.started_at;
  doc["reboot_requested_in_boot"] = j.reboot_requested_in_boot;
  if (!j.reboot_requested_by.empty()) doc["reboot_requested_by"] = j.reboot_requested_by;
  Json done = Json::array();
  for (auto& e : j.done) done.push_back({{"step", e.step}, {"finished_at", e.finished_at}, {"boot_id", e.boot_id}});
  doc["done"] = std::move(done);
  return doc.dump(2) + "\n";
}

}  // namespace rocmdoc
