#!/usr/bin/env bash
# Every check and test Halyard has, in the order CI runs them:
# lint → typecheck → unit and server tests on SQLite → the same server tests on
# PostgreSQL → browser tests in Chromium. Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

results_dir=$(mktemp -d)
trap 'rm -rf "$results_dir"' EXIT
step() { printf '\n=== %s ===\n' "$*"; }

step "lint and format (biome)"
npx biome check .

step "typecheck"
for project in packages/money packages/protocol packages/rules packages/matching apps/server apps/web e2e; do
  if [ -f "$project/tsconfig.json" ]; then
    echo "tsc -p $project"
    npx tsc -p "$project" --noEmit
  fi
done

step "unit and server tests (SQLite)"
npx vitest run --reporter=default --reporter=json --outputFile="$results_dir/sqlite.json"

postgres_url=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
if node scripts/can-reach-postgres.mjs "$postgres_url"; then
  step "server tests (PostgreSQL at ${postgres_url%%\?*})"
  TEST_DATABASE_URL=$postgres_url npx vitest run apps/server \
    --reporter=default --reporter=json --outputFile="$results_dir/postgres.json"
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL is not reachable at $postgres_url and CI requires it" >&2
  exit 1
else
  step "PostgreSQL not reachable at $postgres_url: its run is skipped (CI always runs it)"
fi

step "browser tests (Playwright in Chromium)"
if bash scripts/ensure-chromium.sh; then
  if [ -f e2e/playwright.config.ts ]; then
    npm run build -w @halyard/web
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
