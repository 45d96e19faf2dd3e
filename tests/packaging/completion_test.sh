#!/bin/bash
# The shell completions the build generated (cmake/generated_docs.cmake),
# driven by the shells themselves:
#   bash: the script sourced in a bash subprocess, COMP_WORDS/COMP_CWORD set
#         as readline sets them, _rocmdoc called, COMPREPLY read;
#   fish: `complete -C LINE`, fish's own answer for a typed line;
#   zsh:  `zsh -n` (the script parses).
# Finding ids and releases are asked of the binary at Tab time; they are
# checked against the catalogue and the matrix read here with awk.
#
#   completion_test.sh ROCMDOC_BINARY COMPLETIONS_DIR SOURCE_DIR
set -euo pipefail
BINARY=${1:?usage: completion_test.sh ROCMDOC_BINARY COMPLETIONS_DIR SOURCE_DIR}
DIR=$(cd "${2:?usage}" && pwd)
SOURCE=$(cd "${3:?usage}" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
for shell in bash zsh fish; do
  command -v $shell >/dev/null || { echo "SKIP: $shell is not installed (packaging/build-deps.txt)"; exit 77; }
done
# The scripts run `rocmdoc` from the line typed: this build's.
BIN_DIR=$(mktemp -d)
trap 'rm -rf "$BIN_DIR"' EXIT
ln -s "$(cd "$(dirname "$BINARY")" && pwd)/$(basename "$BINARY")" "$BIN_DIR/rocmdoc"
export PATH=$BIN_DIR:$PATH

# The problems of rules/catalogue and the releases of rules/matrix, read
# without rocmdoc.
CATALOGUE_IDS=$(awk 'FNR == 1 { p = 0 } /^problems:/ { p = 1 } p && /^  - id:/ { print $3 }' "$SOURCE"/rules/catalogue/*.yaml | sort -u)
RELEASES=$(awk '/^- version:/ { gsub(/"/, "", $3); print $3 }' "$SOURCE"/rules/matrix/rocm-releases.yaml | sort -u)
[ "$(echo "$CATALOGUE_IDS" | wc -l)" -gt 100 ] || fail "awk found few problem ids in rules/catalogue"
[ "$(echo "$RELEASES" | wc -l)" -gt 10 ] || fail "awk found few releases in rules/matrix"

# ---------------------------------------------------------------- bash
# bash_complete WORD...: the completions bash offers when the last WORD is
# being typed ('' for a new word after a space), one per line, sorted.
bash_complete() {
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _rocmdoc rocmdoc "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
    printf "%s\n" "${COMPREPLY[@]}"' _ "$DIR/rocmdoc.bash" "$@" | sed '/^$/d' | sort
}
expect() {  # what, expected (lines), actual (lines)
  [ "$2" = "$3" ] || fail "$1: expected [$(echo $2)], got [$(echo $3)]"
}
contains() {  # what, word, actual
  grep -qx -- "$2" <<<"$3" || fail "$1: $2 is not among [$(echo $3 | head -c 400)]"
}
lacks() {
  grep -qx -- "$2" <<<"$3" && fail "$1: $2 should not be offered"
  return 0
}

expect "rocmdoc ch<Tab>" check "$(bash_complete rocmdoc ch)"
top=$(bash_complete rocmdoc '')
for c in facts snapshot check explain fix install rules completion; do contains "rocmdoc <Tab>" $c "$top"; done
lacks "rocmdoc <Tab>" help-man "$top"
expect "rocmdoc check --r<Tab>" "$(printf -- '--rocm\n--root\n--rules')" "$(bash_complete rocmdoc check --r)"
expect "rocmdoc rules <Tab>" "$(printf 'info\nlint\npatterns\ntest')" "$(bash_complete rocmdoc rules '')"
expect "rocmdoc rules info --<Tab>" "$(printf -- '--help\n--json')" "$(bash_complete rocmdoc rules info --)"
expect "rocmdoc completion <Tab>" "$(printf 'bash\nfish\nzsh')" "$(bash_complete rocmdoc completion '')"
# A value is not a command: --root's value 'rules' leaves the path at check.
expect "rocmdoc check --root rules --j<Tab>" "--json" "$(bash_complete rocmdoc check --root rules --j)"
expect "rocmdoc fix <Tab>" "$CATALOGUE_IDS" "$(bash_complete rocmdoc fix '')"
expect "rocmdoc fix --dry-run device-node-<Tab>" "$(grep '^device-node-' <<<"$CATALOGUE_IDS")" \
  "$(bash_complete rocmdoc fix --dry-run device-node-)"
expect "rocmdoc check --rocm <Tab>" "$RELEASES" "$(bash_complete rocmdoc check --rocm '')"
expect "rocmdoc install --rocm 7.2.<Tab>" "$(grep '^7\.2\.' <<<"$RELEASES")" "$(bash_complete rocmdoc install --rocm 7.2.)"
machines=$(cd "$SOURCE/tests" && bash_complete rocmdoc check --root machines/)
contains "rocmdoc check --root machines/<Tab>" machines/ubuntu2404-rx7900xtx "$machines"
expect "rocmdoc explain --run -- ch<Tab>" "" "$(bash_complete rocmdoc explain --run -- ch)"
# bash-completion's loader finds the installed name (the script registers
# `complete -F _rocmdoc rocmdoc` when sourced).
bash --norc --noprofile -c 'source "$1"; complete -p rocmdoc' _ "$DIR/rocmdoc.bash" | grep -q -- '-F _rocmdoc rocmdoc$' ||
  fail "the bash script does not register _rocmdoc for rocmdoc"

# ---------------------------------------------------------------- fish
fish --no-execute "$DIR/rocmdoc.fish" || fail "fish cannot parse rocmdoc.fish"
fish_complete() {  # LINE: fish's completions for it, the words only, sorted
  HOME=$BIN_DIR XDG_CONFIG_HOME=$BIN_DIR XDG_DATA_HOME=$BIN_DIR fish --no-config -c \
    'source $argv[1]; complete -C $argv[2]' "$DIR/rocmdoc.fish" "$1" | cut -f1 | sort
}
expect "fish: rocmdoc ch" check "$(fish_complete 'rocmdoc ch')"
expect "fish: rocmdoc rules " "$(printf 'info\nlint\npatterns\ntest')" "$(fish_complete 'rocmdoc rules ')"
contains "fish: rocmdoc check --" --deep-timeout "$(fish_complete 'rocmdoc check --')"
expect "fish: rocmdoc fix " "$CATALOGUE_IDS" "$(fish_complete 'rocmdoc fix ')"
expect "fish: rocmdoc check --rocm " "$RELEASES" "$(fish_complete 'rocmdoc check --rocm ')"

# ---------------------------------------------------------------- zsh
zsh -n "$DIR/_rocmdoc" || fail "zsh cannot parse _rocmdoc"
head -n 1 "$DIR/_rocmdoc" | grep -qx '#compdef rocmdoc' || fail "_rocmdoc does not start with #compdef rocmdoc"

echo "passed: bash (13 lines completed), fish (5), zsh (parses)"
