#!/usr/bin/env bash
# Builds pgwarden for release and packs dist/pgwarden-<version>-linux-<arch>.tar.gz
# (+ .sha256): the binary, LICENSE and a short README. The Swift standard library,
# Foundation and Dispatch are linked into the binary (--static-swift-stdlib), so the
# target needs no Swift: only glibc, libpq (libpq5) and, for `pgwarden dev`, the
# PostgreSQL server programs. Details and what is not static: docs/release.md.
#
#   scripts/release.sh                      # build in .build-release, pack into dist/
#   SCRATCH=.build-x OUT=/tmp/d scripts/release.sh
#   SKIP_BUILD=1 scripts/release.sh         # pack what SCRATCH already holds
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${SCRATCH:-.build-release}"
out="${OUT:-dist}"
version="$(scripts/version.sh)"
arch="$(uname -m)"
name="pgwarden-$version-linux-$arch"
build=(swift build -c release --static-swift-stdlib --product pgwarden --scratch-path "$scratch")

fail() { echo "release: $*" >&2; exit 1; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    echo "release: ${build[*]}"
    "${build[@]}"
fi
binary="$("${build[@]}" --show-bin-path)/pgwarden"
[ -x "$binary" ] || fail "$binary: not built (run without SKIP_BUILD=1)"

# The name says the version the binary reports: both come from WardenKit.version.
reported="$("$binary" --version)"
[ "$reported" = "$version" ] || fail "$binary --version says '$reported', scripts/version.sh says '$version'"

# Nothing of the Swift toolchain may be a shared-library dependency.
needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)"
if grep -Eiq 'swift|foundation|dispatch|blocksruntime|icu' <<<"$needed"; then
    fail "$binary still needs toolchain libraries: $(tr '\n' ' ' <<<"$needed")"
fi
# The newest glibc symbol version the binary uses: the oldest glibc it runs on.
glibc="$(objdump -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)"
# Likewise for libstdc++ (the Swift runtime's C++ parts need it).
glibcxx="$(objdump -T "$binary" | grep -o 'GLIBCXX_[0-9.]*' | sort -uV | tail -1)"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$binary" "$stage/$name/pgwarden"
strip "$stage/$name/pgwarden"
cp LICENSE "$stage/$name/LICENSE"
cat >"$stage/$name/README.md" <<README
# pgwarden $version (Linux, $arch)

Provision, migrate and prove the access plan of a PostgreSQL or Supabase database.

The Swift runtime and Foundation are linked into \`pgwarden\`; no Swift is needed.
It needs:

- glibc $glibc or newer and a libstdc++ with $glibcxx (Ubuntu 22.04 and Debian 12
  have both; older systems do not);
- libpq: \`apt-get install libpq5\`;
- for \`pgwarden dev\` (a throwaway local server): the PostgreSQL server programs,
  \`apt-get install postgresql\` (found under /usr/lib/postgresql/<major>/bin).

Shared libraries it loads: $(tr '\n' ' ' <<<"$needed")and, when it first needs a
database, libpq.so.5 (with dlopen).

Install: put \`pgwarden\` on your PATH, e.g. \`install -m 755 pgwarden /usr/local/bin/\`.
Start: \`pgwarden --help\`; in a project folder (migrations/, seeds/, access-plan.yml),
\`pgwarden dev\`. pgwarden is MIT licensed (LICENSE).
README

mkdir -p "$out"
tarball="$out/$name.tar.gz"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime='@0' -czf "$tarball" "$name"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "release: $tarball ($(du -k "$tarball" | cut -f1) KiB; binary $(du -k "$stage/$name/pgwarden" | cut -f1) KiB stripped, glibc >= $glibc)"
echo "release: $tarball.sha256"
