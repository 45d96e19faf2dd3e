#include "probe/rocm/installs.h"

#include <algorithm>

#include "base/text.h"
#include "probe/rocm/rocblas_kernels.h"

namespace rocmdoc {

namespace {

constexpr const char* kDefaultInstall = "/opt/rocm";

bool version_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' ||
         c == '+' || c == '~' || c == '_';
}

// rocm-core writes .info/version; since ROCm 7.x ("TheRock") native
// packages put it under <install>/core/ instead, with the old place absent.
Json read_install_version(ProbeContext& ctx, const std::string& install, Json& source) {
  std::string why;
  for (const char* relative : {"/.info/version", "/core/.info/version"}) {
    std::string path = install + relative;
    auto text = ctx.fs().read_file(path, 64 * 1024);
    if (!text) {
      why += (why.empty() ? "" : "; ") + text.error();
      continue;
    }
    source = path;
    return parse_rocm_info_version(path, *text);
  }
  source = nullptr;
  return unknown(why);
}

Json install_json(ProbeContext& ctx, const std::string& path) {
  Json j = Json::object();
  j["path"] = path;
  FileStat st = ctx.fs().stat(path);
  if (st.type == FileType::symlink) {
    auto target = ctx.fs().read_link(path);
    j["link_target"] = target ? Json(*target) : unknown(target.error());
    auto resolved = ctx.fs().resolve(path);
    j["resolved"] = resolved ? Json(*resolved) : unknown(resolved.error());
  } else {
    j["link_target"] = nullptr;
    j["resolved"] = path;
  }
  Json source;
  j["version"] = read_install_version(ctx, path, source);
  j["version_source"] = source;
  j["rocblas_gfx"] = rocblas_targets(ctx, path + "/lib");
  return j;
}

// An entry is an install when it is (or links to) a directory; the
// /opt/rocm link is kept even when it dangles, since that is a finding.
bool is_install(ProbeContext& ctx, const std::string& path) {
  if (path == kDefaultInstall && ctx.fs().stat(path).type == FileType::symlink) return true;
  return ctx.fs().stat_follow(path).type == FileType::directory;
}

Json default_install(ProbeContext& ctx) {
  FileStat st = ctx.fs().stat(kDefaultInstall);
  if (st.type == FileType::missing) {
    if (!st.error.empty()) return unknown(std::string(kDefaultInstall) + ": " + st.error);
    return nullptr;
  }
  if (st.type == FileType::directory) return kDefaultInstall;
  if (st.type != FileType::symlink) return unknown(std::string(kDefaultInstall) + ": not a directory or a link");
  auto resolved = ctx.fs().resolve(kDefaultInstall);
  if (!resolved) return unknown(resolved.error());
  if (ctx.fs().stat(*resolved).type != FileType::directory)
    return unknown(std::string(kDefaultInstall) + ": links to " + *resolved + ", which is not a directory");
  return *resolved;
}

}  // namespace

Json parse_rocm_info_version(const std::string& path, std::string_view text) {
  if (looks_binary(text)) return unknown(path + ": binary content, not a version");
  std::string first = trim(text.substr(0, text.find('\n')));
  if (first.empty()) return unknown(path + ": empty");
  bool shaped = first.size() <= 64 && first.front() >= '0' && first.front() <= '9' &&
                std::all_of(first.begin(), first.end(), version_char);
  if (!shaped) return unknown(path + ": not a version: " + quote_for_reason(first));
  return first;
}

void probe_rocm_installs(ProbeContext& ctx, Json& section) {
  auto names = ctx.fs().list_dir("/opt");
  if (!names) {
    FileStat st = ctx.fs().stat("/opt");
    bool absent = st.absent();
    section["installs"] = absent ? Json::array() : unknown(names.error());
    section["default"] = absent ? Json(nullptr) : unknown(names.error());
    return;
  }
  Json installs = Json::array();
  for (auto& name : *names) {
    if (name != "rocm" && !starts_with(name, "rocm-")) continue;
    std::string path = "/opt/" + name;
    if (is_install(ctx, path)) installs.push_back(install_json(ctx, path));
  }
  section["installs"] = installs;
  section["default"] = default_install(ctx);
}

}  // namespace rocmdoc
