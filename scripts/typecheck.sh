#!/usr/bin/env bash
# Every TypeScript project, two at a time (each tsc is single-threaded): `npm run typecheck`, and CI's step.
set -euo pipefail
cd "$(dirname "$0")/.."
printf '%s\n' packages/money packages/protocol packages/rules packages/matching apps/server apps/web apps/admin e2e |
  xargs -P 2 -I {} sh -c 'echo "tsc -p {}" && npx tsc -p {} --noEmit'
