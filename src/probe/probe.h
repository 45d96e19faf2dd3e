// A probe reads one area of the machine and returns its facts as one JSON
// object. Probes read only through ProbeContext (the machine's files, its
// tools, its user and environment), never the host directly.
//
// Contract: a probe never throws for a machine's content and never guesses.
// Whatever it cannot read becomes unknown("<why>") in its place; the
// collector turns an unexpected exception into an unknown section too.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/fact.h"
#include "machine/machine.h"
#include "probe/dpkg_database.h"

namespace rocmdoc {

struct ProbeOptions {
  // Extra interpreters or virtual environments to inspect (--python PATH).
  std::vector<std::string> python_paths;
  // rocmdoc check --deep: run the workloads (probe/deep/deep.h). Off, the
  // deep section is unknown and nothing is run.
  bool deep = false;
  std::chrono::milliseconds deep_timeout{20000};  // each command's (--deep-timeout)
};

class ProbeContext {
 public:
  // fs: where the probe reads the machine's files; the machine's own when
  // null (collect_facts passes one that remembers answers for the run).
  // dpkg: the collection's package database, shared by its probes; when
  // null the context reads one of its own through fs.
  ProbeContext(Machine& machine, const ProbeOptions& options, FileSystem* fs = nullptr, DpkgDatabase* dpkg = nullptr)
      : machine_(machine), options_(options), fs_(fs ? fs : machine.fs.get()), dpkg_(dpkg) {}

  FileSystem& fs() { return *fs_; }
  DpkgDatabase& dpkg();
  Machine& machine() { return machine_; }
  const ProbeOptions& options() const { return options_; }

  // Runs a tool with a timeout and records that it was run (the facts
  // document lists every command, as design.md asks).
  ProcessResult run_tool(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);
  const Json& commands_run() const { return commands_run_; }

  // A file's contents trimmed, or unknown("<path>: <why>"); binary content
  // and empty files are unknown too.
  Json read_text_fact(const std::string& path);

  // A file holding one integer, as sysfs writes them ("%d\n"), or
  // unknown("<path>: not a number: ..."), as read_text_fact for the rest.
  Json read_integer_fact(const std::string& path);

 private:
  Machine& machine_;
  const ProbeOptions& options_;
  FileSystem* fs_;
  DpkgDatabase* dpkg_;
  std::unique_ptr<DpkgDatabase> own_dpkg_;
  Json commands_run_ = Json::array();
};

// Earlier probes' sections are passed in (`facts`), so that a later probe
// can build on them (kfd correlates with pci) without reading twice.
using ProbeFunction = Json (*)(ProbeContext& ctx, const Json& facts);

struct ProbeDefinition {
  const char* name;  // the section name in the facts document
  ProbeFunction run;
};

// All probes, in the order they run.
const std::vector<ProbeDefinition>& probe_catalogue();

// The probes themselves, one file each under src/probe/.
Json probe_host(ProbeContext&, const Json&);
Json probe_distro(ProbeContext&, const Json&);
Json probe_kernel(ProbeContext&, const Json&);
Json probe_platform(ProbeContext&, const Json&);
Json probe_pci(ProbeContext&, const Json&);
Json probe_amdgpu(ProbeContext&, const Json&);
Json probe_kfd(ProbeContext&, const Json&);
Json probe_access(ProbeContext&, const Json&);
Json probe_firmware(ProbeContext&, const Json&);
Json probe_power(ProbeContext&, const Json&);
Json probe_rocm(ProbeContext&, const Json&);
Json probe_python(ProbeContext&, const Json&);
Json probe_env(ProbeContext&, const Json&);
Json probe_kernel_log(ProbeContext&, const Json&);
Json probe_deep(ProbeContext&, const Json&);

}  // namespace rocmdoc
