// A log as explain reads it: fed to the line scanner in two pieces (where
// the second byte says, so lines split across reads are covered), then
// explained on no facts (--no-probe) and rendered.
#include "fuzz_support.h"

#include "explain/explanation.h"
#include "explain/log_scanner.h"
#include "output/explain_output.h"

using namespace rocmdoc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Knowledge& k = fuzz::builtin_knowledge();
  std::string_view text = fuzz::as_text(data, size);
  size_t cut = size == 0 ? 0 : static_cast<size_t>(data[0]) * size / 256;
  LogScanner scanner(k.catalogue.signatures, k.catalogue.origins);
  scanner.set_source("fuzz.log");
  scanner.feed(text.substr(0, cut));
  scanner.feed(text.substr(cut));
  scanner.finish();
  Explanation e = explain(scanner.result(), Json::object(), k);
  ExplainTextOptions o;
  (void)render_explain_text(e, o);
  (void)render_explain_json(e, "");
  return 0;
}
