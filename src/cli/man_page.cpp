#include "cli/man_page.h"

#include <filesystem>

#include <fmt/format.h>

#include "base/build_info.h"
#include "cli/app.h"
#include "cli/exit_codes.h"
#include "platform/atomic_file.h"

namespace rocmdoc {

namespace {

// The next UTF-8 code point of s at i (advancing i); a stray byte is taken
// as itself, so bad input still gives ASCII output.
unsigned next_code_point(const std::string& s, size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i++]);
  int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  unsigned cp = more == 3 ? c & 0x07 : more == 2 ? c & 0x0F : more == 1 ? c & 0x1F : c;
  for (; more > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80; --more)
    cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
  return cp;
}

std::string page_name(const CLI::App& cmd) {
  std::string path = command_path(cmd);
  for (char& c : path)
    if (c == ' ') c = '-';
  return path;
}

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

// "-v, --verbose" in bold, and the value's name in italics.
std::string option_label(const CLI::Option& o) {
  std::string names;
  for (auto& s : o.get_snames()) names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff_escape("-" + s) + "\\fR";
  for (auto& l : o.get_lnames()) names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff_escape("--" + l) + "\\fR";
  if (o.get_items_expected_max() != 0 && !o.get_type_name().empty()) names += " \\fI" + roff_escape(o.get_type_name()) + "\\fR";
  return names;
}

std::string positional_label(const CLI::Option& o) {
  return "\\fI" + roff_escape(o.get_type_name().empty() ? upper(o.get_name()) : o.get_type_name()) + "\\fR" +
         (o.get_expected_max() > 1 ? "..." : "");
}

// The description's first sentence, for NAME (what whatis and apropos show).
std::string summary(std::string text) {
  if (text.rfind("rocmdoc: ", 0) == 0) text = text.substr(9);
  size_t stop = text.find(". ");
  return stop == std::string::npos ? text : text.substr(0, stop);
}

// A footer as its parts: the examples (lines under "Examples:"), the exit
// codes ("Exit codes: ...") and anything else.
struct Footer {
  std::vector<std::string> examples, exit_status, other;
};
Footer split_footer(const std::string& footer) {
  Footer f;
  bool in_examples = false;
  size_t start = 0;
  while (start <= footer.size() && !footer.empty()) {
    size_t end = footer.find('\n', start);
    std::string line = footer.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line == "Examples:") in_examples = true;
    else if (line.rfind("Exit codes:", 0) == 0) {
      in_examples = false;
      f.exit_status.push_back(line.substr(line.find_first_not_of(' ', 11)));
    } else if (in_examples && line.rfind("  ", 0) == 0) f.examples.push_back(line.substr(2));
    else if (!line.empty()) {
      in_examples = false;
      f.other.push_back(line);
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return f;
}

std::string page(const CLI::App& cmd, const CLI::App& root) {
  bool top = &cmd == &root;
  std::string name = page_name(cmd);
  std::string out = fmt::format(".TH \"{}\" \"1\" \"\" \"rocmdoc {}\" \"rocmdoc manual\"\n", roff_escape(upper(name)),
                                roff_escape(rocmdoc_version()));
  out += ".SH NAME\n" + roff_escape(name) + " \\- " + roff_escape(summary(cmd.get_description())) + "\n";

  auto subs = visible_subcommands(cmd);
  std::vector<const CLI::Option*> options, positionals;
  for (const CLI::Option* o : visible_options(cmd)) (o->get_positional() ? positionals : options).push_back(o);
  out += ".SH SYNOPSIS\n\\fB" + roff_escape(command_path(cmd)) + "\\fR";
  if (!subs.empty()) out += " \\fICOMMAND\\fR";
  if (!options.empty()) out += " [\\fIOPTIONS\\fR]";
  for (auto* p : positionals)
    out += " " + (p->get_required() ? positional_label(*p) : "[" + positional_label(*p) + "]");
  out += "\n.SH DESCRIPTION\n" + roff_escape(cmd.get_description()) + "\n";

  if (!subs.empty()) {
    out += ".SH COMMANDS\n";
    for (auto* s : subs)
      out += ".TP\n\\fB" + roff_escape(s->get_name()) + "\\fR\n" + roff_escape(s->get_description()) + "; see \\fB" +
             roff_escape(page_name(*s)) + "\\fR(1).\n";
  }
  if (!positionals.empty()) {
    out += ".SH ARGUMENTS\n";
    for (auto* p : positionals) out += ".TP\n" + positional_label(*p) + "\n" + roff_escape(p->get_description()) + "\n";
  }
  if (!options.empty()) {
    out += ".SH OPTIONS\n";
    for (auto* o : options) out += ".TP\n" + option_label(*o) + "\n" + roff_escape(o->get_description()) + "\n";
  }
  Footer footer = split_footer(cmd.get_footer());
  if (!footer.examples.empty()) {
    out += ".SH EXAMPLES\n.nf\n.RS\n";
    for (auto& e : footer.examples) out += roff_escape(e) + "\n";
    out += ".RE\n.fi\n";
  }
  for (auto& o : footer.other) out += ".PP\n" + roff_escape(o) + "\n";
  if (!footer.exit_status.empty()) {
    out += ".SH EXIT STATUS\n";
    for (auto& e : footer.exit_status) out += roff_escape(e) + "\n";
  }
  if (top) {
    out += ".SH FILES\n.TP\n\\fI/etc/rocmdoc/rules.d/\\fR\n" +
           roff_escape("Local rules: every *.yaml below it extends the built-in catalogue, and a problem with the id "
                       "of a built-in one replaces it. Run as root, rocmdoc reads it only if root alone can write it.") +
           "\n";
  }
  out += ".SH SEE ALSO\n";
  std::vector<std::string> see;
  if (!top) see.push_back(page_name(*cmd.get_parent()));
  for (auto* s : subs) see.push_back(page_name(*s));
  for (size_t i = 0; i < see.size(); ++i) out += "\\fB" + roff_escape(see[i]) + "\\fR(1)" + (i + 1 < see.size() ? ",\n" : "\n");
  if (see.empty()) out += "\\fBrocmdoc\\fR(1)\n";
  return out;
}

void collect(const CLI::App& cmd, const CLI::App& root, std::vector<ManPage>& pages) {
  pages.push_back({page_name(cmd) + ".1", page(cmd, root)});
  for (auto* s : visible_subcommands(cmd)) collect(*s, root, pages);
}

}  // namespace

std::string roff_escape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    unsigned cp = next_code_point(text, i);
    if (cp == '\\') out += "\\e";
    else if (cp == '-') out += "\\-";
    else if (cp == '\n') out += "\n";
    else if ((cp == '.' || cp == '\'') && (out.empty() || out.back() == '\n')) out += std::string("\\&") + char(cp);
    else if (cp < 0x80) out += static_cast<char>(cp);
    else out += fmt::format("\\[u{:04X}]", cp);
  }
  return out;
}

std::vector<ManPage> man_pages(const CLI::App& app) {
  std::vector<ManPage> pages;
  collect(app, app, pages);
  return pages;
}

int run_help_man_command(const CLI::App& app, const std::string& dir, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    err << "rocmdoc help-man: " << dir << ": not a directory\n";
    return kExitUsage;
  }
  for (auto& p : man_pages(app)) {
    auto written = write_file_atomically((std::filesystem::path(dir) / p.file).string(), p.text);
    if (!written) {
      err << "rocmdoc help-man: " << written.error() << "\n";
      return kExitUsage;
    }
  }
  return kExitOk;
}

}  // namespace rocmdoc
