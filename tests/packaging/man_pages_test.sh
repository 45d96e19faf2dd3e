#!/bin/bash
# The man pages the build generated (cmake/generated_docs.cmake) against the
# binary's --help: a page for each command --help lists (and no other), each
# page's options exactly the command's --help options, and groff's and
# man's warnings (what lintian's manpage check runs) silent.
#
#   man_pages_test.sh ROCMDOC_BINARY MAN_DIR
set -euo pipefail
BINARY=${1:?usage: man_pages_test.sh ROCMDOC_BINARY MAN_DIR}
MAN_DIR=${2:?usage: man_pages_test.sh ROCMDOC_BINARY MAN_DIR}
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v man >/dev/null || { echo "SKIP: man (man-db) is not installed"; exit 77; }

# The options of `rocmdoc PATH --help`: lines indented by two spaces that
# start with a dash ("  -v,--verbose  ..."), each name on its own line.
help_options() { "$BINARY" "$@" --help | sed -n '/^Options:/,/^$/p' | grep -E '^  -' | awk '{ print $1 }' | tr ',' '\n' | sort; }
# The subcommands --help lists, under "Subcommands:".
help_commands() { "$BINARY" "$@" --help | sed -n '/^Subcommands:/,/^$/p' | grep -E '^  [a-z]' | awk '{ print $1 }'; }
# The options a page's OPTIONS section names in bold after each .TP.
page_options() {
  sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$1" | awk 'prev == ".TP" { print } { prev = $0 }' |
    grep -o '\\fB[^\\]*\(\\-[^\\]*\)*\\fR' | sed -e 's/\\fB//' -e 's/\\fR//' -e 's/\\-/-/g' | sort
}

expected=$(mktemp)
trap 'rm -f "$expected"' EXIT
walk() {  # the command path: its page, then its subcommands'
  local name=rocmdoc
  [ $# -gt 0 ] && name="rocmdoc-$(echo "$*" | tr ' ' '-')"
  echo "$name.1" >>"$expected"
  local page=$MAN_DIR/$name.1
  [ -s "$page" ] || fail "no man page $page for 'rocmdoc $*'"
  diff <(help_options "$@") <(page_options "$page") >/dev/null ||
    fail "$name.1 lists other options than 'rocmdoc $* --help': $(diff <(help_options "$@") <(page_options "$page") | grep '^[<>]' | tr '\n' ' ')"
  [ "$(help_options "$@" | wc -l)" -gt 0 ] || fail "no options parsed from 'rocmdoc $* --help'"
  # What lintian runs (its manpages check): man's and groff's warnings.
  warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "$name.1: $warnings"
  grep -q '^\.SH NAME' "$page" && sed -n '/^\.SH NAME/{n;p}' "$page" | grep -q "^$(echo "$name" | sed 's/-/\\\\-/g') \\\\- ." ||
    fail "$name.1: NAME is not 'name \\- summary' (whatis reads it)"
  local sub
  for sub in $(help_commands "$@"); do walk "$@" "$sub"; done
}
walk
diff <(sort "$expected") <(cd "$MAN_DIR" && ls -- *.1 | sort) >/dev/null ||
  fail "pages without a command, or commands without a page: $(diff <(sort "$expected") <(cd "$MAN_DIR" && ls -- *.1 | sort) | grep '^[<>]' | tr '\n' ' ')"
for page in "$MAN_DIR"/*.1; do
  [ -s "$page.gz" ] && cmp -s "$page" <(gzip -dc "$page.gz") || fail "$page.gz is not $page compressed"
done
echo "passed: $(wc -l <"$expected") man pages, each with its command's --help options, no warnings"
