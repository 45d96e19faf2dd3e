#include "catch.h"
#include <filesystem>
#include <fstream>
#include <stdlib.h>

#include "platform/host_filesystem.h"
#include "platform/memoizing_filesystem.h"
#include "memory_filesystem.h"
#include "test_support.h"

using namespace rocmdoc;

TEST_CASE("paths normalise and split the way the kernel's do", "[filesystem]") {
  CHECK(path_normalize("/sys/bus/pci/devices/../../../devices/x") == "/sys/devices/x");
  CHECK(path_normalize("//a/./b/") == "/a/b");
  CHECK(path_normalize("/..") == "/");
  CHECK(path_dirname("/a/b") == "/a");
  CHECK(path_dirname("/a") == "/");
  CHECK(path_basename("/a/b") == "b");
  CHECK(path_join("/a", "b") == "/a/b");
  CHECK(path_join("/a", "/b") == "/b");
}

TEST_CASE("resolve follows relative and absolute links inside the machine", "[filesystem]") {
  MemoryFileSystem fs;
  fs.file("/sys/devices/pci0000:00/0000:00:01.0/vendor", "0x1002\n");
  fs.symlink("/sys/bus/pci/devices/0000:00:01.0", "../../../devices/pci0000:00/0000:00:01.0");
  fs.symlink("/abs", "/sys/bus/pci/devices/0000:00:01.0");
  CHECK(*fs.resolve("/sys/bus/pci/devices/0000:00:01.0/vendor") == "/sys/devices/pci0000:00/0000:00:01.0/vendor");
  CHECK(*fs.resolve("/abs") == "/sys/devices/pci0000:00/0000:00:01.0");
  CHECK(*fs.read_file("/abs/vendor") == "0x1002\n");
}

TEST_CASE("resolve reports loops and missing parts instead of hanging", "[filesystem]") {
  MemoryFileSystem fs;
  fs.symlink("/a", "/b");
  fs.symlink("/b", "/a");
  auto r = fs.resolve("/a/x");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("too many levels") != std::string::npos);
  auto missing = fs.resolve("/nope/x");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().find("no such file") != std::string::npos);
}

TEST_CASE("memory filesystem reports injected failures with their reason", "[filesystem]") {
  MemoryFileSystem fs;
  fs.file("/etc/group", "render:x:992:\n").fail("/etc/group", "permission denied");
  auto r = fs.read_file("/etc/group");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == "/etc/group: permission denied");
  CHECK(fs.stat("/etc/group").error == "permission denied");
}

TEST_CASE("read_file refuses files over the limit instead of cutting them", "[filesystem]") {
  MemoryFileSystem fs;
  fs.file("/big", std::string(100, 'x'));
  CHECK_FALSE(fs.read_file("/big", 99).ok());
  CHECK(fs.read_file("/big", 100).ok());
}

TEST_CASE("the host filesystem reads whole files of any size, and refuses one byte over the limit", "[filesystem]") {
  test::ScratchDir scratch;
  std::string dir = scratch.path.string();
  HostFileSystem fs(dir);
  auto write = [&](const std::string& name, const std::string& content) {
    std::ofstream(dir + "/" + name, std::ios::binary) << content;
  };
  std::string big(3 * 1024 * 1024 + 17, 'x');
  for (size_t i = 0; i < big.size(); i += 4096) big[i] = static_cast<char>('a' + (i / 4096) % 26);
  write("big", big);
  write("empty", "");
  write("limit", std::string(100, 'y'));
  CHECK(*fs.read_file("/big") == big);
  CHECK(fs.read_file("/empty")->empty());
  CHECK(fs.read_file("/limit", 100)->size() == 100);
  auto over = fs.read_file("/limit", 99);
  REQUIRE_FALSE(over.ok());
  CHECK(over.error() == "/limit: larger than 99 bytes");
  // /proc files say their size is 0, whatever they hold.
  HostFileSystem live("/");
  auto status = live.read_file("/proc/self/status");
  REQUIRE(status.ok());
  CHECK(status->find("Name:") == 0);
  CHECK(status->size() > 100);
}

TEST_CASE("list_dir_starting_with gives list_dir's names that start with the prefix, sorted, on every filesystem",
          "[filesystem]") {
  test::ScratchDir scratch;
  std::string dir = scratch.path.string();
  std::filesystem::create_directories(dir + "/bin");
  for (const char* name : {"python3.12", "python3", "pip3", "python", "python3.9", "ls", "python3-config"})
    std::ofstream(dir + "/bin/" + name) << "";
  MemoryFileSystem memory;
  for (const char* name : {"python3.12", "python3", "pip3", "python", "python3.9", "ls", "python3-config"})
    memory.file(std::string("/bin/") + name, "");
  HostFileSystem host(dir);
  for (FileSystem* fs : {static_cast<FileSystem*>(&host), static_cast<FileSystem*>(&memory)}) {
    CHECK(*fs->list_dir_starting_with("/bin", "python3") ==
          std::vector<std::string>{"python3", "python3-config", "python3.12", "python3.9"});
    CHECK(*fs->list_dir_starting_with("/bin", "python3.") == std::vector<std::string>{"python3.12", "python3.9"});
    CHECK(*fs->list_dir_starting_with("/bin", "") == *fs->list_dir("/bin"));
    CHECK(fs->list_dir_starting_with("/bin", "ruby")->empty());
    auto missing = fs->list_dir_starting_with("/nope", "python3");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error() == fs->list_dir("/nope").error());
  }
}
