#include "cli/command_output.h"

#include "cli/exit_codes.h"
#include "platform/atomic_file.h"

namespace rocmdoc {

int emit_document(const std::string& text, const std::string& output_file, std::ostream& out, std::ostream& err) {
  if (output_file.empty()) {
    out << text;
    return kExitOk;
  }
  auto written = write_file_atomically(output_file, text);
  if (!written) {
    err << "rocmdoc: " << written.error() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace rocmdoc
