// The few fields of a `rocmdoc check --json` report (docs/check-json.md)
// that a fleet summary needs, read without building the whole document:
// a report is ~20-60 KB, nearly all of it facts no summary shows, and a
// fleet is thousands of them. The reader still checks that the whole
// text is JSON, so a truncated or corrupt file is refused, not half read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace rocmdoc {

struct ReportFinding {
  std::string id, severity, title;
};
struct ReportGpu {
  std::string name, gfx;
};

struct CheckReportFields {
  std::string hostname;      // facts.host.hostname; empty when unknown
  std::string collected_at;  // facts.source.collected_at (UTC, ISO 8601); empty when absent
  std::string rocm;          // target.installed; empty when none is installed or it is unknown
  std::string kernel;        // facts.kernel.release; empty when unknown
  std::vector<ReportFinding> findings;
  std::vector<ReportGpu> gpus;  // facts.gpus
};

// Errors say what is wrong and where ("not JSON: byte 1234: ...", "schema
// 2 is not supported").
Result<CheckReportFields> read_check_report(std::string_view text);

}  // namespace rocmdoc
