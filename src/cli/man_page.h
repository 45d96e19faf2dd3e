// Man pages in troff, generated from the App that parses the command line
// (app.h): rocmdoc(1), and rocmdoc-COMMAND(1) for each command and
// subcommand a user sees (rocmdoc-rules-lint(1) ...). The build writes them
// with the hidden `rocmdoc help-man DIR`.
#pragma once

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace rocmdoc {

struct ManPage {
  std::string file;  // rocmdoc-check.1
  std::string text;  // troff (man macros), ASCII only
};

std::vector<ManPage> man_pages(const CLI::App& app);

// Text for troff: backslashes, minus signs, leading dots and every
// non-ASCII character escaped (so groff needs no input encoding).
std::string roff_escape(const std::string& text);

// Writes every page into dir (atomically, each), exit 0, or says which file
// could not be written, exit 2.
int run_help_man_command(const CLI::App& app, const std::string& dir, std::ostream& err);

}  // namespace rocmdoc
