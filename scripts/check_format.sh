#!/usr/bin/env bash
# The house format (.clang-format, clang-format 14) on every C++ file of the repository: lists the
# files that differ and exits 1, or says that all are formatted. CI runs it (.ci/run).
#   scripts/check_format.sh          # check
#   scripts/check_format.sh --fix    # format in place
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v clang-format >/dev/null || { echo "check_format.sh: clang-format is not installed (apt-get install clang-format)" >&2; exit 2; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
else
  mapfile -t files < <(find . -path './build*' -prune -o \( -name '*.cpp' -o -name '*.hpp' \) -print)
fi
if [[ "${1:-}" == --fix ]]; then
  clang-format -i "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi
# One process for all files; each difference is reported as file:line:col.
places="$(clang-format --dry-run -Werror "${files[@]}" 2>&1 | grep -E '^[^ ].*: error:' | sed 's/: error: .*//' || true)"
if [[ -z "$places" ]]; then
  echo "clang-format: all ${#files[@]} C++ files formatted"
  exit 0
fi
echo "$places" | head -50
echo "not formatted: the places above (scripts/check_format.sh --fix formats them)"
exit 1
