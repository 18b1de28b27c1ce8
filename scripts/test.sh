#!/usr/bin/env bash
# The README's test command (`npm test`): its own set-up, then every vitest project (unit, browser, and the
# container tests on real servers), then the plain closing line `N passed, N failed, N skipped` taken from
# vitest's own JSON report of this run.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test || exit $?
mkdir -p reports
results="reports/vitest-results.json"
rm -f "$results"
npx vitest run --reporter=verbose --reporter=json --outputFile.json="$results" "$@"
status=$?
if [ -f "$results" ]; then
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  ' "$results"
else
  echo "0 passed, 1 failed, 0 skipped"
  [ "$status" -eq 0 ] && status=1
fi
exit "$status"
