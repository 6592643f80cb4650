#!/usr/bin/env bash
# action.yml: builds pgwarden (release) from the action's own sources into their
# .build folder (which action.yml caches) and puts it on PATH. With KEY_ONLY=1 it
# resolves the dependencies and prints the cache key instead: the hash of
# Package.swift and Package.resolved, so the cache follows the resolved dependencies.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${KEY_ONLY:-0}" = 1 ]; then
    swift package resolve >&2
    echo "key=pgwarden-build-$(uname -s)-$(uname -m)-$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)-$(cat Package.swift Package.resolved | sha256sum | cut -c1-16)" >>"$GITHUB_OUTPUT"
    exit 0
fi
swift build -c release --product pgwarden
echo "$(swift build -c release --product pgwarden --show-bin-path)" >>"$GITHUB_PATH"
