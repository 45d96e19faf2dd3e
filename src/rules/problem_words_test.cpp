#include "rules/problem_words.h"

#include "catch.h"

using namespace rocmdoc;

namespace {

Problem problem(const std::string& id, const std::string& title, const std::string& why,
                std::vector<std::string> signals = {}, bool benign = false) {
  Problem p;
  p.rule.id = id;
  p.rule.title.text = title;
  p.rule.why.text = why;
  p.benign = benign;
  for (auto& s : signals) p.signals.push_back({s, 3, {}});
  return p;
}

}  // namespace

TEST_CASE("a text's words: lower case, whole identifiers, no punctuation or common words", "[problem-words]") {
  auto w = words_of("ImportError: libamdhip64.so.6: cannot open shared object file. The GPU gfx1100, again...");
  CHECK(w == std::vector<std::string>{"importerror", "libamdhip64.so.6", "open", "shared", "object", "file", "gpu",
                                      "gfx1100", "again"});
  CHECK(words_of("an of to 42 _x -- it").empty());  // short, not starting with a letter, or common
}

TEST_CASE("a pattern's words are its literal text", "[problem-words]") {
  CHECK(words_of(pattern_literals(R"(Cannot read (?P<path>\S+)/TensileLibrary\.dat\b)")) ==
        std::vector<std::string>{"read", "tensilelibrary.dat"});
  CHECK(words_of(pattern_literals(R"((?i)hip(?:Error)?NoBinary[A-Za-z]{0,9}ForGpu)")) ==
        std::vector<std::string>{"hip", "nobinary", "forgpu"});
}

TEST_CASE("a text resembles the problems whose words it shares", "[problem-words]") {
  std::vector<Signature> sigs(1);
  sigs[0].id = "tensile";
  sigs[0].pattern = R"(Cannot read \S+TensileLibrary\.dat)";
  sigs[0].example_words = "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file\n";
  std::vector<Problem> problems{
      problem("rocblas-tensile-missing", "rocBLAS has no kernels for {text.gfx}", "rocBLAS reads its Tensile kernels",
              {"tensile"}),
      problem("kfd-permission", "{user} cannot open /dev/kfd", "the render group owns /dev/kfd"),
      problem("benign-noise", "rocBLAS tensile kernels noise", "rocBLAS tensile", {}, true)};
  ProblemWords words(problems, sigs);

  auto tensile = words.closest("my app says it cannot find TensileLibrary.dat of rocblas", 3);
  REQUIRE(tensile.size() == 1);  // the benign problem shares the words too, and is never offered
  CHECK(tensile[0].problem->rule.id == "rocblas-tensile-missing");
  CHECK(tensile[0].score > ProblemWords::kMinScore);
  CHECK(tensile[0].shared.size() >= 2);

  auto kfd = words.closest("user is not in the render group, kfd refuses", 3);
  REQUIRE(!kfd.empty());
  CHECK(kfd[0].problem->rule.id == "kfd-permission");

  CHECK(words.closest("hello world", 3).empty());
  CHECK(words.closest("", 3).empty());
  // A placeholder is not a word of the problem: "text.gfx" and "user" match nothing.
  CHECK(words.closest("text.gfx user", 3).empty());
  // One shared word is not a likeness.
  CHECK(words.closest("rocblas", 3).empty());
}
