#!/usr/bin/env bash
# All the tests: types, lint and boundaries, unit + integration (real PostgreSQL) with coverage, then end-to-end in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

# PostgreSQL on 127.0.0.1:5432 for the integration tests (each test makes and drops its own database).
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  if command -v pg_ctlcluster >/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  fi
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null && break; sleep 1; done
fi

# Debian's Chromium for Playwright (Playwright's own browser download cannot work offline).
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi

# Node 22 for the MCP conformance suite (tests/mcp-conformance.test.ts), in its own folder so it
# never shadows the machine's Node; only the tests need it, so `npm run studio` does not fetch it.
if [ ! -x tools/node22/node_modules/node/bin/node ]; then
  echo "== Node 22 for the conformance suite (tools/node22)"
  npm run -s test:node22
fi

echo "== typecheck"
npx tsc --noEmit
echo "== lint and architecture boundaries"
npm run -s lint
echo "== formatting (Prettier; npm run format fixes it)"
npm run -s format:check
echo "== unit, integration and component tests, with lib/ and components/ coverage (floors in vitest.config.ts)"
npx vitest run --coverage
# Built here, when the sources changed, so Playwright's server start (240 s) only has to serve it.
echo "== production build"
node scripts/studio.mjs --build-only
echo "== end-to-end tests"
npx playwright test
