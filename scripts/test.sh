#!/usr/bin/env bash
# The tests: installs what they need when it is missing (scripts/test-dependencies.sh),
# then runs `swift test`, passing on any arguments (e.g. --filter AccessPlan). The
# integration tests start their own PostgreSQL servers; none is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/test-dependencies.sh
exec swift test "$@"
