// check's reading of the kernel log: the catalogue's signatures that opt in
// (`scan_kernel_log: true`) matched over this boot's kernel_log.lines, so a
// problem's `when` can read what explain would find in the same lines
// (docs/facts.md, "Derived sections"). Only those few patterns are
// compiled; check never compiles the rest.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/fact.h"
#include "rules/signature.h"

namespace rocmdoc {

class KernelLogSignatures {
 public:
  explicit KernelLogSignatures(const std::vector<Signature>& signatures);
  ~KernelLogSignatures();
  KernelLogSignatures(const KernelLogSignatures&) = delete;
  KernelLogSignatures& operator=(const KernelLogSignatures&) = delete;

  // "<id>: <RE2's complaint>" for the first pattern that does not compile.
  const std::string& error() const { return error_; }
  const std::vector<std::string>& ids() const { return ids_; }

  // Sets kernel_log.matched (the ids that matched a line, in catalogue
  // order) and kernel_log.signatures ({id, lines: the first few, count}).
  // Where the lines are unknown both are unknown with the same reason; a
  // wholly unknown kernel_log section stays as it is (its paths read as
  // unknown with its reason), and a document without one gets nothing.
  void add_facts(Json& facts) const;

  static constexpr size_t kEvidenceLines = 5;

 private:
  struct Compiled;
  std::vector<std::string> ids_;
  std::unique_ptr<Compiled> compiled_;
  std::string error_;
};

}  // namespace rocmdoc
