// Run as root, rocmdoc reads only rules that root alone can change, as sudo
// reads sudoers: a rules file or directory another user could write is
// refused, naming the path and the fix.
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "catch.h"
#include "rules/knowledge.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

constexpr uid_t kNobody = 65534;

// A --rules directory: a copy of the built-in matrix and catalogue.
fs::path make_rules(const fs::path& dir) {
  fs::create_directories(dir);
  fs::copy(source_path("rules/matrix"), dir / "matrix");
  fs::copy(source_path("rules/catalogue"), dir / "catalogue");
  for (auto& e : fs::recursive_directory_iterator(dir))
    ::chmod(e.path().c_str(), e.is_directory() ? 0755 : 0644);
  ::chmod(dir.c_str(), 0755);
  return dir;
}

}  // namespace

TEST_CASE("as root, rules another user could write are refused with the path and the fix", "[cli][rules][root]") {
  if (::geteuid() != 0) {
    WARN("not root: the ownership checks apply only to root, nothing to test here");
    return;
  }
  ScratchDir scratch;
  fs::path dir = make_rules(scratch.path / "rules");
  fs::path file = dir / "catalogue/access.yaml";
  REQUIRE(run_rocmdoc({"rules", "lint", dir.string()}).exit_code == 0);

  SECTION("a world-writable rules directory") {
    ::chmod(dir.c_str(), 0777);
    auto lint = run_rocmdoc({"rules", "lint", dir.string()});
    CHECK(lint.exit_code == 2);
    CHECK(lint.err.find(dir.string() + ": writable by everyone (mode 0777)") != std::string::npos);
    CHECK(lint.err.find("chmod go-w " + dir.string()) != std::string::npos);
    auto check = run_rocmdoc({"check", "--rules", dir.string(), "--root", machine_root("ubuntu2404-rx7900xtx")});
    CHECK(check.exit_code == 2);
    CHECK(check.out.empty());
  }
  SECTION("a group-writable file") {
    ::chmod(file.c_str(), 0664);
    auto lint = run_rocmdoc({"rules", "lint", dir.string()});
    CHECK(lint.exit_code == 2);
    CHECK(lint.err.find(file.string() + ": writable by its group (mode 0664)") != std::string::npos);
  }
  SECTION("a file owned by another user") {
    REQUIRE(::chown(file.c_str(), kNobody, 0) == 0);
    auto lint = run_rocmdoc({"rules", "lint", dir.string()});
    CHECK(lint.exit_code == 2);
    CHECK(lint.err.find(file.string() + ": owned by uid 65534") != std::string::npos);
    CHECK(lint.err.find("chown root:root " + file.string()) != std::string::npos);
  }
  SECTION("a subdirectory another user owns") {
    REQUIRE(::chown((dir / "catalogue").c_str(), kNobody, kNobody) == 0);
    auto lint = run_rocmdoc({"rules", "lint", dir.string()});
    CHECK(lint.exit_code == 2);
    CHECK(lint.err.find((dir / "catalogue").string() + ": owned by uid 65534") != std::string::npos);
  }
  SECTION("a directory above it that another user could replace it in") {
    fs::path parent = scratch.path / "open";
    fs::create_directories(parent);
    fs::path inner = make_rules(parent / "rules");
    ::chmod(parent.c_str(), 0777);
    auto lint = run_rocmdoc({"rules", "lint", inner.string()});
    CHECK(lint.exit_code == 2);
    CHECK(lint.err.find(parent.string() + ": writable by everyone") != std::string::npos);
    ::chmod(parent.c_str(), 01777);  // sticky, as /tmp: nobody else can rename root's folder
    CHECK(run_rocmdoc({"rules", "lint", inner.string()}).exit_code == 0);
  }
  SECTION("a rules.d directory that everyone can write") {
    fs::path local = scratch.path / "rules.d";
    fs::create_directories(local);
    std::ofstream(local / "x.yaml") << "problems: []\n";
    ::chmod((local / "x.yaml").c_str(), 0644);
    ::chmod(local.c_str(), 0777);
    RuleSources sources;
    sources.local_rules_dir = local.string();
    Knowledge k = load_knowledge(sources);
    REQUIRE_FALSE(k.errors.empty());
    CHECK(k.errors[0].str().find(local.string() + ": writable by everyone (mode 0777)") != std::string::npos);
    ::chmod(local.c_str(), 0755);
    CHECK(load_knowledge(sources).errors.empty());
  }
}
