#!/usr/bin/env bash
# action.yml: installs the Debian/Ubuntu packages pgwarden needs on the runner:
# libpq5 always; the PostgreSQL server programs for `pgwarden dev`; libpq-dev (libpq's
# header) when pgwarden is built from source (NEEDS_BUILD=true).
set -euo pipefail
packages=(libpq5)
[ "${COMMAND:-dev}" = dev ] && packages+=(postgresql)
[ "${NEEDS_BUILD:-false}" = true ] && packages+=(libpq-dev)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "pgwarden action: apt-get install ${packages[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
# The package starts a cluster of its own; pgwarden dev starts its own throwaway server.
if [ "${COMMAND:-dev}" = dev ] && command -v systemctl >/dev/null; then
    $sudo systemctl stop postgresql || true
fi
