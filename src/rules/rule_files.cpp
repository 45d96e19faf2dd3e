// Finding rule files on disk (--rules DIR, /etc/rocmdoc/rules.d).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rules/rule_loader.h"

namespace rocmdoc {

Result<std::vector<RuleFile>> read_rule_files(const std::string& dir) {
  namespace fs = std::filesystem;
  using R = Result<std::vector<RuleFile>>;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return R::fail(dir + ": not a directory");
  std::vector<RuleFile> files;
  fs::path base = fs::path(dir).lexically_normal();
  std::string label = base.filename().empty() ? base.parent_path().filename().string() : base.filename().string();
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) return R::fail(dir + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return R::fail(dir + ": " + ec.message());
    if (!it->is_regular_file(ec) || it->path().extension() != ".yaml") continue;
    std::ifstream in(it->path(), std::ios::binary);
    if (!in) return R::fail(it->path().string() + ": cannot read");
    std::stringstream ss;
    ss << in.rdbuf();
    files.push_back({label + "/" + fs::relative(it->path(), base, ec).generic_string(), ss.str()});
  }
  std::sort(files.begin(), files.end(), [](const RuleFile& a, const RuleFile& b) { return a.name < b.name; });
  return R::ok(std::move(files));
}

std::vector<RuleFile> files_under(const std::vector<RuleFile>& files, const std::string& folder) {
  std::vector<RuleFile> out;
  std::string needle = "/" + folder + "/";
  for (auto& f : files)
    if (f.name.find(needle) != std::string::npos) out.push_back(f);
  return out;
}

}  // namespace rocmdoc
