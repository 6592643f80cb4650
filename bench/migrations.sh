#!/usr/bin/env bash
# Migration benchmark: apply the same N migrations with pgwarden, `psql -1` (the floor:
# one transaction, no bookkeeping), sqitch and yoyo-migrations, each on a fresh
# database of ONE ephemeral PostgreSQL server, then time `pgwarden down --all`.
# Prints each tool's wall-clock seconds, pgwarden's ratio to each, and whether the
# targets hold (pgwarden <= 1.5x psql -1; pgwarden >= 4x faster than the faster of
# sqitch and yoyo).
#
# Environment:
#   N         migrations to generate (default 300)
#   R         repetitions; each figure is the median over R runs (default 1)
#   PGWARDEN  pgwarden binary to use; otherwise built as scripts/release.sh builds it
#   SCRATCH   --scratch-path for that build (default: swift's own .build)
#   STRICT=1  exit 1 when a target is missed (default: report only)
#   TOOLS     which appliers run, of "psql pgwarden sqitch yoyo" (default: all four);
#             e.g. TOOLS="psql pgwarden" N=3000 for the floor alone at 3,000 migrations
#             (sqitch would take minutes); a tool left out shows as "-"
#   PGWARDEN_TMPDIR  where the server's data and the generated files live; default
#             /dev/shm when it has 512 MiB free (memory, as pgwarden's own ephemeral
#             server uses), else $TMPDIR or /tmp. On a disk, file creation in the
#             kernel costs every tool the same ~1 s and hides the tools' own overhead.
#
# Installs when missing: Debian `sqitch` and `libdbd-pg-perl` (apt-get, with their
# recommended packages, as `apt-get install sqitch` would), and `yoyo-migrations`
# with `psycopg2-binary` (pip). Leaves no server and no temp dir.
set -euo pipefail
cd "$(dirname "$0")/.."

N="${N:-300}"
R="${R:-1}"
STRICT="${STRICT:-0}"
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "bench: N must be a positive integer" >&2; exit 64; }
[[ "$R" =~ ^[1-9][0-9]*$ ]] || { echo "bench: R must be a positive integer" >&2; exit 64; }

say() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# ---------------------------------------------------------------- tools

apt_updated=0
apt_install() {
    if [ "$apt_updated" -eq 0 ]; then
        as_root apt-get update -q >&2
        apt_updated=1
    fi
    say "installing (apt) $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2
}

pg_bindir() {
    if [ -n "${PGWARDEN_PG_BINDIR:-}" ]; then echo "$PGWARDEN_PG_BINDIR"; return; fi
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    dir="$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"
    [ -x "$dir/initdb" ] || die "PostgreSQL server programs not found (apt-get install postgresql)"
    echo "$dir"
}

ensure_sqitch() {
    local need=()
    command -v sqitch >/dev/null 2>&1 || need+=(sqitch)
    perl -MDBD::Pg -e 1 >/dev/null 2>&1 || need+=(libdbd-pg-perl)
    [ "${#need[@]}" -eq 0 ] || apt_install "${need[@]}"
    command -v sqitch >/dev/null 2>&1 || die "sqitch is still missing after installing it"
}

# The interpreter yoyo runs under must also import psycopg2.
yoyo_ready() {
    local yoyo py
    yoyo="$(command -v yoyo 2>/dev/null)" || return 1
    # `#!/path/python`, `#!/usr/bin/env python3`; anything else (a pyenv shim is a
    # bash script) means the python3 on PATH.
    py="$(head -n 1 "$yoyo" | sed -n 's/^#! *//p' | awk '{ print ($1 ~ /\/env$/) ? $2 : $1 }')"
    case "$(basename "${py:-none}")" in python*) ;; *) py=python3 ;; esac
    "$py" -c 'import yoyo, psycopg2' >/dev/null 2>&1
}

