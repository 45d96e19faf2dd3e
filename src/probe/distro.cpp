// distro: /etc/os-release (or /usr/lib/os-release, its documented fallback).
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

Json probe_distro(ProbeContext& ctx, const Json&) {
  std::string why;
  for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
    auto text = ctx.fs().read_file(path, 64 * 1024);
    if (!text) {
      why += (why.empty() ? "" : "; ") + text.error();
      continue;
    }
    if (looks_binary(*text)) return unknown(std::string(path) + ": binary content, not an os-release file");
    auto fields = parse_env_file(*text);
    if (!fields.count("ID")) return unknown(std::string(path) + ": no ID= line");
    auto field = [&](const char* key) -> Json {
      auto it = fields.find(key);
      return it == fields.end() ? Json(nullptr) : Json(it->second);
    };
    Json d = Json::object();
    d["id"] = field("ID");
    Json like = Json::array();
    if (fields.count("ID_LIKE"))
      for (auto& w : split_words(fields["ID_LIKE"])) like.push_back(w);
    d["id_like"] = like;
    d["version_id"] = field("VERSION_ID");
    d["codename"] = field("VERSION_CODENAME");
    // Ubuntu wrote UBUNTU_CODENAME before VERSION_CODENAME existed.
    if (d["codename"].is_null()) d["codename"] = field("UBUNTU_CODENAME");
    // A distribution built on Ubuntu names its base by it (Linux Mint 22:
    // VERSION_CODENAME wilma, UBUNTU_CODENAME noble).
    d["ubuntu_codename"] = field("UBUNTU_CODENAME");
    d["pretty_name"] = field("PRETTY_NAME");
    // NAME tells what ID does not: CentOS Stream's ID is "centos", as CentOS 7's was.
    d["name"] = field("NAME");
    d["source"] = path;
    return d;
  }
  return unknown(why);
}

}  // namespace rocmdoc
