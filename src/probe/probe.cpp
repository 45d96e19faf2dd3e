#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

const std::vector<ProbeDefinition>& probe_catalogue() {
  // Order matters: pci before amdgpu, kfd, access, firmware and power, which
  // build on its device list; kernel before kernel_log, whose reason for a
  // refused dmesg reads kernel.dmesg_restrict.
  static const std::vector<ProbeDefinition> probes = {
      {"host", probe_host},
      {"distro", probe_distro},
      {"kernel", probe_kernel},
      {"platform", probe_platform},
      {"pci", probe_pci},
      {"amdgpu", probe_amdgpu},
      {"kfd", probe_kfd},
      {"access", probe_access},
      {"firmware", probe_firmware},
      {"power", probe_power},
      {"rocm", probe_rocm},
      {"python", probe_python},
      {"env", probe_env},
      {"kernel_log", probe_kernel_log},
      // Last: it runs what the sections before it found (torch's
      // interpreters, ROCm's tools), as the user access names.
      {"deep", probe_deep},
  };
  return probes;
}

DpkgDatabase& ProbeContext::dpkg() {
  if (!dpkg_) {
    own_dpkg_ = std::make_unique<DpkgDatabase>(fs());
    dpkg_ = own_dpkg_.get();
  }
  return *dpkg_;
}

ProcessResult ProbeContext::run_tool(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  auto started = std::chrono::steady_clock::now();
  ProcessResult r = machine_.runner->run(argv, timeout);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  Json entry = Json::object();
  entry["argv"] = argv;
  entry["started"] = r.started;
  if (r.started && !r.timed_out) entry["exit_code"] = r.exit_code;
  if (r.timed_out) entry["timed_out"] = true;
  if (!r.error.empty()) entry["error"] = r.error;
  if (machine_.live) entry["ms"] = ms;
  commands_run_.push_back(entry);
  return r;
}

Json ProbeContext::read_text_fact(const std::string& path) {
  auto text = fs().read_file(path, 1 << 20);
  if (!text) return unknown(text.error());
  if (looks_binary(*text)) return unknown(path + ": binary content, not text");
  std::string value = trim(*text);
  if (value.empty()) return unknown(path + ": empty");
  return value;
}

Json ProbeContext::read_integer_fact(const std::string& path) {
  Json text = read_text_fact(path);
  if (is_unknown(text)) return text;
  auto value = parse_int(text.get<std::string>());
  if (!value) return unknown(path + ": not a number: " + quote_for_reason(text.get<std::string>()));
  return *value;
}

}  // namespace rocmdoc
