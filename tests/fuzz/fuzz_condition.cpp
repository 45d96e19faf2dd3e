// One condition, as a rule's `when:` gives it: parsed against the schema and
// every function (the matrix's too), and when it parses, evaluated on a
// fixture machine's facts with the step cap in place.
#include "fuzz_support.h"

#include "facts/facts_schema.h"
#include "rules/expression.h"

using namespace rocmdoc;

namespace {

const Json& fixture_facts() {
  // A small document with lists and unknowns, so quantifiers and paths
  // have something to walk.
  static const Json facts = [] {
    Json f = Json::parse(R"({
      "kernel": {"release": "6.8.0-45-generic", "version": [6, 8, 0], "cmdline": {"amdgpu": {"ppfeaturemask": "0xffffffff"}}},
      "distro": {"id": "ubuntu", "version_id": "24.04", "pretty_name": "Ubuntu 24.04.1 LTS"},
      "pci": {"gpus": [{"vendor": "amd", "address": "0000:03:00.0", "device_id": "0x744c"}, {"vendor": "intel", "address": {"unknown": "x"}}]},
      "kfd": {"gpus": [{"gfx": "gfx1100", "pci_address": "0000:03:00.0"}]},
      "target": {"rocm": "6.4.1"},
      "amdgpu": {"module": {"loaded": true}, "blacklisted": {"value": false}}
    })");
    return f;
  }();
  return facts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Knowledge& k = fuzz::builtin_knowledge();
  auto [which, text] = fuzz::select(data, size, 2);
  Vocabulary v;
  v.functions = &k.functions;
  v.is_fact = is_fact_path;
  ParseError error;
  // Selector 1: the condition of a for_each rule over kfd.gpus[].
  auto e = parse_expression(std::string(text), v, which == 1 ? "kfd.gpus[]" : "", &error);
  if (!e) return 0;
  EvalContext ctx(fixture_facts(), k.functions);
  if (which == 1) ctx.push_item(&fixture_facts()["kfd"]["gpus"][0]);
  (void)evaluate(**e, ctx);
  (void)referenced_paths(**e);
  (void)expanded_size(**e);
  return 0;
}
