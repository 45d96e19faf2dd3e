// A command's one document: to standard output, or with -o FILE written
// atomically (src/platform/atomic_file.h), so facts and its ansible form say
// the same thing about a file they could not write.
#pragma once

#include <ostream>
#include <string>

namespace rocmdoc {

// 0 when written; 2 with the reason on err when FILE could not be.
int emit_document(const std::string& text, const std::string& output_file, std::ostream& out, std::ostream& err);

}  // namespace rocmdoc
