#include "probe/amdgpu/dkms.h"

#include "base/text.h"

namespace rocmdoc {

namespace {

// DKMS keeps /var/lib/dkms/amdgpu/<version>/<kernel>/<arch>/ per build,
// beside <version>/source and <version>/build, and "kernel-<kernel>-<arch>"
// links at the top that say which build is installed.
constexpr const char* kDkmsTree = "/var/lib/dkms/amdgpu";

bool is_directory(FileSystem& fs, const std::string& path) {
  return fs.stat_follow(path).type == FileType::directory;
}

bool has_subdirectory(FileSystem& fs, const std::string& dir) {
  auto names = fs.list_dir(dir);
  if (!names) return false;
  for (auto& n : *names)
    if (is_directory(fs, path_join(dir, n))) return true;
  return false;
}

Json headers_installed(FileSystem& fs, const std::string& release) {
  // build is a link into /usr/src; a dangling one means the headers
  // package was removed, so follow it.
  for (std::string path : {"/lib/modules/" + release + "/build", "/usr/src/linux-headers-" + release}) {
    FileStat st = fs.stat_follow(path);
    if (st.type == FileType::directory) return true;
    if (st.unreadable()) return unknown(path + ": " + st.error);
  }
  return false;
}

}  // namespace

Json amdgpu_dkms_fact(ProbeContext& ctx, const Json& release) {
  FileSystem& fs = ctx.fs();
  Json out = Json::object();
  Json installed = Json::array();
  bool built_for_running = false;
  auto versions = fs.list_dir(kDkmsTree);
  FileStat tree = fs.stat_follow(kDkmsTree);
  if (!versions && !(tree.absent())) {
    out["installed"] = unknown(versions.error());
  } else {
    for (auto& v : versions.value_or({})) {
      if (starts_with(v, "kernel-") || v == "original_module") continue;
      std::string dir = path_join(kDkmsTree, v);
      if (fs.stat(dir).type != FileType::directory) continue;
      installed.push_back(v);
      if (release.is_string() && has_subdirectory(fs, path_join(dir, release.get<std::string>())))
        built_for_running = true;
    }
    out["installed"] = installed;
  }
  std::string no_release = "the kernel release is unknown: " + unknown_reason(release);
  if (!release.is_string()) {
    // With nothing installed there is nothing built, whatever the kernel.
    bool none = installed.empty() && !is_unknown(out["installed"]);
    out["built_for_running_kernel"] = none ? Json(false) : unknown(no_release);
    out["headers_for_running_kernel"] = unknown(no_release);
    return out;
  }
  out["built_for_running_kernel"] = is_unknown(out["installed"]) ? out["installed"] : Json(built_for_running);
  out["headers_for_running_kernel"] = headers_installed(fs, release.get<std::string>());
  return out;
}

}  // namespace rocmdoc
