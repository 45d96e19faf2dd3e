#include "machine/machine.h"

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

#include "platform/host_filesystem.h"
#include "base/text.h"
#include "machine/recorded_machine.h"

extern char** environ;

namespace rocmdoc {

const std::vector<std::string>& relevant_environment() {
  static const std::vector<std::string> names = {
      "PATH", "LD_LIBRARY_PATH", "HOME", "USER", "LOGNAME", "SUDO_USER", "SUDO_UID", "SUDO_GID",
      "ROCM_PATH", "ROCM_HOME", "HIP_PATH", "HIP_PLATFORM", "HSA_OVERRIDE_GFX_VERSION*", "HIP_VISIBLE_DEVICES",
      "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "PYTORCH_ROCM_ARCH",
      "HCC_AMDGPU_TARGET", "HSA_ENABLE_SDMA", "HSA_XNACK", "AMD_SERIALIZE_KERNEL", "HIP_LAUNCH_BLOCKING",
      "AMD_LOG_LEVEL", "VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_VERSION", "container", "KUBERNETES_SERVICE_HOST",
      "WSL_DISTRO_NAME", "WSL_INTEROP"};
  return names;
}

bool is_relevant_environment(const std::string& name) {
  for (auto& pattern : relevant_environment()) {
    if (!pattern.empty() && pattern.back() == '*') {
      if (starts_with(name, pattern.substr(0, pattern.size() - 1))) return true;
    } else if (name == pattern) {
      return true;
    }
  }
  return false;
}

void Machine::set_env(std::map<std::string, std::string> values, std::vector<std::string> recorded_patterns) {
  env_.clear();
  for (auto& [k, v] : values)
    if (is_relevant_environment(k)) env_[k] = v;
  recorded_patterns_ = std::move(recorded_patterns);
}

Json Machine::env(const std::string& name) const {
  auto it = env_.find(name);
  if (it != env_.end()) return it->second;
  bool recorded = false;
  for (auto& p : recorded_patterns_)
    if (p == "*" || starts_with(name, p)) recorded = true;
  if (!recorded) return unknown("the recording of this machine did not keep " + name);
  return nullptr;  // known to be unset
}

std::vector<std::string> Machine::env_names() const {
  std::vector<std::string> names;
  for (auto& [k, v] : env_) names.push_back(k);
  return names;
}

std::unique_ptr<Machine> open_live_machine() {
  auto m = std::make_unique<Machine>();
  m->fs = std::make_unique<HostFileSystem>("/");
  m->runner = std::make_unique<SystemProcessRunner>();
  m->live = true;
  m->root = "/";
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  m->set_env(std::move(env), {"*"});
  m->user.known = true;
  m->user.uid = ::getuid();
  m->user.gid = ::getgid();
  if (passwd* pw = ::getpwuid(m->user.uid)) m->user.name = pw->pw_name;
  int n = ::getgroups(0, nullptr);
  std::vector<gid_t> gids(n > 0 ? static_cast<size_t>(n) : 0);
  if (n > 0 && ::getgroups(n, gids.data()) == n)
    for (gid_t g : gids) m->user.process_gids.push_back(g);
  return m;
}

Result<std::unique_ptr<Machine>> open_recorded_machine(const std::string& root) {
  using R = Result<std::unique_ptr<Machine>>;
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0) {
    int err = errno;  // not always "missing": too long a name, a loop, no permission
    return R::fail(root + ": " + (err == ENOENT ? std::string("no such directory") : std::strerror(err)));
  }
  if (!S_ISDIR(st.st_mode)) return R::fail(root + ": not a directory (--root takes an unpacked snapshot or a tree mirroring /)");
  char resolved[PATH_MAX];
  if (!::realpath(root.c_str(), resolved)) return R::fail(root + ": cannot resolve path");
  std::string abs = resolved;
  if (abs == "/") return R::ok(open_live_machine());
  // A recorded machine's folder holds the tree in root/ beside its capture's
  // cmd/ and the expectations: given the folder, every probe would read
  // nothing and check would say only "could not be checked", with exit 0.
  auto has_top_dirs = [](const std::string& dir) {
    for (const char* top : {"/etc", "/sys", "/proc", "/usr"}) {
      struct stat s {};
      if (::stat((dir + top).c_str(), &s) == 0 && S_ISDIR(s.st_mode)) return true;
    }
    return false;
  };
  if (!has_top_dirs(abs) && has_top_dirs(abs + "/root"))
    return R::fail(root + ": not a machine's root (no etc/, sys/, proc/ or usr/ in it); the tree is in its root/ folder: --root " +
                   (root.empty() || root.back() != '/' ? root + "/root" : root + "root"));
  return load_recording(abs);
}

}  // namespace rocmdoc
