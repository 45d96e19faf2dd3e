// The live SystemChanger: the only code in rocmdoc that changes the machine.
// No shell anywhere: every process is an argv; a download lands in a file
// that is only renamed into place once complete; a key is dearmoured into a
// temporary file and renamed, so apt never sees half a keyring.
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "install/run/gpg_home.h"
#include "formats/gpg_key_listing.h"
#include "platform/atomic_file.h"
#include "platform/host_filesystem.h"
#include "install/run/run.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// mkdir -p, 0755: /var/lib/rocmdoc, /var/log/rocmdoc, /etc/apt/keyrings.
Result<bool> make_parents(const std::string& path) {
  std::string dir = path_dirname(path);
  if (dir.empty() || dir == "/" || ::access(dir.c_str(), F_OK) == 0) return Result<bool>::ok(true);
  auto parent = make_parents(dir);
  if (!parent) return parent;
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return Result<bool>::fail(dir + ": cannot create the directory: " + errno_reason(errno));
  return Result<bool>::ok(true);
}

std::string current_user_name() {
  struct passwd* pw = ::getpwuid(::geteuid());
  return pw ? pw->pw_name : "";
}

// Runs a helper tool, collecting its output for the message when it fails.
Result<std::string> run_tool(const std::vector<std::string>& argv) {
  std::string out, err;
  ProcessResult r = stream_process(argv, {std::chrono::minutes(10), false, true}, [&](int stream, std::string_view d) {
    (stream == 1 ? out : err).append(d.substr(0, 1u << 20));
  });
  std::string command = argv[0];
  if (!r.started) return Result<std::string>::fail(r.error);
  if (r.timed_out) return Result<std::string>::fail(command + " did not finish in 10 minutes");
  if (r.exit_code != 0)
    return Result<std::string>::fail(command + " exited " + std::to_string(r.exit_code) + ": " + trim(err.substr(0, 2000)));
  return Result<std::string>::ok(out);
}

}  // namespace

Result<bool> LiveSystemChanger::write_file(const std::string& path, const std::string& content, unsigned mode) {
  auto parents = make_parents(path);
  if (!parents) return parents;
  return write_file_atomically(path, content, mode);
}

Result<int> LiveSystemChanger::run(const std::vector<std::string>& argv, const std::string& as_user,
                                   const std::function<void(std::string_view)>& output) {
  std::vector<std::string> command = argv;
  if (!as_user.empty() && as_user != current_user_name())
    command.insert(command.begin(), {"runuser", "-u", as_user, "--"});
  StreamOptions options;
  options.own_process_group = false;  // Ctrl-C reaches apt too, as in a shell
  options.heartbeat = std::chrono::seconds(1);  // the status line's clock (SystemChanger::run)
  ProcessResult r = stream_process(command, options, [&](int, std::string_view data) { output(data); });
  if (!r.started) return Result<int>::fail(r.error);
  return Result<int>::ok(r.exit_code);
}

Result<bool> LiveSystemChanger::download(const std::string& url, const std::string& path) {
  if (!starts_with(url, "https://")) return Result<bool>::fail(url + ": only https downloads are allowed");
  auto parents = make_parents(path);
  if (!parents) return parents;
  TemporaryBeside tmp(path);  // a half-downloaded file never takes the target's name
  if (!tmp.ok()) return Result<bool>::fail(tmp.error());
  auto fetched = run_tool({"curl", "-fsSL", "--proto", "=https", "--tlsv1.2", "-o", tmp.name(), url});
  if (!fetched) return Result<bool>::fail(fetched.error());
  return tmp.commit(0644);
}

Result<std::vector<std::string>> LiveSystemChanger::key_fingerprints(const std::string& path) {
  TemporaryGpgHome home;
  if (!home.ok()) return Result<std::vector<std::string>>::fail(home.error());
  auto listing = run_tool(home.gpg({"--show-keys", "--with-colons", path}));
  if (!listing) return Result<std::vector<std::string>>::fail(listing.error());
  std::vector<std::string> fingerprints;
  for (auto& key : parse_gpg_colons(*listing)) fingerprints.push_back(key.fingerprint);
  return Result<std::vector<std::string>>::ok(fingerprints);
}

Result<bool> LiveSystemChanger::dearmor_key(const std::string& source, const std::string& path) {
  auto parents = make_parents(path);
  if (!parents) return parents;
  TemporaryBeside tmp(path);  // apt never sees half a keyring
  if (!tmp.ok()) return Result<bool>::fail(tmp.error());
  {
    // Gone before the rename: a kill from here on leaves nothing in /tmp.
    TemporaryGpgHome home;
    if (!home.ok()) return Result<bool>::fail(home.error());
    auto converted = run_tool(home.gpg({"--yes", "--dearmor", "-o", tmp.name(), source}));
    if (!converted) return Result<bool>::fail(converted.error());
  }
  return tmp.commit(0644);  // apt reads keyrings as _apt: world-readable
}

std::string LiveSystemChanger::boot_id() {
  FILE* f = std::fopen(boot_id_path_.c_str(), "re");
  if (!f) return "";
  char buffer[128] = {};
  size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
  std::fclose(f);
  return trim(std::string_view(buffer, n));
}

}  // namespace rocmdoc
