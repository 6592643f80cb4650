#!/usr/bin/env bash
# `pgwarden dev` against its floor, side by side in one run (issue 18: dev at most
# 1.5x the floor).
#
#   floor      start a PostgreSQL server on a copy of a ready (initdb-ed, bootstrapped,
#              stopped) data directory, apply Electric Ride's migrations (their up
#              sections) and seeds with one `psql -1`, stop the server, remove it all.
#              The ready data directory is the very template `pgwarden dev` caches,
#              so both sides start from the same bytes, and the server is the one dev
#              starts: dev's settings, with the libraries the twin preloads as Supabase
#              does (pg_stat_statements, plpgsql, pg_cron: those this machine has).
#   floor-plain the same without the preloaded libraries and max_connections (the
#              floor of rounds nine to eleven), printed for comparison.
#   dev        `pgwarden dev` with a warm template cache: copy the template, start,
#              bootstrap check, migrations with history, seeds, the access plan
#              (291 probes), the report, stop, remove.
#   dev-nocache `pgwarden dev --no-cache`: initdb and the twin's bootstrap every time
#              (what dev did before the cache).
#
# Each side runs WARMUP untimed and RUNS timed times, alternating; every run must
# pass. Prints medians and the ratios to the floor. Also prints dev's own split
# ("ready in" and "done in" lines).
#
# With SEED_ROWS=N, both sides also apply one more seed file of N single-row inserts
# (about 120 bytes each: 400000 make a 49 MB dump) into a table of its own schema
# (bench_seed, which the access plan does not read), on a copy of the project: what a
# project seeded from a large data dump waits for. floor-plain and dev --no-cache are
# then left out (shown as -).
#
# Environment:
#   RUNS      timed runs per side (default 7); WARMUP untimed first (default 1)
#   SEED_ROWS rows of the extra seed file (default 0: none)
#   PGWARDEN  pgwarden binary to use; otherwise built as scripts/release.sh builds it
#   SCRATCH   --scratch-path for that build
#   STRICT=1  exit 1 when dev is over 1.5x the floor
#
# The template cache used is a temporary one (PGWARDEN_CACHE_DIR), never yours.
# Leaves no server and no temporary directory behind.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

RUNS="${RUNS:-7}"
WARMUP="${WARMUP:-1}"
STRICT="${STRICT:-0}"
SEED_ROWS="${SEED_ROWS:-0}"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "bench: RUNS must be a positive integer" >&2; exit 64; }
[[ "$SEED_ROWS" =~ ^[0-9]+$ ]] || { echo "bench: SEED_ROWS must be a non-negative integer" >&2; exit 64; }
[[ "$WARMUP" =~ ^[0-9]+$ ]] || { echo "bench: WARMUP must be a non-negative integer" >&2; exit 64; }


WORK=""
FLOOR_DIR=""
FLOOR_PID=""
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$FLOOR_PID" ] && kill -0 "$FLOOR_PID" 2>/dev/null; then
        kill -QUIT "$FLOOR_PID" 2>/dev/null || true
        wait "$FLOOR_PID" 2>/dev/null || true
    fi
    if [ -n "$FLOOR_DIR" ]; then rm -rf "$FLOOR_DIR"; fi
    if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- tools

BINDIR="$(pg_bindir)"
command -v psql >/dev/null 2>&1 || die "psql not found (apt-get install postgresql-client)"

ensure_pgwarden

# As pgwarden does: as root, the server runs as the postgres OS user.
RUN_AS=()
if [ "$(id -u)" -eq 0 ]; then
    PG_USER="${PGWARDEN_PG_USER:-postgres}"
    RUN_AS=(setpriv "--reuid=$(id -u "$PG_USER")" "--regid=$(id -g "$PG_USER")" --clear-groups --)
fi

# Where dev puts its servers (memory when /dev/shm has room); the floor uses the same.
BASE="${PGWARDEN_TMPDIR:-}"
if [ -z "$BASE" ]; then
    BASE="${TMPDIR:-/tmp}"
    if [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -gt 524288 ]; then BASE=/dev/shm; fi
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pgwarden-bench-dev.XXXXXX")"
export PGWARDEN_CACHE_DIR="$WORK/cache"
unset PGWARDEN_NO_CACHE

