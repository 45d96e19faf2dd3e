// The kernel log's own format, as the kernel_log probe reads it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

// /dev/kmsg records ("6,339,5140900,-;amdgpu: ...") as the lines dmesg
// prints for them ("[    5.140900] amdgpu: ..."); dictionary lines and
// malformed records are left out, and so are those whose message `keep`
// rejects (when given): a boot log has thousands, the probe wants a few.
std::vector<std::string> kmsg_records_as_dmesg_lines(std::string_view records,
                                                     bool (*keep)(std::string_view message) = nullptr);

}  // namespace rocmdoc
