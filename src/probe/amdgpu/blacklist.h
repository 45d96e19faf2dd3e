// Whether amdgpu is kept from loading: `blacklist amdgpu` or an
// `install amdgpu /bin/false` (or /bin/true) line in modprobe's
// configuration, or modprobe.blacklist= / module_blacklist= on the kernel
// command line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probe/probe.h"

namespace rocmdoc {

// The line numbers (1-based) of one modprobe.d file's lines that keep
// `module` from loading. Continuation lines (ending in '\') count as the
// line they start on; '-' and '_' in module names are the same, as in kmod.
std::vector<int> modprobe_lines_blocking(std::string_view conf_text, const std::string& module);

// True when /proc/cmdline's text names `module` in modprobe.blacklist= or
// module_blacklist=.
bool cmdline_blacklists(std::string_view cmdline, const std::string& module);

// {"value": bool or unknown, "sources": ["/etc/modprobe.d/x.conf:3", "kernel command line"]}
Json amdgpu_blacklist_fact(ProbeContext& ctx);

}  // namespace rocmdoc
