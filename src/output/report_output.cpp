#include "output/report_output.h"
#include "base/json_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "base/text.h"
#include "facts/facts_document.h"
#include "output/explain_output.h"
#include "output/text_report.h"

namespace rocmdoc {

namespace {

std::string scrubbed(const MarkdownReportOptions& o, const std::string& text) {
  return o.scrub ? o.scrub(text) : text;
}

// One line of a fact for the versions block: its value, or why it is unknown.
std::string fact_text(const Json& v) {
  if (is_unknown(v)) return "unknown (" + unknown_reason(v) + ")";
  if (v.is_null()) return "none";
  if (v.is_string()) return v.get<std::string>();
  return json_text(v);
}

const Json& at(const Json& j, std::initializer_list<const char*> path) {
  const Json* node = &j;
  for (const char* key : path) node = &field(*node, key);
  return *node;
}

int severity_rank(const std::string& s) { return s == "error" ? 0 : s == "warning" ? 1 : 2; }

// As check's text marks them.
const char* severity_mark(const std::string& s) { return s == "error" ? "✗" : s == "warning" ? "!" : "•"; }

// The finding a reader must see first: the first error, else the first
// warning, else the first info (findings come in check's area order).
const Json* worst_finding(const Json& findings) {
  const Json* worst = nullptr;
  if (!findings.is_array()) return nullptr;
  for (auto& f : findings)
    if (!worst || severity_rank(fact_text(field(f, "severity"))) < severity_rank(fact_text(field(*worst, "severity"))))
      worst = &f;
  return worst;
}

std::string title_line(const Json& check, const MarkdownReportOptions& o) {
  const Json* worst = worst_finding(field(check, "findings"));
  if (!worst) return "# rocmdoc report: no problems found\n";
  std::string severity = fact_text(field(*worst, "severity"));
  return fmt::format("# rocmdoc report: {} {}: {}\n", severity_mark(severity),
                     markdown_escaped(fact_text(field(*worst, "id"))),
                     markdown_escaped(scrubbed(o, fact_text(field(*worst, "title")))));
}

std::string summary_line(const Json& check) {
  const Json& s = field(check, "summary");
  auto count = [&](const char* key, const char* one, const char* many) {
    const Json& n = field(s, key);
    long v = n.is_number_integer() ? n.get<long>() : 0;
    return fmt::format("{} {}", v, v == 1 ? one : many);
  };
  return count("errors", "error", "errors") + ", " + count("warnings", "warning", "warnings") + ", " +
         count("infos", "info", "infos") + ", " + count("not_checked", "check", "checks") + " that could not be made";
}

// A finding in full: everything from the machine in one fenced block.
std::string finding_section(const Json& f, size_t number, const MarkdownReportOptions& o) {
  std::string severity = fact_text(field(f, "severity"));
  std::string out = fmt::format("### {}. {} {} {}: {}\n\n", number, severity_mark(severity), severity,
                                markdown_escaped(fact_text(field(f, "id"))),
                                markdown_escaped(scrubbed(o, fact_text(field(f, "title")))));
  std::string body = "area: " + fact_text(field(f, "area")) + "\n";
  const Json& also = field(f, "also");
  if (also.is_array())
    for (auto& place : also) body += "also: " + fact_text(field(place, "title")) + "\n";
  body += "why: " + fact_text(field(f, "why")) + "\n";
  // With several places, each one's evidence under its title.
  bool places = also.is_array() && !also.empty();
  auto evidence_lines = [&](const Json& evidence, const std::string& title) {
    if (!evidence.is_object() || evidence.empty()) return;
    body += places ? "evidence for \"" + title + "\":\n" : "evidence:\n";
    for (auto& [path, value] : evidence.items()) body += "  " + path + " = " + json_text(value) + "\n";
  };
  evidence_lines(field(f, "evidence"), fact_text(field(f, "title")));
  if (places)
    for (auto& place : also) evidence_lines(field(place, "evidence"), fact_text(field(place, "title")));
  const Json& fix = field(f, "fix");
  const Json& steps = field(fix, "steps");
  if (steps.is_array() && !steps.empty()) {
    body += "fix:\n";
    size_t n = 0;
    for (auto& step : steps) {
      body += fmt::format("  {}. {}\n", ++n, fact_text(field(step, "text")));
      const Json& argv = field(step, "argv");
      if (argv.is_array() && !argv.empty()) {
        std::vector<std::string> words;
        for (auto& w : argv) words.push_back(fact_text(w));
        body += "     $ " + shell_words(words, field(step, "sudo").is_boolean() && field(step, "sudo").get<bool>()) + "\n";
      }
    }
  }
  std::vector<std::string> then;
  if (field(fix, "relogin") == true) then.push_back("log out and in again");
  if (field(fix, "reboot") == true) then.push_back("reboot");
  if (!then.empty()) body += "then: " + fmt::format("{}", fmt::join(then, ", then ")) + "\n";
  const Json& verify = field(fix, "verify");
  if (verify.is_array() && !verify.empty()) {
    std::vector<std::string> words;
    for (auto& w : verify) words.push_back(fact_text(w));
    body += "check: $ " + shell_words(words, false) + "\n";
  }
  const Json& sources = field(f, "sources");
  if (sources.is_array())
    for (auto& s : sources) body += "source: " + fact_text(s) + "\n";
  body += "rule: " + fact_text(field(f, "rule_file")) + "\n";
  return out + markdown_fenced(scrubbed(o, body)) + "\n";
}

std::string versions_block(const MarkdownReportInput& in, const MarkdownReportOptions& o) {
  const Json& facts = field(in.check, "facts");
  const Json& target = field(in.check, "target");
  std::string body;
  auto row = [&](const char* name, const std::string& value) { body += fmt::format("{:<14}{}\n", name, value); };
  row("rocmdoc", in.rocmdoc_version);
  row("matrix as of", in.matrix_as_of);
  row("kernel", fact_text(at(facts, {"kernel", "release"})));
  const Json& distro = field(facts, "distro");
  row("distro", is_unknown(distro) ? fact_text(distro) : fact_text(field(distro, "pretty_name")));
  row("platform", fact_text(at(facts, {"platform", "kind"})));
  std::string own = distribution_rocm(facts);
  row("ROCm", (own.empty() ? fact_text(field(target, "installed")) + " installed" : own) + "; checked against " +
                  fact_text(field(target, "rocm")) + " (" + fact_text(field(target, "chosen_by")) + ")");
  const Json& torch = at(facts, {"python", "torch"});
  if (!torch.is_array()) row("torch", fact_text(torch));
  else if (torch.empty()) row("torch", "none found");
  for (auto& t : torch.is_array() ? torch : Json::array()) {
    std::string hip = field(t, "hip").is_string() ? ", HIP " + fact_text(field(t, "hip")) : "";
    row("torch", fact_text(field(t, "version")) + " (" + fact_text(field(t, "build")) + hip + ") in " +
                     fact_text(field(t, "site_packages")));
  }
  const Json& gpus = field(facts, "gpus");
  for (auto& g : gpus.is_array() ? gpus : Json::array())
    row("GPU", fact_text(field(g, "address")) + " " + fact_text(field(g, "name")) + " (" + fact_text(field(g, "gfx")) + ")");
  return "## Versions\n\n" + markdown_fenced(scrubbed(o, body)) + "\n";
}

// The note a cut value leaves in the facts.
std::string cut_note(size_t size) {
  return fmt::format("[cut by rocmdoc report to fit the comment limit: {} characters; `rocmdoc facts` prints it]", size);
}

size_t dumped_size(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace).size(); }

// Replaces the value whose removal frees at least `excess` characters with
// the least loss: from the top, into the largest child while that child's
// own largest child would still be enough (at most four levels, so the
// note names a section or one of its arrays). Records the cut's path.
// False when nothing larger than its note is left to cut.
bool cut_largest(Json& facts, size_t excess, std::vector<std::string>& cut) {
  Json* node = &facts;
  std::string path;
  for (int depth = 0;; ++depth) {
    Json* largest = nullptr;
    std::string largest_path;
    size_t largest_size = 0;
    if (node->is_object()) {
      for (auto& [key, value] : node->items()) {
        size_t size = dumped_size(value);
        if (size > largest_size) largest = &value, largest_size = size, largest_path = path.empty() ? key : path + "." + key;
      }
    } else if (node->is_array()) {
      for (size_t i = 0; i < node->size(); ++i) {
        size_t size = dumped_size((*node)[i]);
        if (size > largest_size) largest = &(*node)[i], largest_size = size, largest_path = fmt::format("{}[{}]", path, i);
      }
    }
    if (!largest || largest_size <= cut_note(largest_size).size() + 2) return false;
    bool descend = depth < 3 && (largest->is_object() || largest->is_array()) && !largest->empty();
    if (descend) {
      size_t child_max = 0;
      if (largest->is_object())
        for (auto& [key, value] : largest->items()) child_max = std::max(child_max, dumped_size(value));
      else
        for (auto& value : *largest) child_max = std::max(child_max, dumped_size(value));
      descend = child_max > excess + cut_note(child_max).size() && child_max > cut_note(child_max).size() + 2;
    }
    if (!descend) {
      *largest = cut_note(largest_size);
      cut.push_back(largest_path);
      return true;
    }
    node = largest;
    path = largest_path;
  }
}

std::string facts_section(const std::string& facts_text, const std::vector<std::string>& cut, bool whole_cut) {
  std::string out = "## Facts\n\n";
  if (whole_cut) {
    out += "> **Shortened:** the facts document was left out whole to stay under GitHub's 65,536-character comment "
           "limit. `rocmdoc facts -o facts.json` writes it; attach that file.\n";
    return out;
  }
  if (!cut.empty()) {
    std::vector<std::string> names;
    for (auto& c : cut) names.push_back(markdown_escaped(c));
    out += fmt::format(
        "> **Shortened:** to stay under GitHub's 65,536-character comment limit, these were cut from the facts below "
        "(each replaced by a note): {}. `rocmdoc facts` prints the whole document (`rocmdoc facts -o facts.json` to "
        "attach it).\n\n",
        fmt::join(names, ", "));
  }
  out += "<details><summary>The facts document (<code>rocmdoc facts</code>)</summary>\n\n";
  out += markdown_fenced(facts_text, "json");
  out += "\n</details>\n";
  return out;
}

std::string explain_section(const std::string& log_name, const std::string& text, const std::string& note) {
  if (log_name.empty()) return "";
  std::string out = "## Explain: " + markdown_escaped(log_name) + "\n\n";
  if (!note.empty()) out += note + "\n\n";
  return out + markdown_fenced(text) + "\n";
}

// The head of `text` that fits `budget` bytes, cut at a line end and never
// inside a UTF-8 sequence.
std::string head_of(const std::string& text, size_t budget) {
  if (text.size() <= budget) return text;
  size_t end = text.rfind('\n', budget);
  if (end == std::string::npos || end == 0) {
    end = budget;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return text.substr(0, end) + "\n";
  }
  return text.substr(0, end + 1);
}

}  // namespace