# The up section of each migration (after `-- migrate:up`, before `-- migrate:down`;
# a file without markers is all up), then the seeds: what dev applies.
for file in migrations/*.sql; do
    awk '
        /^-- migrate:up([[:space:]]|$)/   { marked = 1; up = 1; next }
        /^-- migrate:down([[:space:]]|$)/ { marked = 1; up = 0; next }
        { lines[++n] = $0; keep[n] = up }
        END { for (i = 1; i <= n; i++) if (!marked || keep[i]) print lines[i] }
    ' "$file"
done >"$WORK/migrations.sql"
# With SEED_ROWS, dev runs on a copy of the project whose seeds end with the big file.
PROJECT="$PWD"
if [ "$SEED_ROWS" -gt 0 ]; then
    PROJECT="$WORK/project"
    mkdir -p "$PROJECT"
    cp -R migrations seeds access-plan.yml "$PROJECT/"
    {
        echo "create schema bench_seed;"
        echo "create table bench_seed.rows (id int primary key, name text, note text);"
        awk -v n="$SEED_ROWS" 'BEGIN { for (i = 1; i <= n; i++)
            printf "insert into bench_seed.rows (id, name, note) values (%d, '"'"'name %d'"'"', '"'"'a note about row %d; with -- punctuation'"'"');\n", i, i, i }'
    } >"$PROJECT/seeds/zz_bench_rows.sql"
    say "extra seed: $SEED_ROWS rows, $(( $(wc -c <"$PROJECT/seeds/zz_bench_rows.sql") / 1024 )) KiB"
fi
cat "$PROJECT"/seeds/*.sql >"$WORK/seeds.sql"
chmod 0755 "$WORK"; chmod 0644 "$WORK/migrations.sql" "$WORK/seeds.sql"


# ---------------------------------------------------------------- the sides

run_dev() {  # $1: extra argument (or empty); prints "ready_ms done_ms"
    local out="$WORK/dev.out" status=0
    "$PGWARDEN" dev --project "$PROJECT" ${1:+"$1"} >"$out" 2>&1 || status=$?
    if [ "$status" -ne 0 ] || ! grep -q "291 probes, 291 passed, 0 failed" "$out"; then
        cat "$out" >&2
        die "pgwarden dev $1 failed (exit $status)"
    fi
    printf '%s %s\n' "$(sed -n 's/.* ready in \([0-9]*\) ms.*/\1/p' "$out")" "$(sed -n 's/^dev: done in \([0-9]*\) ms/\1/p' "$out")"
}

# The libraries dev's server preloads (SupabasePreloadedLibraries: Supabase's list,
# those this machine's server has).
PKGLIBDIR="$("$BINDIR/pg_config" --pkglibdir 2>/dev/null || echo "$BINDIR/../lib")"
PRELOAD=""
for library in pg_stat_statements plpgsql pg_cron; do
    [ -e "$PKGLIBDIR/$library.so" ] && PRELOAD="${PRELOAD:+$PRELOAD,}$library"
done

run_floor() {  # $1: "twin" (dev's server settings) or "plain"
    local template twin_settings=()
    if [ "$1" = twin ]; then
        twin_settings=(-c max_connections=60)
        [ -z "$PRELOAD" ] || twin_settings+=(-c "shared_preload_libraries=$PRELOAD")
    fi
    template="$(ls -d "$PGWARDEN_CACHE_DIR"/templates/*/data)"
    FLOOR_DIR="$(mktemp -d "$BASE/pgwarden-floor.XXXXXX")"
    cp -a --reflink=auto "$template" "$FLOOR_DIR/data"
    [ "${#RUN_AS[@]}" -eq 0 ] || chown "$PG_USER" "$FLOOR_DIR"
    "${RUN_AS[@]}" "$BINDIR/postgres" -D "$FLOOR_DIR/data" -k "$FLOOR_DIR" -p 5432 \
        -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
        -c wal_level=logical -c max_wal_senders=10 -c max_replication_slots=5 -c checkpoint_timeout=1h -c shared_buffers=64MB \
        -c dynamic_shared_memory_type=mmap "${twin_settings[@]}" >"$WORK/floor.log" 2>&1 &
    FLOOR_PID=$!
    local url="postgresql://postgres@/postgres?host=$FLOOR_DIR&port=5432"
    until "$BINDIR/pg_isready" -q -d "$url"; do
        kill -0 "$FLOOR_PID" 2>/dev/null || { cat "$WORK/floor.log" >&2; die "the floor's server did not start"; }
        read -r -t 0.005 <> <(:) || true
    done
    psql -X -q -1 -v ON_ERROR_STOP=1 -d "$url" -f "$WORK/migrations.sql" -f "$WORK/seeds.sql" >/dev/null \
        || die "the floor's psql -1 failed"
    kill -QUIT "$FLOOR_PID"
    wait "$FLOOR_PID" 2>/dev/null || true
    FLOOR_PID=""
    rm -rf "$FLOOR_DIR"
    FLOOR_DIR=""
}

