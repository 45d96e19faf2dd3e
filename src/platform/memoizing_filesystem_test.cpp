#include "platform/memoizing_filesystem.h"

#include <filesystem>
#include <fstream>

#include "catch.h"
#include "platform/host_filesystem.h"
#include "memory_filesystem.h"
#include "test_support.h"

using namespace rocmdoc;

namespace {

// A memory machine that counts what reaches it.
class CountingFileSystem : public MemoryFileSystem {
 public:
  FileStat stat(const std::string& path) override {
    ++stats;
    return MemoryFileSystem::stat(path);
  }
  Result<std::string> read_link(const std::string& path) override {
    ++links;
    return MemoryFileSystem::read_link(path);
  }
  Result<std::vector<std::string>> list_dir(const std::string& path) override {
    ++listings;
    return MemoryFileSystem::list_dir(path);
  }
  Result<std::string> read_file(const std::string& path, size_t max_bytes) override {
    ++reads;
    return MemoryFileSystem::read_file(path, max_bytes);
  }
  int stats = 0, links = 0, listings = 0, reads = 0;
};

}  // namespace

TEST_CASE("memoizing filesystem: each question reaches the machine once, with the machine's answer",
          "[filesystem]") {
  CountingFileSystem machine;
  machine.file("/root/.pyenv/shims/python3", "#!/usr/bin/env bash\nexec pyenv\n")
      .file("/usr/bin/python3.12", "")
      .symlink("/usr/bin/python3", "python3.12")
      .fail("/root/secret", "permission denied");
  MemoizingFileSystem memo(machine);
  for (int i = 0; i < 3; ++i) {
    CHECK(memo.stat("/root/.pyenv/pyvenv.cfg").type == FileType::missing);
    CHECK(memo.stat("/root/secret").error == "permission denied");
    CHECK(*memo.resolve("/usr/bin/python3") == "/usr/bin/python3.12");
    CHECK(memo.stat_follow("/usr/bin/python3").type == FileType::regular);
    CHECK(*memo.list_dir("/usr/bin") == std::vector<std::string>{"python3", "python3.12"});
    CHECK(*memo.list_dir_starting_with("/usr/bin", "python3.") == std::vector<std::string>{"python3.12"});
    CHECK(memo.list_dir("/nope").error() == machine.list_dir("/nope").error());
    CHECK(*memo.read_file("/root/.pyenv/shims/python3") == "#!/usr/bin/env bash\nexec pyenv\n");
  }
  int stats = machine.stats, links = machine.links;
  CHECK(machine.links == 1);
  memo.resolve("/usr/bin/python3");
  memo.stat("/root/secret");
  CHECK(machine.stats == stats);
  CHECK(machine.links == links);
  CHECK(machine.reads == 3);  // contents are not kept
  // A new collection sees the machine as it is now.
  machine.file("/root/.pyenv/pyvenv.cfg", "version = 3.12\n");
  CHECK(memo.stat("/root/.pyenv/pyvenv.cfg").type == FileType::missing);
  CHECK(MemoizingFileSystem(machine).stat("/root/.pyenv/pyvenv.cfg").type == FileType::regular);
}

TEST_CASE("memoizing filesystem: over the host, links resolve and prefix listings filter as the host's do",
          "[filesystem]") {
  test::ScratchDir scratch;
  std::string dir = scratch.path.string();
  std::filesystem::create_directories(dir + "/usr/bin");
  std::ofstream(dir + "/usr/bin/python3.11") << "";
  std::filesystem::create_symlink("python3.11", dir + "/usr/bin/python3");
  std::filesystem::create_symlink("usr/bin", dir + "/bin");
  HostFileSystem host(dir);
  MemoizingFileSystem memo(host);
  for (int i = 0; i < 2; ++i) {
    CHECK(*memo.resolve("/bin/python3") == "/usr/bin/python3.11");
    CHECK(*memo.resolve("/usr/bin/python3.11") == "/usr/bin/python3.11");
    CHECK(*memo.list_dir_starting_with("/bin", "python3") == std::vector<std::string>{"python3", "python3.11"});
    CHECK(memo.stat("/bin").type == FileType::symlink);
  }
}