std::string markdown_fenced(std::string_view text, std::string_view info) {
  std::string body;
  for (auto& line : split_lines(text)) body += printable(line) + "\n";
  size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  return fence + std::string(info) + "\n" + body + fence + "\n";
}

std::string markdown_escaped(std::string_view text) {
  // What starts emphasis, code, a link, an image, HTML, an entity, a table
  // cell, strike-through, an autolink ("http:", "www." needs the colon or
  // nothing), an issue reference (#12) or a mention (@name) inside a line.
  // '.', '-' and '+' matter only at a line's start, where this text never is.
  constexpr std::string_view kSpecial = "\\`*_{}[]()#!|<>~&:@";
  std::string out;
  for (char c : printable(text)) {
    if (c == '\t') c = ' ';
    if (kSpecial.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string render_report_markdown(const MarkdownReportInput& in, const MarkdownReportOptions& o) {
  const Json& findings = field(in.check, "findings");
  std::string head = title_line(in.check, o) + "\n";
  head += fmt::format("rocmdoc {}, matrix as of {}: {}.\n\n", markdown_escaped(in.rocmdoc_version),
                      markdown_escaped(in.matrix_as_of), summary_line(in.check));
  head += "## `rocmdoc check`\n\n" + markdown_fenced(scrubbed(o, in.check_text)) + "\n";
  if (findings.is_array() && !findings.empty()) {
    head += "## Findings\n\n";
    size_t n = 0;
    for (auto& f : findings) head += finding_section(f, ++n, o);
  }
  std::string versions = versions_block(in, o);
  std::string explain_text = scrubbed(o, in.explain_text);
  std::string footer = "\n---\nMade by `rocmdoc report`" +
                       std::string(o.scrub ? "; host name, user names, home paths and secret-looking values replaced "
                                             "(`--no-redact` keeps them)."
                                           : " with `--no-redact`: nothing was replaced.") +
                       "\n";

  Json facts = field(in.check, "facts");
  std::vector<std::string> cut;
  bool whole_cut = false;
  auto facts_text = [&] { return scrubbed(o, facts_to_string(facts)); };
  std::string rendered_facts = facts_section(facts_text(), cut, false);
  auto total = [&](const std::string& facts_part, const std::string& explain_part) {
    return head.size() + explain_part.size() + versions.size() + facts_part.size() + footer.size();
  };
  std::string log_name = scrubbed(o, in.log_name);
  std::string explain_part = explain_section(log_name, explain_text, "");
  // The facts give way first, a value at a time, largest first.
  while (total(rendered_facts, explain_part) > o.limit && !whole_cut) {
    size_t excess = total(rendered_facts, explain_part) - o.limit;
    if (!cut_largest(facts, excess, cut)) whole_cut = true;
    rendered_facts = facts_section(whole_cut ? "" : facts_text(), cut, whole_cut);
  }
  // Then the explanation, from its end; the findings are never cut.
  if (total(rendered_facts, explain_part) > o.limit && !log_name.empty()) {
    std::string note = fmt::format(
        "> **Shortened:** the explanation is cut to stay under GitHub's 65,536-character comment limit (it has {} "
        "characters); `rocmdoc explain -f {}` prints it whole.",
        explain_text.size(), markdown_escaped(log_name));
    size_t fixed = total(rendered_facts, explain_section(log_name, "", note));
    size_t budget = fixed < o.limit ? o.limit - fixed : 0;
    // Fencing may still add a little (a longer fence, U+FFFD for a stray
    // byte): take off what overflows until it fits.
    for (;;) {
      explain_part = explain_section(log_name, head_of(explain_text, budget), note);
      size_t size = total(rendered_facts, explain_part);
      if (size <= o.limit || budget == 0) break;
      size_t over = size - o.limit;
      budget = budget > over + 64 ? budget - over - 64 : 0;
    }
  }
  return head + explain_part + versions + rendered_facts + footer;
}

}  // namespace rocmdoc