timed() {  # $@: command; prints its wall time in ms, then its output
    local start end out
    start="$(now_us)"
    out="$("$@")"
    end="$(now_us)"
    printf '%s %s\n' "$(( (end - start) / 1000 ))" "$out"
}

# The median of the numbers read ("-" when there are none: a side left out).
median() { { grep -E '^[0-9]+$' || true; } | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# ---------------------------------------------------------------- runs

say "warming the template cache (first pgwarden dev: initdb, bootstrap, stored)"
first="$(timed run_dev "")"
say "first dev (cold cache): ${first%% *} ms wall"
grep -q "template: ran initdb and bootstrap, cached" "$WORK/dev.out" || { cat "$WORK/dev.out" >&2; die "the first dev did not cache its template"; }

: >"$WORK/floor.t"; : >"$WORK/plain.t"; : >"$WORK/dev.t"; : >"$WORK/nocache.t"; : >"$WORK/dev.split"; : >"$WORK/nocache.split"
for i in $(seq 1 $((WARMUP + RUNS))); do
    f="$(timed run_floor twin)"
    p="- -"; n="- - -"
    [ "$SEED_ROWS" -gt 0 ] || p="$(timed run_floor plain)"
    d="$(timed run_dev "")"
    grep -q "template: copied the bootstrapped cluster from the cache" "$WORK/dev.out" || die "dev did not use the cache"
    [ "$SEED_ROWS" -gt 0 ] || n="$(timed run_dev --no-cache)"
    if [ "$i" -gt "$WARMUP" ]; then
        echo "${f%% *}" >>"$WORK/floor.t"; echo "${p%% *}" >>"$WORK/plain.t"
        echo "${d%% *}" >>"$WORK/dev.t"; echo "${d#* }" >>"$WORK/dev.split"
        echo "${n%% *}" >>"$WORK/nocache.t"; echo "${n#* }" >>"$WORK/nocache.split"
    fi
    say "run $i: floor ${f%% *} ms, floor-plain ${p%% *} ms, dev ${d%% *} ms, dev --no-cache ${n%% *} ms"
done

FLOOR="$(median <"$WORK/floor.t")"
PLAIN="$(median <"$WORK/plain.t")"
DEV="$(median <"$WORK/dev.t")"
NOCACHE="$(median <"$WORK/nocache.t")"
DEV_READY="$(cut -d' ' -f1 "$WORK/dev.split" | median)"; DEV_DONE="$(cut -d' ' -f2 "$WORK/dev.split" | median)"
NC_READY="$(cut -d' ' -f1 "$WORK/nocache.split" | median)"; NC_DONE="$(cut -d' ' -f2 "$WORK/nocache.split" | median)"
ratio() { if [ "$1" = - ] || [ "$2" = - ]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi; }

echo "pgwarden dev vs its floor: $("$BINDIR/postgres" --version), $RUNS timed runs each (medians, wall time)"
echo "floor's server: dev's settings, preloading ${PRELOAD:-nothing}; floor-plain: without the preloads and max_connections"
[ "$SEED_ROWS" -eq 0 ] || echo "both sides also seed $SEED_ROWS rows from one more file (SEED_ROWS)"
printf '%-16s %8s %8s %12s %12s\n' side ms "x floor" "ready in ms" "done in ms"
printf '%-16s %8s %8s %12s %12s\n' floor "$FLOOR" 1.00 - -
printf '%-16s %8s %8s %12s %12s\n' floor-plain "$PLAIN" "$(ratio "$PLAIN" "$FLOOR")" - -
printf '%-16s %8s %8s %12s %12s\n' dev "$DEV" "$(ratio "$DEV" "$FLOOR")" "$DEV_READY" "$DEV_DONE"
printf '%-16s %8s %8s %12s %12s\n' "dev --no-cache" "$NOCACHE" "$(ratio "$NOCACHE" "$FLOOR")" "$NC_READY" "$NC_DONE"
within="$(awk -v a="$DEV" -v b="$FLOOR" 'BEGIN { print (a <= 1.5 * b) ? "yes" : "no" }')"
against_plain=""
[ "$PLAIN" = - ] || against_plain=" (against floor-plain: $(ratio "$DEV" "$PLAIN")x)"
echo "target dev <= 1.5x floor: $within$against_plain"
if [ "$STRICT" = 1 ] && [ "$within" != yes ]; then exit 1; fi
