// Shell completion scripts for bash, zsh and fish, generated from the App
// that parses the command line (app.h): commands, options, and option
// values by the value's name (DIR, FILE, ...). Finding ids for `fix ID` and
// releases for `--rocm X.Y.Z` are not baked in: the scripts ask the rocmdoc
// being completed (`rocmdoc completion --list fix-ids|rocm-releases`), so
// they include the problems of /etc/rocmdoc/rules.d and never go stale
// against the binary's own rules.
#pragma once

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

namespace rocmdoc {

// bash, zsh or fish; "" for another name.
std::string completion_script(const CLI::App& app, const std::string& shell);

// What a value of this option (or positional) completes to: "dir", "file",
// "fix-ids", "rocm-releases", "words:W1 W2 ..." or "" (anything).
std::string value_kind(const CLI::Option& option);

// rocmdoc completion SHELL, or the hidden --list WHAT.
int run_completion_command(const CLI::App& app, const std::string& shell, const std::string& list, std::ostream& out,
                           std::ostream& err);

}  // namespace rocmdoc