ensure_yoyo() {
    yoyo_ready && return 0
    command -v python3 >/dev/null 2>&1 || apt_install python3
    python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
    say "installing (pip) yoyo-migrations psycopg2-binary"
    local pip=(python3 -m pip install -q --disable-pip-version-check yoyo-migrations psycopg2-binary)
    # A Debian system Python refuses plain pip installs (PEP 668); the benchmark
    # machine is disposable, so say so explicitly.
    as_root "${pip[@]}" >&2 || as_root "${pip[@]}" --break-system-packages >&2
    hash -r
    yoyo_ready || die "yoyo (with psycopg2) is still not usable after installing it"
}

ensure_pgwarden() {
    if [ -z "${PGWARDEN:-}" ]; then
        # As scripts/release.sh builds what ships (bench/lib.sh's ensure_pgwarden).
        local build=(swift build -c release --static-swift-stdlib --product pgwarden --scratch-path "${SCRATCH:-.build-release}")
        say "building pgwarden (release, as scripts/release.sh builds it)"
        "${build[@]}" >&2
        PGWARDEN="$("${build[@]}" --show-bin-path)/pgwarden"
    fi
    [ -x "$PGWARDEN" ] || die "pgwarden binary not found or not executable: $PGWARDEN"
    # An unknown subcommand's --help prints the top-level help, so look for its usage.
    # (Captured first: `grep -q` closing the pipe early would fail it under pipefail.)
    local sub help
    for sub in up down; do
        help="$("$PGWARDEN" "$sub" --help 2>&1 || true)"
        [[ "$help" == *"USAGE: pgwarden $sub"* ]] || die "$PGWARDEN has no '$sub' command"
    done
}

BIN="$(pg_bindir)"
command -v psql >/dev/null 2>&1 || die "psql not found (apt-get install postgresql-client)"
ensure_pgwarden
ensure_sqitch
ensure_yoyo

# ---------------------------------------------------------------- server

PG_OS_USER="${PGWARDEN_PG_USER:-postgres}"
WORK=""
DATA=""
SOCK=""

