#include <set>

#include "catch.h"
#include "rules/expression.h"

using namespace rocmdoc;

namespace {

struct Fixture {
  std::map<std::string, Function> functions = builtin_functions();
  Vocabulary vocabulary;
  Json facts = Json::parse(R"({
    "kernel": {"release": "6.8.0-45-generic", "flavour": {"unknown": "no file"}},
    "distro": {"id": "ubuntu", "version_id": "24.04", "codename": null},
    "kfd": {"gpus": [{"gfx": "gfx1100", "vram_bytes": 25753026560}, {"gfx": {"unknown": "no topology"}}]},
    "pci": {"gpus": [{"vendor": "amd"}, {"vendor": "nvidia"}]}
  })");
  Fixture() {
    vocabulary.functions = &functions;
    vocabulary.is_fact = [](const std::string& p) {
      static const std::set<std::string> known = {"kernel.release", "kernel.flavour", "distro.id", "distro.version_id",
                                                  "distro.codename", "kfd.gpus", "kfd.gpus[].gfx",
                                                  "kfd.gpus[].vram_bytes", "pci.gpus", "pci.gpus[].vendor"};
      return known.count(p) > 0;
    };
    vocabulary.lists["supported_ubuntu"] = Json::array({"22.04", "24.04"});
  }
  Value eval(const std::string& text) {
    ParseError err;
    auto e = parse_expression(text, vocabulary, "", &err);
    INFO(text << " -> " << err.message << " at " << err.column);
    REQUIRE(e.ok());
    EvalContext ctx(facts, functions);
    return evaluate(**e, ctx);
  }
  ParseError error_of(const std::string& text) {
    ParseError err;
    auto e = parse_expression(text, vocabulary, "", &err);
    REQUIRE_FALSE(e.ok());
    return err;
  }
};

}  // namespace

TEST_CASE("conditions compare facts, lists and versions", "[expression]") {
  Fixture f;
  CHECK(f.eval("distro.id == 'ubuntu'").is_true());
  CHECK(f.eval("distro.version_id in supported_ubuntu").is_true());
  CHECK(f.eval("distro.version_id not in ['20.04']").is_true());
  CHECK(f.eval("kernel.release >= '6.8' and kernel.release < '6.11'").is_true());
  CHECK(f.eval("version_in_series(kernel.release, '6.8')").is_true());
  CHECK(f.eval("'generic' in kernel.release").is_true());
  CHECK(f.eval("distro.codename == null").is_true());
  CHECK(f.eval("kfd.gpus[0].vram_bytes > 16000000000").is_true());
  CHECK(f.eval("any(pci.gpus, it.vendor == 'nvidia')").is_true());
  CHECK(f.eval("count(pci.gpus, it.vendor == 'amd')").json() == 1);
  CHECK(f.eval("not (distro.id == 'debian')").is_true());
}

TEST_CASE("unknown facts make comparisons unknown, with Kleene logic", "[expression]") {
  Fixture f;
  Value v = f.eval("kernel.flavour == 'generic'");
  CHECK(v.is_unknown());
  CHECK(v.why().find("no file") != std::string::npos);
  CHECK(f.eval("kernel.flavour == 'generic' or distro.id == 'ubuntu'").is_true());
  CHECK(f.eval("kernel.flavour == 'generic' and distro.id == 'debian'").is_false());
  CHECK(f.eval("kernel.flavour == 'generic' and distro.id == 'ubuntu'").is_unknown());
  CHECK(f.eval("not (kernel.flavour == 'generic')").is_unknown());
  CHECK(f.eval("any(kfd.gpus, it.gfx == 'gfx1030')").is_unknown());  // the second GPU might be
  CHECK(f.eval("any(kfd.gpus, it.gfx == 'gfx1100')").is_true());
  CHECK(f.eval("all(kfd.gpus, it.gfx == 'gfx1030')").is_false());
  CHECK(f.eval("known(kernel.flavour)").is_false());
  CHECK(f.eval("default(kernel.flavour, 'x') == 'x'").is_true());
  CHECK(f.eval("kfd.gpus[5].gfx == 'x'").is_unknown());
}

TEST_CASE("type mismatches are unknown, never a crash or a silent false", "[expression]") {
  Fixture f;
  CHECK(f.eval("distro.id and true").is_unknown());
  CHECK(f.eval("distro.id < 3").is_unknown());
  CHECK(f.eval("len(distro.id) == 6").is_true());
  CHECK(f.eval("'x' in 3").is_unknown());
}

TEST_CASE("join makes one text of a list of texts, and anything else is unknown", "[expression]") {
  Fixture f;
  CHECK(f.eval("join(['a', 'b', 'c'], ' or ') == 'a or b or c'").is_true());
  CHECK(f.eval("join([], ', ') == ''").is_true());
  CHECK(f.eval("join(distro.id, ', ')").is_unknown());
  CHECK(f.eval("join(['a', 3], ', ')").is_unknown());
  CHECK(f.eval("join(['a'], 3)").is_unknown());
}

