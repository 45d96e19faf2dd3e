// Loading a recorded machine: the tree, plus its sidecar (snapshot) or the
// cmd/ folder beside it (capture-machine.sh). Private to src/machine.
#pragma once

#include <string_view>

#include "machine/machine.h"

namespace rocmdoc {

// The largest sidecar and capture file read (a real sidecar is ~100 KB with
// a kernel log, a capture's files a few KB), and the sidecar's nesting (4).
constexpr size_t kMaxSidecarBytes = 64u << 20;
constexpr size_t kMaxCaptureFileBytes = 16u << 20;
constexpr unsigned kMaxSidecarDepth = 64;

// abs_root: an absolute, resolved directory other than "/".
Result<std::unique_ptr<Machine>> load_recording(const std::string& abs_root);

// A snapshot's sidecar (.rocmdoc/machine.json) applied to m: user,
// environment, recorded node owners and modes (into nodes), and command
// outputs. The failure names the field ("user.uid: missing"). Never throws.
std::optional<std::string> apply_sidecar_text(Machine& m, std::string_view text, std::map<std::string, FileStat>& nodes);

// Parsers for the capture format, exposed for tests.
// `id` output: "uid=1000(ann) gid=1000(ann) groups=1000(ann),44(video)".
std::optional<UserIdentity> parse_id_output(const std::string& text);
// `ls -la` output of device nodes and plain files (directories and links are
// skipped); owner and group names are mapped to ids through name_to_uid /
// name_to_gid ("root" is 0 without them; other unmapped names are skipped).
std::map<std::string, FileStat> parse_ls_listing(const std::string& text,
                                                        const std::map<std::string, uint32_t>& name_to_uid,
                                                        const std::map<std::string, uint32_t>& name_to_gid);

}  // namespace rocmdoc
