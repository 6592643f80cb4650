#!/usr/bin/env bash
# action.yml: puts the release tarball's pgwarden on PATH when the action's
# repository has a release v<VERSION> for this machine, and says whether it did
# (found=true|false in GITHUB_OUTPUT). VERSION defaults to the action's own
# version. The tarball is checked against its .sha256 before it is unpacked.
# RELEASES_URL replaces https://github.com/<repository>/releases/download (tests use
# a file:// folder holding v<version>/<assets>).
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
source_version="$("$here/scripts/version.sh")"
version="${VERSION:-$source_version}"
case "$version" in
    v*) version="${version#v}" ;;
esac
if ! [[ "$version" =~ ^[0-9A-Za-z.+-]+$ ]]; then
    echo "::error title=pgwarden action::version '$version' is not a version (e.g. $source_version)" >&2
    exit 64
fi
# owner/name: given, else read from where the runner checked the action out
# (.../_actions/<owner>/<name>/<ref>); empty for a local action (uses: ./).
repository="${REPOSITORY:-}"
if [ -z "$repository" ] && [[ "$here" =~ /_actions/([^/]+)/([^/]+)/[^/]+$ ]]; then
    repository="${BASH_REMATCH[1]}/${BASH_REMATCH[2]}"
fi
name="pgwarden-$version-linux-$(uname -m)"
found=false
releases="${RELEASES_URL:-}"
[ -n "$releases" ] || [ -z "$repository" ] || releases="https://github.com/$repository/releases/download"
if [ -n "$releases" ]; then
    url="$releases/v$version/$name.tar.gz"
    dir="$RUNNER_TEMP/pgwarden-release"
    mkdir -p "$dir"
    echo "pgwarden action: looking for $url"
    if curl -fsSL --retry 3 -o "$dir/$name.tar.gz" "$url" \
        && curl -fsSL --retry 3 -o "$dir/$name.tar.gz.sha256" "$url.sha256"; then
        (cd "$dir" && sha256sum -c "$name.tar.gz.sha256")
        tar -xzf "$dir/$name.tar.gz" -C "$dir"
        echo "$dir/$name" >>"$GITHUB_PATH"
        found=true
    else
        echo "pgwarden action: no release asset $name.tar.gz; building from the action's sources"
    fi
fi
if [ "$found" = false ] && [ "$version" != "$source_version" ]; then
    echo "::error title=pgwarden action::no release tarball for pgwarden $version, and this action's sources are $source_version: use the action at the tag v$version, or leave 'version' empty" >&2
    exit 64
fi
echo "found=$found" >>"$GITHUB_OUTPUT"
