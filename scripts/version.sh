#!/usr/bin/env bash
# Prints pgwarden's version: the one place it is set is WardenKit.version in
# Sources/WardenKit/WardenKit.swift (what `pgwarden --version` prints). Used by
# scripts/release.sh and action.yml, so that neither keeps a copy of it.
set -euo pipefail
source_file="$(dirname "$0")/../Sources/WardenKit/WardenKit.swift"
version="$(sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' "$source_file")"
if [ -z "$version" ] || [ "$(printf '%s\n' "$version" | wc -l)" -ne 1 ]; then
    echo "version.sh: $source_file: no single 'public static let version = \"...\"' line" >&2
    exit 65
fi
printf '%s\n' "$version"