as_pg() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid="$PG_OS_USER" --regid="$PG_OS_USER" --clear-groups "$@"
    else
        "$@"
    fi
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$DATA" ] && [ -f "$DATA/postmaster.pid" ]; then
        local pid
        pid="$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null || true)"
        # Only if pg_ctl could not stop it: its pid is then still our postmaster.
        if ! (cd / && as_pg "$BIN/pg_ctl" -D "$DATA" -m immediate -w -t 30 stop >/dev/null 2>&1); then
            [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    [ -z "$WORK" ] || rm -rf -- "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

BASE="${PGWARDEN_TMPDIR:-}"
if [ -z "$BASE" ]; then
    BASE="${TMPDIR:-/tmp}"
    if [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -gt 524288 ]; then BASE=/dev/shm; fi
fi
WORK="$(mktemp -d "$BASE/pgwarden-bench-migrations.XXXXXX")"
chmod 755 "$WORK"
DATA="$WORK/data"
SOCK="$WORK/socket"
mkdir -p "$DATA" "$SOCK"
if [ "$(id -u)" -eq 0 ]; then chown "$PG_OS_USER:" "$DATA" "$SOCK"; fi
chmod 700 "$DATA"

# psql -1 holds every migration's locks in one transaction (several per table: the
# table, its TOAST table and index, the sequence, the indexes): room for N of them.
MAX_LOCKS=$((N / 10 + 64))
say "starting PostgreSQL ($BIN) in $WORK"
(cd / && as_pg "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$WORK/initdb.log" 2>&1) || { cat "$WORK/initdb.log" >&2; die "initdb failed"; }
(cd / && as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 \
    -o "-c listen_addresses='' -k $SOCK -p 5432 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_locks_per_transaction=$MAX_LOCKS" \
    start >/dev/null) || { cat "$DATA/server.log" >&2; die "PostgreSQL did not start"; }

# Every client (psql, pgwarden, sqitch via DBD::Pg and psql, yoyo via psycopg2) talks
# libpq: point them all at the socket, and drop anything that could redirect them.
unset PGDATABASE PGPASSWORD PGPASSFILE PGSERVICE PGSERVICEFILE PGHOSTADDR PGOPTIONS DATABASE_URL
export PGHOST="$SOCK" PGPORT=5432 PGUSER=postgres

sql() { psql -X -qAt -v ON_ERROR_STOP=1 -d "$1" -c "$2"; }

# ---------------------------------------------------------------- migrations

up_sql() {
    local t="bench_$1"
    cat <<SQL
create table $t (
    id bigint generated always as identity primary key,
    owner uuid not null,
    body text not null,
    created_at timestamptz not null default now()
);
create index ${t}_owner_idx on $t (owner);
alter table $t enable row level security;
create policy ${t}_owner_select on $t for select
    using (owner = current_setting('app.user', true)::uuid);
SQL
}

down_sql() { printf 'drop table bench_%s;\n' "$1"; }

version() { printf '%06d' "$1"; }

generate() {
    local src="$WORK/src" i v prev=""
    mkdir -p "$src/pgwarden" "$src/yoyo"
    : >"$src/psql-1.sql"
    (cd "$src" && mkdir sqitch && cd sqitch &&
        sqitch init bench --engine pg >/dev/null)
    local plan="$src/sqitch/sqitch.plan"
    printf '%%syntax-version=1.0.0\n%%project=bench\n\n' >"$plan"
    for ((i = 1; i <= N; i++)); do
        v="$(version "$i")"
        up_sql "$i" >"$src/up.tmp"
        down_sql "$i" >"$src/down.tmp"
        # pgwarden: dbmate markers in one file.
        { echo '-- migrate:up'; cat "$src/up.tmp"; echo; echo '-- migrate:down'; cat "$src/down.tmp"; } \
            >"$src/pgwarden/${v}_bench_${i}.sql"
        # psql -1: every up section, concatenated.
        { cat "$src/up.tmp"; echo; } >>"$src/psql-1.sql"
        # sqitch: plan entry plus deploy/revert/verify scripts (as `sqitch add` writes them).
        printf 'bench_%s 2025-01-01T00:00:00Z Bench <bench@example.invalid> # table bench_%s\n' \
            "$i" "$i" >>"$plan"
        { echo 'BEGIN;'; cat "$src/up.tmp"; echo 'COMMIT;'; } >"$src/sqitch/deploy/bench_$i.sql"
        { echo 'BEGIN;'; cat "$src/down.tmp"; echo 'COMMIT;'; } >"$src/sqitch/revert/bench_$i.sql"
        printf 'BEGIN;\nselect id, owner, body, created_at from bench_%s where false;\nROLLBACK;\n' \
            "$i" >"$src/sqitch/verify/bench_$i.sql"
        # yoyo: a chain of `-- depends:` (as `yoyo new` writes it) plus a rollback file.
        { [ -z "$prev" ] || echo "-- depends: $prev"; echo; cat "$src/up.tmp"; } \
            >"$src/yoyo/${v}_bench_${i}.sql"
        cp "$src/down.tmp" "$src/yoyo/${v}_bench_${i}.rollback.sql"
        prev="${v}_bench_${i}"
    done
    rm -f "$src/up.tmp" "$src/down.tmp"
}

say "generating $N migrations for each tool"
generate
SRC="$WORK/src"

# ---------------------------------------------------------------- timing

now_ns() { date +%s%N; }

# run_timed LOG CMD...: runs CMD with stdout+stderr to LOG, prints elapsed seconds.
run_timed() {
    local log="$1" start end
    shift
    start="$(now_ns)"
    if ! "$@" >"$log" 2>&1; then
        say "command failed: $*"
        tail -n 30 "$log" >&2
        return 1
    fi
    end="$(now_ns)"
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

expect() { # expect WHAT ACTUAL WANTED
    [ "$2" = "$3" ] || die "$1: expected $3, found $2"
}

bench_tables() {
    sql "$1" "select count(*) from pg_tables where schemaname = 'public' and tablename like 'bench\_%'"
}

verify_applied() { # verify_applied DB
    expect "$1: bench tables" "$(bench_tables "$1")" "$N"
    expect "$1: tables with row level security" \
        "$(sql "$1" "select count(*) from pg_class where relname like 'bench\_%' and relkind = 'r' and relrowsecurity")" "$N"
    expect "$1: policies" "$(sql "$1" "select count(*) from pg_policies where tablename like 'bench\_%'")" "$N"
    expect "$1: owner indexes" "$(sql "$1" "select count(*) from pg_indexes where indexname like 'bench\_%\_owner\_idx'")" "$N"
}

# One function per tool: apply the N migrations to a fresh database, verify, record
# the seconds. Each starts after a checkpoint and a `sync`, so no tool pays for the
# writes of the one before (with fsync=off they would still be in the page cache,
# and the kernel would flush them during the next tool's run).
declare -a T_PSQL=() T_UP=() T_SQITCH=() T_YOYO=() T_DOWN=()
elapsed=""

settle() { sql postgres "checkpoint"; sync; }

fresh_db() { sql postgres "create database $1"; settle; }

apply_psql() {
    local db="bench_psql_$1"
    fresh_db "$db"
    elapsed="$(run_timed "$WORK/psql.log" psql -X -q -1 -v ON_ERROR_STOP=1 -d "$db" -f "$SRC/psql-1.sql")"
    verify_applied "$db"
    T_PSQL+=("$elapsed")
    say "  psql -1              ${elapsed}s"
    sql postgres "drop database $db"
}

pgwarden_url() { echo "postgresql:///$1?host=$SOCK&port=5432&user=postgres"; }

apply_pgwarden() {
    local db="bench_pgwarden_$1" url
    url="$(pgwarden_url "$db")"
    fresh_db "$db"
    # GNU time's maximum resident set size (KiB) goes to its own file, for the report.
    elapsed="$(run_timed "$WORK/pgwarden-up.log" "${MEASURE_RSS[@]}" \
        "$PGWARDEN" up --database-url "$url" --migrations "$SRC/pgwarden")"
    [ "${#MEASURE_RSS[@]}" -eq 0 ] || RSS_UP+=("$(tail -n 1 "$WORK/pgwarden-up.rss")")
    verify_applied "$db"
    expect "$db: pgwarden.schema_migrations rows" \
        "$(sql "$db" "select count(*) from pgwarden.schema_migrations where state = 'applied'")" "$N"
    T_UP+=("$elapsed")
    say "  pgwarden up          ${elapsed}s"
}

revert_pgwarden() {
    local db="bench_pgwarden_$1" url
    url="$(pgwarden_url "$db")"
    settle
    elapsed="$(run_timed "$WORK/pgwarden-down.log" \
        "$PGWARDEN" down --all --database-url "$url" --migrations "$SRC/pgwarden")"
    expect "$db: bench tables after down --all" "$(bench_tables "$db")" 0
    expect "$db: pgwarden.schema_migrations rows after down --all" \
        "$(sql "$db" "select count(*) from pgwarden.schema_migrations")" 0
    T_DOWN+=("$elapsed")
    say "  pgwarden down --all  ${elapsed}s"
    sql postgres "drop database $db"
}

apply_sqitch() {
    local db="bench_sqitch_$1"
    fresh_db "$db"
    elapsed="$(cd "$SRC/sqitch" && SQITCH_FULLNAME=Bench SQITCH_EMAIL=bench@example.invalid \
        run_timed "$WORK/sqitch.log" sqitch deploy "db:pg:$db")"
    verify_applied "$db"
    expect "$db: sqitch.changes rows" \
        "$(sql "$db" "select count(*) from sqitch.changes where project = 'bench'")" "$N"
    T_SQITCH+=("$elapsed")
    say "  sqitch deploy        ${elapsed}s"
    sql postgres "drop database $db"
}

apply_yoyo() {
    local db="bench_yoyo_$1"
    fresh_db "$db"
    elapsed="$(run_timed "$WORK/yoyo.log" yoyo apply --batch --no-config-file \
        --database "postgresql://postgres@/$db?host=$SOCK&port=5432" "$SRC/yoyo")"
    verify_applied "$db"
    expect "$db: _yoyo_migration rows" "$(sql "$db" "select count(*) from _yoyo_migration")" "$N"
    T_YOYO+=("$elapsed")
    say "  yoyo apply           ${elapsed}s"
    sql postgres "drop database $db"
}

# The order rotates from one repetition to the next, so with R > 1 no tool always
# runs first (or last); pgwarden down --all closes each repetition.
read -r -a TOOLS <<<"${TOOLS:-psql pgwarden sqitch yoyo}"
for tool in "${TOOLS[@]}"; do
    case "$tool" in psql | pgwarden | sqitch | yoyo) ;; *) die "TOOLS: unknown tool '$tool'";; esac
