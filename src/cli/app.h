// The command line's one definition: every command, option and help text.
// The program parses with it, and the man pages and shell completions are
// generated from it (man_page.h, completion.h), so none of them can drift
// from `--help`.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "cli/cli_options.h"
#include "cli/commands.h"
#include "cli/fix_command.h"
#include "cli/fleet_command.h"
#include "cli/health_check_command.h"
#include "cli/install_command.h"

namespace rocmdoc {

// The shells `rocmdoc completion` writes for.
inline const std::vector<std::string> kCompletionShells{"bash", "zsh", "fish"};
// The values of `install --from`: AMD's repositories, the distribution's own packages.
inline const std::vector<std::string> kInstallSources{"amd", "distro"};

// Where the parsed options land: one member per command, and the command's
// App so main can tell which was given.
struct Invocation {
  // --color of whichever command ran: auto, always or never (terminal_habits.h).
  std::string color = "auto";
  struct Facts {
    MachineOptions machine;
    std::string output;
    std::string format = "json";  // json or ansible
    CLI::App* app = nullptr;
  } facts;
  struct Snapshot {
    MachineOptions machine;
    SnapshotOptions options;
    CLI::App* app = nullptr;
  } snapshot;
  struct Check {
    MachineOptions machine;
    CheckOptions options;
    HealthCheckOptions health;
    CLI::App* app = nullptr;
  } check;
  struct Explain {
    MachineOptions machine;
    ExplainOptions options;
    std::vector<std::string> words;
    bool run = false;
    CLI::App* app = nullptr;
  } explain;
  struct Fix {
    MachineOptions machine;
    FixOptions options;
    CLI::App* app = nullptr;
  } fix;
  struct Install {
    MachineOptions machine;
    InstallCommandOptions options;
    CLI::App* app = nullptr;
  } install;
  struct Report {
    MachineOptions machine;
    ReportOptions options;
    CLI::App* app = nullptr;
  } report;
  struct Rules {
    std::string lint_dir, test_dir, patterns_dir, info_dir;
    bool info_json = false;
    CLI::App *lint = nullptr, *test = nullptr, *patterns = nullptr, *info = nullptr;
  } rules;
  struct Fleet {
    FleetMergeOptions options;
    CLI::App* merge = nullptr;
  } fleet;
  struct Completion {
    std::string shell;  // bash, zsh or fish
    std::string list;   // hidden: --list fix-ids|rocm-releases, what a script asks at Tab
    CLI::App* app = nullptr;
  } completion;
  struct HelpMan {
    std::string dir;    // hidden: write the man pages into DIR (the build does)
    CLI::App* app = nullptr;
  } help_man;
};

// Defines every command on `app`, binding each option to `inv` (which must
// outlive the parse).
void define_app(CLI::App& app, Invocation& inv);

// The commands a user sees: hidden ones (group "") are left out, so the
// generators walk exactly what `--help` lists.
std::vector<const CLI::App*> visible_subcommands(const CLI::App& app);
std::vector<const CLI::Option*> visible_options(const CLI::App& app);

// "rocmdoc rules lint" for a subcommand, "rocmdoc" for the App itself.
std::string command_path(const CLI::App& app);

}  // namespace rocmdoc
