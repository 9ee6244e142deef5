#!/usr/bin/env bash
# The asan configuration's check after its tests: any sanitizer report in REPORTS_DIR (written there by
# the options of scripts/sanitizer_env.sh) is printed and fails, LeakSanitizer's own "Tracer caught
# signal" too, so every test has its leaks checked even where its driver ignores a program's exit code.
# Usage: scripts/sanitizer_reports.sh REPORTS_DIR
set -euo pipefail
reports=${1:?usage: sanitizer_reports.sh REPORTS_DIR}
if compgen -G "$reports/*" >/dev/null; then
  for f in "$reports"/*; do echo "== sanitizer report $f"; cat "$f"; done
  echo "sanitizer_reports.sh: $(ls "$reports" | wc -l) sanitizer report(s)"
  exit 1
fi
echo "sanitizer_reports.sh: no sanitizer report"
