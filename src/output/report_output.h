// `rocmdoc report`: one Markdown document to paste into a GitHub issue or a
// forum post (docs/report.md). It is made of check's JSON report (its
// findings never cut), explain's text for a log, the versions and the facts
// in a collapsed block, and it stays under GitHub's comment limit by
// shortening the facts first and the explanation second.
//
// Everything that came from the machine or the log is put in fenced code
// blocks (a fence longer than any backtick run inside) with its control
// characters neutralised, so a hostile log cannot close a block, inject
// HTML or a link; what stands outside a block is escaped.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/fact.h"

namespace rocmdoc {

struct MarkdownReportInput {
  Json check;                   // render_json_report: summary, target, findings, not_checked, facts
  std::string check_text;       // render_text_report without colour: check as a person reads it
  std::string explain_text;     // render_explain_text for the log; empty without one
  std::string log_name;         // the log's path as given
  std::string rocmdoc_version;
  std::string matrix_as_of;
};

struct MarkdownReportOptions {
  // Applied to every piece of machine or log text before it is placed and
  // measured (the redaction); null keeps the text.
  std::function<std::string(const std::string&)> scrub;
  // GitHub refuses a comment of 65,536 characters or more; a byte is never
  // fewer characters than it encodes, so bytes are counted.
  size_t limit = 65535;
};

std::string render_report_markdown(const MarkdownReportInput& input, const MarkdownReportOptions& options);

// `text` as a fenced code block: control characters (but tab and newline)
// shown as '?', invalid UTF-8 as U+FFFD, and a fence of more backticks than
// the longest run inside (at least three).
std::string markdown_fenced(std::string_view text, std::string_view info = "text");

// `text` for a heading or a line: one line, controls as '?', and every
// character that could start Markdown inside a line (emphasis, code, links,
// HTML, autolinks, mentions) escaped with a backslash, CommonMark's way of
// taking it literally.
std::string markdown_escaped(std::string_view text);

}  // namespace rocmdoc
