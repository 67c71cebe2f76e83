#!/usr/bin/env bash
# Every check and test Halyard has, in the order CI runs them:
# lint → typecheck → one Vitest run (unit and server tests on SQLite, and the
# server tests again on PostgreSQL) → browser tests in Chromium. Ends with
# "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

results_dir=$(mktemp -d)
trap 'rm -rf "$results_dir"' EXIT
step() { printf '\n=== %s ===\n' "$*"; }

step "lint and format (biome)"
npx biome check .

step "typecheck"
bash scripts/typecheck.sh

postgres_url=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
if node scripts/can-reach-postgres.mjs "$postgres_url"; then
  # One Vitest run, two projects: everything on SQLite, and the server tests again on PostgreSQL.
  export HALYARD_TEST_POSTGRES_URL=$postgres_url
  step "unit and server tests (SQLite), server tests again (PostgreSQL at ${postgres_url%%\?*})"
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL is not reachable at $postgres_url and CI requires it" >&2
  exit 1
else
  step "unit and server tests (SQLite; PostgreSQL not reachable at $postgres_url: its run is skipped, CI always runs it)"
fi
unset TEST_DATABASE_URL
npx vitest run --reporter=default --reporter=json --outputFile="$results_dir/vitest.json"

step "browser tests (Playwright in Chromium)"
if bash scripts/ensure-chromium.sh; then
  if [ -f e2e/playwright.config.ts ]; then
    npm run build -w @halyard/web
    npm run build -w @halyard/admin
    npx playwright test -c e2e/playwright.config.ts --reporter=list,json 2>&1 \
      | tee "$results_dir/e2e.log"
    status=${PIPESTATUS[0]}
    [ "$status" -eq 0 ] || exit "$status"
  fi
elif [ "${CI:-}" = "true" ]; then
  echo "Chromium is required in CI" >&2
  exit 1
fi

node scripts/summarise-tests.mjs "$results_dir"
