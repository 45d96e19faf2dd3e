// A machine the executor can change, in memory: a SystemChanger over the
// machine's MemoryFileSystem that logs every call, commands whose effects
// are scripted, downloads from a table, and a ProcessRunner that answers
// the checks' commands (gpg --show-keys) from the current files.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "probe_test_support.h"
#include "install/run/run.h"
#include "install/run/step_check.h"
#include "base/text.h"

namespace rocmdoc::test {

// Thrown by the kill hook: the run stops as if the process died there.
struct Killed : std::runtime_error {
  Killed() : std::runtime_error("killed") {}
};

// A fake key file is text with "KEY <fingerprint>" lines; its keyring form
// is the same text prefixed with "KEYRING\n".
inline std::string fake_key(const std::string& fingerprint) { return "-----FAKE-----\nKEY " + fingerprint + "\n"; }

inline std::vector<std::string> fake_fingerprints(const std::string& content) {
  std::vector<std::string> out;
  for (auto& line : split_lines(content))
    if (starts_with(line, "KEY ")) out.push_back(line.substr(4));
  return out;
}

inline std::string joined(const std::vector<std::string>& argv) {
  std::string out;
  for (size_t i = 0; i < argv.size(); ++i) out += (i ? " " : "") + argv[i];
  return out;
}

struct ScriptedCommand {
  int exit_code = 0;
  std::string output;
  std::function<void(MemoryFileSystem&)> effect;  // applied when it exits 0
};

class FakeChanger : public SystemChanger {
 public:
  explicit FakeChanger(MemoryFileSystem& fs) : fs_(fs) {}
  std::map<std::string, ScriptedCommand> commands;  // by argv joined with spaces (as_user: "alex$ argv")
  std::map<std::string, std::string> downloads;     // url -> content
  std::vector<std::string> calls;                   // every call, in order
  // Called after each change is applied; may throw Killed.
  std::function<void(const std::string& call)> after_change;
  // Writes that fail (a full disk, a read-only mount): path -> the error; the
  // file keeps what it held, as with the atomic live write.
  std::map<std::string, std::string> failing_writes;

  Result<bool> write_file(const std::string& path, const std::string& content, unsigned mode) override {
    auto failing = failing_writes.find(path);
    if (failing != failing_writes.end()) {
      calls.push_back("write " + path + " (failed)");
      return Result<bool>::fail(failing->second);
    }
    fs_.file(path, content, mode);
    changed("write " + path);
    return Result<bool>::ok(true);
  }
  Result<int> run(const std::vector<std::string>& argv, const std::string& as_user,
                  const std::function<void(std::string_view)>& output) override {
    std::string key = (as_user.empty() ? "" : as_user + "$ ") + joined(argv);
    auto it = commands.find(key);
    if (it == commands.end()) {
      calls.push_back("run " + key + " (not found)");
      return Result<int>::fail(argv[0] + ": No such file or directory");
    }
    output(it->second.output);
    if (it->second.exit_code == 0 && it->second.effect) it->second.effect(fs_);
    changed("run " + key);
    return Result<int>::ok(it->second.exit_code);
  }
  Result<bool> download(const std::string& url, const std::string& path) override {
    auto it = downloads.find(url);
    if (it == downloads.end()) return Result<bool>::fail("curl: (22) The requested URL returned error: 404");
    fs_.file(path, it->second, 0644);
    changed("download " + url + " -> " + path);
    return Result<bool>::ok(true);
  }
  Result<std::vector<std::string>> key_fingerprints(const std::string& path) override {
    calls.push_back("fingerprints " + path);
    auto content = fs_.read_file(path);
    if (!content) return Result<std::vector<std::string>>::fail(content.error());
    return Result<std::vector<std::string>>::ok(fake_fingerprints(*content));
  }
  Result<bool> dearmor_key(const std::string& source, const std::string& path) override {
    auto content = fs_.read_file(source);
    if (!content) return Result<bool>::fail(content.error());
    fs_.file(path, "KEYRING\n" + *content, 0644);
    changed("dearmor " + source + " -> " + path);
    return Result<bool>::ok(true);
  }
  std::string boot_id() override { return trim(fs_.read_file(kBootIdPath).value_or("")); }

  // The calls that changed the machine itself: not the journal or the log.
  std::vector<std::string> changes(const ExecutorPaths& paths) const {
    std::vector<std::string> out;
    for (auto& c : calls)
      if (!starts_with(c, "write " + paths.journal) && !starts_with(c, "write " + paths.log_dir + "/") && !starts_with(c, "fingerprints "))
        out.push_back(c);
    return out;
  }

 private:
  void changed(const std::string& call) {
    calls.push_back(call);
    if (after_change) after_change(call);
  }
  MemoryFileSystem& fs_;
};

// Answers `gpg --show-keys --with-colons PATH` from the fake key in PATH;
// everything else from `recorded`.
class FakeRunner : public ProcessRunner {
 public:
  FakeRunner(MemoryFileSystem& fs, std::map<std::string, ProcessResult> recorded) : fs_(fs), recorded_(std::move(recorded)) {}
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds) override {
    ProcessResult r;
    if (argv.size() == 4 && argv[0] == "gpg" && argv[1] == "--show-keys") {
      auto content = fs_.read_file(argv[3]);
      r.started = true;
      r.exit_code = content ? 0 : 2;
      if (content)
        for (auto& fpr : fake_fingerprints(*content)) r.out += "pub:-:4096:1:X:1:::-:::scESC:\nfpr:::::::::" + fpr + ":\n";
      return r;
    }
    auto it = recorded_.find(joined(argv));
    if (it != recorded_.end()) return it->second;
    r.error = "not recorded";
    return r;
  }

 private:
  MemoryFileSystem& fs_;
  std::map<std::string, ProcessResult> recorded_;
};

// Every regular file under dir (recursively) with its content.
inline void collect_files(FileSystem& fs, const std::string& dir, std::map<std::string, std::string>& out) {
  auto names = fs.list_dir(dir);
  if (!names) return;
  for (auto& name : *names) {
    std::string path = path_join(dir, name);
    FileStat st = fs.stat(path);
    if (st.type == FileType::directory) collect_files(fs, path, out);
    else if (st.type == FileType::regular) out[path] = fs.read_file(path).value_or("<unreadable>");
  }
}
inline std::map<std::string, std::string> all_files(FileSystem& fs, const std::string& dir = "/") {
  std::map<std::string, std::string> out;
  collect_files(fs, dir, out);
  return out;
}

}  // namespace rocmdoc::test
