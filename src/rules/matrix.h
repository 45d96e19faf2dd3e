// The compatibility matrix (rules/matrix/*.yaml): ROCm releases, GPUs,
// PyTorch wheels and HSA overrides, as data with sources, an as-of date and
// confidence. Conditions query it through functions (add_functions), so
// rules stay declarative.
//
// An empty list in the matrix means "not known", never "unsupported": the
// queries answer unknown ("the matrix has no GPU list for ROCm 7.2.4") there.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rules/expression.h"
#include "rules/rule_loader.h"
#include "formats/yaml_tree.h"

namespace rocmdoc {

class Matrix {
 public:
  // files: the rules/matrix/*.yaml files. Errors carry file:line:column.
  static Matrix load(const std::vector<RuleFile>& files, std::vector<LoadError>& errors);

  const std::string& as_of() const { return as_of_; }
  Json releases() const;  // every release entry, converted: for the installer, not per rule

  Json device(const std::string& device_id) const;     // entry, or null when not listed
  Json gfx_target(const std::string& gfx) const;       // entry, or null
  Json release(const std::string& version) const;      // exact version ("6.4.1"), or null
  // "supported", "deprecated", "unsupported", "not_listed", or unknown.
  Value gpu_support(const std::string& version, const std::string& gfx) const;
  Value distro_support(const std::string& version, const std::string& distro, const std::string& version_id) const;
  // True when the kernel is in a series the release lists for that distro.
  Value kernel_support(const std::string& version, const std::string& distro, const std::string& version_id,
                       const std::string& kernel_release) const;
  // Production releases whose GPU list names gfx as supported/deprecated, oldest first.
  Json releases_for_gfx(const std::string& gfx) const;
  // The newest production release listing gfx (supported or deprecated) and
  // the distribution; null when none does.
  Json newest_release_for(const std::string& gfx, const std::string& distro, const std::string& version_id) const;
  // The entry with the best reported outcome for gfx, or null.
  Json hsa_override(const std::string& gfx) const;
  // The reported outcome of one value on gfx, or null when nobody reported it.
  Json hsa_override_reported(const std::string& gfx, const std::string& value) const;
  // Whether the ROCm wheel of torch_version ("2.5.1+rocm6.2") was built for
  // gfx: from the wheel's gfx list, or its list of known-absent targets;
  // unknown where the matrix has neither.
  Value torch_wheel_has_gfx(const std::string& torch_version, const std::string& gfx) const;
  Json wheels() const;

  void add_functions(std::map<std::string, Function>& functions) const;

 private:
  // The parsed matrix files; the entries below point into them.
  std::vector<std::shared_ptr<const YamlTree>> trees_;
  std::string as_of_;
  std::vector<const YamlNode*> releases_;
  std::map<std::string, const YamlNode*> devices_;      // by lower-case PCI device id
  std::map<std::string, const YamlNode*> gfx_targets_;
  std::map<std::string, const YamlNode*> overrides_;    // best reported entry per gfx
  std::vector<const YamlNode*> override_reports_;       // every entry
  std::vector<const YamlNode*> wheels_;
  void add_override(const YamlNode& o);
  const YamlNode* release_node(const std::string& version) const;
};

}  // namespace rocmdoc
