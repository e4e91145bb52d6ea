#!/usr/bin/env bash
# clang-tidy (.clang-tidy's checks and which of them fail) on the C++ sources a change touches:
# the .cpp files changed since BASE (default HEAD~1: the last commit), and for each changed header
# the .cpp beside it. Needs build/compile_commands.json (scripts/setup.sh's build writes it). The
# build's -Werror is lifted for clang (-Wno-error): gcc's flags and pragmas that clang does not know
# are not findings; .clang-tidy says what fails.
#
#   scripts/tidy_changed.sh              # the last commit's files
#   scripts/tidy_changed.sh origin/main  # everything a branch changes
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
base="${1:-HEAD~1}"
build="${RAVE_BUILD_DIR:-build}"
tidy="$(command -v clang-tidy || true)"
[[ -n "$tidy" ]] || { echo "tidy_changed.sh: clang-tidy not found (apt-get install clang-tidy)" >&2; exit 2; }
[[ -f "$build/compile_commands.json" ]] || { echo "tidy_changed.sh: no $build/compile_commands.json (build first)" >&2; exit 2; }
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "tidy_changed.sh: no commit '$base' in this clone (nothing to compare with); skipped"
  exit 0
fi

declare -A files=()
while IFS= read -r f; do
  case "$f" in
    *.cpp) [[ -f "$f" ]] && files["$f"]=1 ;;
    *.hpp) [[ -f "${f%.hpp}.cpp" ]] && files["${f%.hpp}.cpp"]=1 ;;
  esac
done < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.cpp' '*.hpp')

# Only sources the build compiles (fuzzers and disabled parts are not in the database).
compiled=()
for f in "${!files[@]}"; do
  grep -qF "\"file\": \"$PWD/$f\"" "$build/compile_commands.json" && compiled+=("$f")
done
if ((${#compiled[@]} == 0)); then
  echo "tidy_changed.sh: no compiled C++ source changed since $base"
  exit 0
fi
echo "tidy_changed.sh: clang-tidy on ${#compiled[@]} file(s) changed since $base"
printf '%s\n' "${compiled[@]}" | sort |
  xargs -P "${RAVE_JOBS:-2}" -n 1 "$tidy" -p "$build" --quiet --extra-arg=-Wno-error
echo "tidy_changed.sh: clean"