TEST_CASE("parse errors name the problem and the column", "[expression]") {
  Fixture f;
  CHECK(f.error_of("kernel.relase == 'x'").message.find("unknown fact 'kernel.relase'") != std::string::npos);
  CHECK(f.error_of("kernel.release == 'x").message == "unterminated string");
  auto e = f.error_of("distro.id == 'a' and frob(distro.id)");
  CHECK(e.message == "unknown function 'frob'");
  CHECK(e.column == 22);
  CHECK(f.error_of("len(distro.id, 1)").message.find("takes 1 arguments") != std::string::npos);
  CHECK(f.error_of("kernel.release >= 6.8").message.find("write versions as strings") != std::string::npos);
  CHECK(f.error_of("distro.id ==").message == "expression ends too early");
  CHECK(f.error_of("it.gfx == 'x'").message.find("'it' is only bound") != std::string::npos);
  CHECK(f.error_of("any(kfd.gpus, it.gxf == 'x')").message.find("kfd.gpus[].gxf") != std::string::npos);
  CHECK(f.error_of(std::string(200, '(') + "true" + std::string(200, ')')).message.find("nested too deeply") !=
        std::string::npos);
  CHECK(f.error_of("distro.id $ 3").column == 11);
}

TEST_CASE("'each' is the for_each item, also inside a quantifier", "[expression]") {
  Fixture f;
  ParseError err;
  auto e = parse_expression("any(pci.gpus, it.vendor == 'amd' and each.gfx == 'gfx1100')", f.vocabulary, "kfd.gpus[]", &err);
  INFO(err.message);
  REQUIRE(e.ok());
  EvalContext ctx(f.facts, f.functions);
  ctx.push_item(&f.facts["kfd"]["gpus"][0]);
  CHECK(evaluate(**e, ctx).is_true());
  ctx.pop_item();
  ctx.push_item(&f.facts["kfd"]["gpus"][1]);
  CHECK(evaluate(**e, ctx).is_unknown());  // that GPU's gfx is unknown
  ctx.pop_item();
  CHECK_FALSE(parse_expression("each.gfx == 'x'", f.vocabulary, "", &err).ok());
  CHECK(err.message.find("'each' is only bound in a for_each rule") != std::string::npos);
  CHECK_FALSE(parse_expression("each.gxf == 'x'", f.vocabulary, "kfd.gpus[]", &err).ok());
}

TEST_CASE("a blank is named from the parsed expression: a path as written, a call by its function, default by its fact", "[expression]") {
  Fixture f;
  f.vocabulary.functions = &f.functions;
  auto subject = [&](const std::string& text) {
    ParseError err;
    auto e = parse_expression(text, f.vocabulary, "", &err);
    INFO(text << " -> " << err.message);
    REQUIRE(e.ok());
    return blank_subject(**e);
  };
  CHECK(subject("kfd.gpus[0].gfx") == "kfd.gpus[0].gfx");
  CHECK(subject("lower(distro.id)") == "lower");
  // default(x, ...) stands in for x, however it is spaced or nested.
  CHECK(subject("default(distro.codename, 'the codename')") == "distro.codename");
  CHECK(subject("default(  default(kernel.release,kernel.flavour) , 'x')") == "kernel.release");
  CHECK(subject("default(lower(distro.id), 'x')") == "lower");
  CHECK(subject("'a literal'") == "value");
}

TEST_CASE("override_target names the gfx target an HSA_OVERRIDE_GFX_VERSION value loads", "[expression]") {
  Fixture f;
  CHECK(f.eval("override_target('10.3.0')").json() == "gfx1030");
  CHECK(f.eval("override_target('11.0.0')").json() == "gfx1100");
  CHECK(f.eval("override_target('9.0.10')").json() == "gfx90a");
  CHECK(f.eval("override_target('11.5.1')").json() == "gfx1151");
  CHECK(f.eval("override_target('gfx1030')").json().is_null());
  CHECK(f.eval("override_target('10.3')").json().is_null());
  CHECK(f.eval("override_target('10.3.16')").json().is_null());
  CHECK(f.eval("override_target('')").json().is_null());
  CHECK(f.eval("override_target(kernel.flavour)").is_unknown());
}

// check's text names the kernel-log signatures a finding is about by the
// texts its condition compares with, inside a named list or a macro too.
TEST_CASE("referenced_texts lists the texts a condition compares with, its macros' and lists' too", "[expression]") {
  Fixture f;
  ParseError err;
  auto macro = parse_expression("kernel.release == 'from-macro'", f.vocabulary, "", &err);
  REQUIRE(macro.ok());
  f.vocabulary.macros["m"] = std::move(*macro);
  auto e = parse_expression("any(pci.gpus, it.vendor in ['a', 'b']) or distro.id in supported_ubuntu or m or "
                            "distro.id == 'a' or len(kfd.gpus) > 2",
                            f.vocabulary, "", &err);
  INFO(err.message);
  REQUIRE(e.ok());
  CHECK(referenced_texts(**e) == std::vector<std::string>{"a", "b", "22.04", "24.04", "from-macro"});
}
