// AMD's apt repositories as this machine's apt sees them: the sources
// (one-line and deb822 formats) and the pins that prefer AMD's packages.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/probe.h"

namespace rocmdoc {

// repo.radeon.com (ROCm's install guides) and repo.amd.com (the packages
// of ROCm 7.x, "TheRock"), over any scheme.
bool is_amd_repository_uri(std::string_view uri);

// One "deb [options] uri suite components" line of sources.list(5).
// A line commented out ("# deb ...") parses with enabled = false; a
// comment that is not an entry, or a broken line, gives nullopt.
struct OneLineSource {
  bool enabled = true;
  std::string type;  // "deb" or "deb-src"
  std::vector<std::string> options;  // "arch=amd64", "signed-by=/etc/apt/keyrings/rocm.gpg"
  std::string uri;
  std::string suite;
  std::vector<std::string> components;
  std::string option(std::string_view key) const;  // "" when absent
};
std::optional<OneLineSource> parse_one_line_source(std::string_view line);

// The AMD entries of one file, as facts (file, line, format, type, uri,
// suite, components, enabled, signed_by).
Json amd_sources_in_one_line_file(const std::string& file, std::string_view text);
Json amd_sources_in_deb822_file(const std::string& file, std::string_view text);
// The stanzas of one preferences file whose Pin names AMD's repository.
Json amd_pins_in_preferences_file(const std::string& file, std::string_view text);

// Sets "apt_sources" and "apt_pins" in `section`.
void probe_rocm_apt(ProbeContext& ctx, Json& section);

}  // namespace rocmdoc
