// Test helper: recorded outputs for the deep probe's workloads, so tests
// never run a real Python or rocminfo.
#pragma once

#include <string>

#include "probe/deep/deep.h"
#include "probe_test_support.h"

namespace rocmdoc::test {

// What the script prints when it finishes: its result line after any noise.
inline ProcessResult deep_script_output(const Json& result, std::string err = "", int exit_code = 0) {
  ProcessResult r;
  r.started = true;
  r.exit_code = exit_code;
  r.out = "\n" + std::string(kDeepResultMarker) + result.dump() + "\n";
  r.err = std::move(err);
  return r;
}

// torch imported and every device ran the op.
inline Json deep_torch_ok(const std::string& name = "AMD Radeon RX 7900 XTX", const std::string& arch = "gfx1100") {
  return {{"imported", true},    {"version", "2.5.1+rocm6.2"}, {"hip", "6.2.41133"}, {"is_available", true},
          {"device_count", 1},   {"devices", Json::array({{{"index", 0}, {"name", name}, {"arch", arch}, {"op_ok", true}}})}};
}


inline ProcessResult timed_out_output(const std::string& program, long ms = 20000) {
  ProcessResult r;
  r.started = true;
  r.timed_out = true;
  r.error = program + ": timed out after " + std::to_string(ms) + " ms";
  return r;
}

}  // namespace rocmdoc::test