done
RSS_UP=()
MEASURE_RSS=()
[ -x /usr/bin/time ] && MEASURE_RSS=(/usr/bin/time -f %M -o "$WORK/pgwarden-up.rss")
for ((rep = 1; rep <= R; rep++)); do
    say "run $rep/$R"
    for ((k = 0; k < ${#TOOLS[@]}; k++)); do
        "apply_${TOOLS[(rep - 1 + k) % ${#TOOLS[@]}]}" "$rep"
    done
    if [[ " ${TOOLS[*]} " == *" pgwarden "* ]]; then revert_pgwarden "$rep"; fi
done

# ---------------------------------------------------------------- report

median() { [ "$#" -gt 0 ] || { echo -1; return; }; printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) printf "%.3f\n", v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

psql_s="$(median "${T_PSQL[@]}")"
up_s="$(median "${T_UP[@]}")"
sqitch_s="$(median "${T_SQITCH[@]}")"
yoyo_s="$(median "${T_YOYO[@]}")"
down_s="$(median "${T_DOWN[@]}")"

rss_up="$(median "${RSS_UP[@]}")"
awk -v n="$N" -v r="$R" -v psql="$psql_s" -v up="$up_s" -v sq="$sqitch_s" -v yo="$yoyo_s" \
    -v down="$down_s" -v rss="$rss_up" -v pgv="$("$BIN/postgres" --version)" -v strict="$STRICT" '
function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.2fx", a / b) : "n/a" }
function secs(v) { return v < 0 ? sprintf("%10s", "-") : sprintf("%10.3f", v) }
BEGIN {
    printf "\nMigration benchmark: %d migrations (table + index + RLS + policy each), ", n
    printf "median of %d run(s), %s\n\n", r, pgv
    printf "%-22s %10s   %s\n", "tool", "seconds", "ratio"
    printf "%-22s %10s   %s\n", "----", "-------", "-----"
    printf "%-22s %s   %s\n", "psql -1 (floor)", secs(psql), "pgwarden/psql   = " ratio(up, psql)
    printf "%-22s %s   %s\n", "pgwarden up", secs(up), (rss > 0 ? sprintf("max RSS %.1f MiB", rss / 1024) : "")
    printf "%-22s %s   %s\n", "sqitch deploy", secs(sq), "sqitch/pgwarden = " ratio(sq, up)
    printf "%-22s %s   %s\n", "yoyo apply", secs(yo), "yoyo/pgwarden   = " ratio(yo, up)
    printf "%-22s %s   %s\n", "pgwarden down --all", secs(down), ""
    fastest = (sq > 0 && (yo < 0 || sq < yo)) ? sq : yo
    ok1 = psql > 0 && up > 0 && up <= 1.5 * psql
    ok2 = up > 0 && fastest > 0 && fastest / up >= 4
    printf "\ntarget: pgwarden <= 1.5x psql -1:                   %s (%s)\n", ok1 ? "met" : "MISSED", ratio(up, psql)
    if (fastest > 0)
        printf "target: pgwarden >= 4x faster than min(sqitch, yoyo): %s (%s)\n", ok2 ? "met" : "MISSED", ratio(fastest, up)
    else { printf "target: pgwarden >= 4x faster than min(sqitch, yoyo): not measured (TOOLS)\n"; ok2 = 1 }
    exit (strict == "1" && !(ok1 && ok2)) ? 1 : 0
}'
