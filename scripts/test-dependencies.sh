#!/usr/bin/env bash
# Installs what pgwarden's build and tests need, when it is missing (Debian 12 or
# Ubuntu; apt-get, with sudo when not root): PostgreSQL's server programs and libpq's
# headers; pgTAP (`pgwarden test` runs a project's pgTAP suites, and the twin lets
# postgres create it); pg_cron, hypopg and plpgsql_check, Supabase privileged
# extensions the twin's tests create; util-linux's script; and, from PyPI, pglast, through which the
# splitter's differential test reads PostgreSQL's own parser. Does nothing when all
# are there. Used by scripts/test.sh and .ci/run.
set -euo pipefail

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
[ -f /usr/include/postgresql/libpq-fe.h ] || missing+=(libpq-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
pg_major=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1 | grep . || echo 15)
# util-linux's script gives dev a terminal in a test (bsdutils: essential on Debian).
command -v script >/dev/null || missing+=(bsdutils)
for ext in pgtap:pgtap cron:pg_cron hypopg:hypopg plpgsql-check:plpgsql_check; do
    ls /usr/share/postgresql/*/extension/"${ext#*:}".control >/dev/null 2>&1 || missing+=("postgresql-$pg_major-${ext%%:*}")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "test-dependencies: installing ${missing[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if ! python3 -c "import pglast" 2>/dev/null; then
    echo "test-dependencies: installing pglast (PyPI)"
    command -v pip3 >/dev/null || { $sudo apt-get update -q; DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q python3-pip; }
    pip3 install -q --break-system-packages pglast 2>/dev/null || pip3 install -q pglast
fi
