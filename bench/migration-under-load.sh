#!/usr/bin/env bash
# Migrations on a live database, and a 50 MB migration.
#
# Part 1 (load): pgbench runs its read/write (TPC-B-like) workload against
# pgbench_accounts; 2 s in, a report opens a transaction that reads the table and
# stays open HOLD seconds; 0.5 s later a migration adds a column to the table
# (`alter table ... add column`, which needs an ACCESS EXCLUSIVE lock). Done with
# pgwarden (--ddl-lock-timeout LOCK_TIMEOUT, --retries), `psql -1`, and yoyo, each
# under the same workload. A migration that waits for the lock without a limit makes
# every later query on the table queue behind it: the workload stalls until the
# report ends. Printed per tool: the migration's wall time and outcome, the
# workload's worst transaction latency (its longest stall), transactions and errors.
#
# Part 2 (large file): a generated migration of BIG_MB MB (BIG_ROWS-row inserts):
# `pgwarden status` wall time, `pgwarden up` wall time and peak memory (max RSS, as
# /usr/bin/time reports it) against the file size, and `psql -1 -f` for reference.
#
# Environment:
#   DURATION      seconds of pgbench workload per tool (default 12)
#   HOLD          seconds the report's transaction stays open (default 6)
#   LOCK_TIMEOUT  pgwarden --ddl-lock-timeout in seconds (default 0.5)
#   CLIENTS       pgbench clients (default 4); SCALE pgbench scale (default 5)
#   BIG_MB        size of the large migration in MB (default 50; 0 skips part 2)
#   LOAD=0        skip part 1
#   PGWARDEN      pgwarden binary to use; otherwise built as scripts/release.sh builds it
#   SCRATCH       --scratch-path for that build
#
# Installs when missing: pgbench and psql (Debian postgresql-client / postgresql-contrib,
# apt-get), yoyo-migrations with psycopg2-binary (pip), GNU time (apt-get). Leaves no
# server and no temporary directory behind.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-12}"
HOLD="${HOLD:-6}"
LOCK_TIMEOUT="${LOCK_TIMEOUT:-0.5}"
CLIENTS="${CLIENTS:-4}"
SCALE="${SCALE:-5}"
BIG_MB="${BIG_MB:-50}"
for v in DURATION HOLD CLIENTS SCALE BIG_MB; do
    [[ "${!v}" =~ ^[0-9]+$ ]] || { echo "bench: $v must be a whole number" >&2; exit 64; }
done

say() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=0
apt_install() {
    if [ "$apt_updated" -eq 0 ]; then as_root apt-get update -q >&2; apt_updated=1; fi
    say "installing (apt) $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2
}

pg_bindir() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    [ -n "$dir" ] && [ -x "$dir/initdb" ] || die "PostgreSQL server programs not found (apt-get install postgresql)"
    echo "$dir"
}

ensure_tools() {
    command -v psql >/dev/null 2>&1 || apt_install postgresql-client
    command -v pgbench >/dev/null 2>&1 || [ -x "$BIN/pgbench" ] || apt_install postgresql-contrib
    PGBENCH="$(command -v pgbench 2>/dev/null || echo "$BIN/pgbench")"
    [ -x /usr/bin/time ] || apt_install time
    if ! python3 -c 'import yoyo, psycopg2' >/dev/null 2>&1; then
        say "installing (pip) yoyo-migrations psycopg2-binary"
        local pip=(python3 -m pip install -q --disable-pip-version-check yoyo-migrations psycopg2-binary)
        as_root "${pip[@]}" >&2 || as_root "${pip[@]}" --break-system-packages >&2
        hash -r
    fi
    command -v yoyo >/dev/null 2>&1 || die "yoyo is still missing after installing it"
    if [ -z "${PGWARDEN:-}" ]; then
        # As scripts/release.sh builds what ships (bench/lib.sh's ensure_pgwarden).
        local build=(swift build -c release --static-swift-stdlib --product pgwarden --scratch-path "${SCRATCH:-.build-release}")
        say "building pgwarden (release, as scripts/release.sh builds it)"
        "${build[@]}" >&2
        PGWARDEN="$("${build[@]}" --show-bin-path)/pgwarden"
    fi
    [ -x "$PGWARDEN" ] || die "pgwarden binary not found: $PGWARDEN"
}

BIN="$(pg_bindir)"
ensure_tools

# ---------------------------------------------------------------- server

PG_OS_USER="${PGWARDEN_PG_USER:-postgres}"
WORK=""
DATA=""
as_pg() {
    if [ "$(id -u)" -eq 0 ]; then setpriv --reuid="$PG_OS_USER" --regid="$PG_OS_USER" --clear-groups "$@"; else "$@"; fi
}
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    jobs -p | xargs -r kill 2>/dev/null || true
    if [ -n "$DATA" ] && [ -f "$DATA/postmaster.pid" ]; then
        (cd / && as_pg "$BIN/pg_ctl" -D "$DATA" -m immediate -w -t 30 stop >/dev/null 2>&1) || true
    fi
    [ -z "$WORK" ] || rm -rf -- "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

BASE="${TMPDIR:-/tmp}"
if [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -gt 1048576 ]; then BASE=/dev/shm; fi
WORK="$(mktemp -d "$BASE/pgwarden-bench-load.XXXXXX")"
chmod 755 "$WORK"
DATA="$WORK/data"
SOCK="$WORK/socket"
mkdir -p "$DATA" "$SOCK"
if [ "$(id -u)" -eq 0 ]; then chown "$PG_OS_USER:" "$DATA" "$SOCK"; fi
chmod 700 "$DATA"
say "starting PostgreSQL ($BIN) in $WORK"
(cd / && as_pg "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$WORK/initdb.log" 2>&1) ||
    { cat "$WORK/initdb.log" >&2; die "initdb failed"; }
(cd / && as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 \
    -o "-c listen_addresses='' -k $SOCK -p 5432 -c fsync=off -c synchronous_commit=off -c max_connections=50" \
    start >/dev/null) || { cat "$DATA/server.log" >&2; die "PostgreSQL did not start"; }
unset PGDATABASE PGPASSWORD PGPASSFILE PGSERVICE PGHOSTADDR PGOPTIONS DATABASE_URL
export PGHOST="$SOCK" PGPORT=5432 PGUSER=postgres
sql() { psql -X -qAt -v ON_ERROR_STOP=1 -d "$1" -c "$2"; }
url() { echo "postgresql:///$1?host=$SOCK&port=5432&user=postgres"; }
now_ns() { date +%s%N; }
seconds_since() { awk -v a="$1" -v b="$(now_ns)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }

# ---------------------------------------------------------------- part 1: load

if [ "${LOAD:-1}" != 0 ]; then
sql postgres "create database load"
say "pgbench -i -s $SCALE"
"$PGBENCH" -i -q -s "$SCALE" load >"$WORK/pgbench-init.log" 2>&1 || { cat "$WORK/pgbench-init.log" >&2; die "pgbench -i failed"; }

# One migration per tool, each adding its own column (so each run has work to do).
mkdir -p "$WORK/pgwarden" "$WORK/yoyo"
printf -- '-- migrate:up\nalter table pgbench_accounts add column note_pgwarden text;\n-- migrate:down\nalter table pgbench_accounts drop column note_pgwarden;\n' \
    >"$WORK/pgwarden/1_add_note.sql"
printf 'alter table pgbench_accounts add column note_psql text;\n' >"$WORK/psql.sql"
printf 'alter table pgbench_accounts add column note_yoyo text;\n' >"$WORK/yoyo/0001_add_note.sql"

migrate_pgwarden() {
    "$PGWARDEN" up --database-url "$(url load)" --migrations "$WORK/pgwarden" \
        --ddl-lock-timeout "$LOCK_TIMEOUT" --retries 40
}
migrate_psql() { psql -X -q -1 -v ON_ERROR_STOP=1 -d load -f "$WORK/psql.sql"; }
migrate_yoyo() { yoyo apply --batch --no-config-file --database "postgresql://postgres@/load?host=$SOCK&port=5432" "$WORK/yoyo"; }
column_exists() { sql load "select count(*) from information_schema.columns where table_name = 'pgbench_accounts' and column_name = '$1'"; }

declare -A MIGRATION_S OUTCOME WORST_MS TXNS ERRORS
run_under_load() { # run_under_load TOOL COLUMN
    local tool="$1" column="$2" logdir="$WORK/log-$1" start status
    mkdir -p "$logdir"
    sql load "checkpoint"
    (cd "$logdir" && "$PGBENCH" -n -c "$CLIENTS" -j 2 -T "$DURATION" -l --log-prefix=txn load >pgbench.out 2>&1) &
    local bench=$!
    sleep 2
    psql -X -q -d load -c "begin; select count(*) from pgbench_accounts; select pg_sleep($HOLD); commit;" \
        >"$logdir/report.log" 2>&1 &
    local report=$!
    sleep 0.5
    start="$(now_ns)"
    status=0
    "migrate_$tool" >"$logdir/migration.log" 2>&1 || status=$?
    MIGRATION_S[$tool]="$(seconds_since "$start")"
    wait "$report" || true
    wait "$bench" || true
    if [ "$status" -eq 0 ] && [ "$(column_exists "$column")" = 1 ]; then OUTCOME[$tool]="applied"; else OUTCOME[$tool]="failed ($status)"; fi
    # Per-transaction log: client, transaction, latency in microseconds, ...
    WORST_MS[$tool]="$(cat "$logdir"/txn.* | awk '$3 > m { m = $3 } END { printf "%.0f", m / 1000 }')"
    TXNS[$tool]="$(cat "$logdir"/txn.* | wc -l)"
    ERRORS[$tool]="$(awk '/number of failed transactions/ { f = $5 } /aborted/ { a++ } END { print (f == "" ? 0 : f) + a }' "$logdir/pgbench.out")"
    say "  $tool: migration ${MIGRATION_S[$tool]} s, ${OUTCOME[$tool]}; workload worst ${WORST_MS[$tool]} ms, ${TXNS[$tool]} txns, ${ERRORS[$tool]} errors"
}

say "baseline: workload alone"
mkdir -p "$WORK/log-none"
(cd "$WORK/log-none" && "$PGBENCH" -n -c "$CLIENTS" -j 2 -T "$DURATION" -l --log-prefix=txn load >pgbench.out 2>&1)
BASE_WORST="$(cat "$WORK"/log-none/txn.* | awk '$3 > m { m = $3 } END { printf "%.0f", m / 1000 }')"
BASE_TXNS="$(cat "$WORK"/log-none/txn.* | wc -l)"
for tool in pgwarden psql yoyo; do
    say "under load: $tool"
    run_under_load "$tool" "note_$tool"
done

printf '\nMigration under load: pgbench (%d clients, %d s, scale %d) while a transaction reads\n' "$CLIENTS" "$DURATION" "$SCALE"
printf 'pgbench_accounts for %d s and a migration adds a column to it; %s\n\n' "$HOLD" "$("$BIN/postgres" --version)"
printf '%-34s %10s  %-12s %15s %8s %7s\n' "tool" "migration" "outcome" "worst stall ms" "txns" "errors"
printf '%-34s %10s  %-12s %15s %8s %7s\n' "no migration (baseline)" "-" "-" "$BASE_WORST" "$BASE_TXNS" 0
printf '%-34s %9ss  %-12s %15s %8s %7s\n' "pgwarden up (--ddl-lock-timeout $LOCK_TIMEOUT)" \
    "${MIGRATION_S[pgwarden]}" "${OUTCOME[pgwarden]}" "${WORST_MS[pgwarden]}" "${TXNS[pgwarden]}" "${ERRORS[pgwarden]}"
printf '%-34s %9ss  %-12s %15s %8s %7s\n' "psql -1" "${MIGRATION_S[psql]}" "${OUTCOME[psql]}" "${WORST_MS[psql]}" "${TXNS[psql]}" "${ERRORS[psql]}"
printf '%-34s %9ss  %-12s %15s %8s %7s\n' "yoyo apply" "${MIGRATION_S[yoyo]}" "${OUTCOME[yoyo]}" "${WORST_MS[yoyo]}" "${TXNS[yoyo]}" "${ERRORS[yoyo]}"
fi

# ---------------------------------------------------------------- part 2: a large file

[ "$BIG_MB" -gt 0 ] || exit 0
say "generating a ${BIG_MB} MB migration"
mkdir -p "$WORK/big"
python3 - "$WORK/big/1_big.sql" "$BIG_MB" <<'PY'
import sys
path, megabytes = sys.argv[1], int(sys.argv[2])
limit, size, i = megabytes * 1024 * 1024, 0, 0
with open(path, "w") as f:
    f.write("-- migrate:up\ncreate table big (id int, payload text);\n")
    while size < limit:
        line = f"insert into big values ({i}, 'payload {i}: lorem ipsum dolor sit amet; consectetur adipiscing elit');\n"
        f.write(line)
        size += len(line)
        i += 1
    f.write("-- migrate:down\ndrop table big;\n")
PY
sed -n '2,$p' "$WORK/big/1_big.sql" | sed '/^-- migrate:down/,$d' >"$WORK/big-psql.sql"
FILE_BYTES="$(stat -c %s "$WORK/big/1_big.sql")"
sql postgres "create database big"
measure() { # measure LOG CMD...: prints "seconds maxrss_kb cpu_seconds"
    local log="$1"
    shift
    /usr/bin/time -f '%e %M %U %S' -o "$log.time" "$@" >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "failed: $*"; }
    awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$log.time"
}
read -r STATUS_S STATUS_KB STATUS_CPU < <(measure "$WORK/status.log" bash -c "'$PGWARDEN' status --database-url '$(url big)' --migrations '$WORK/big'; [ \$? -eq 2 ]")
read -r UP_S UP_KB UP_CPU < <(measure "$WORK/up.log" "$PGWARDEN" up --database-url "$(url big)" --migrations "$WORK/big")
[ "$(sql big "select count(*) > 0 from big")" = t ] || die "the large migration did not apply"
sql postgres "create database big_psql"
read -r PSQL_S PSQL_KB PSQL_CPU < <(measure "$WORK/psql-big.log" psql -X -q -1 -v ON_ERROR_STOP=1 -d big_psql -f "$WORK/big-psql.sql")
awk -v bytes="$FILE_BYTES" -v ss="$STATUS_S" -v skb="$STATUS_KB" -v sc="$STATUS_CPU" -v us="$UP_S" -v ukb="$UP_KB" \
    -v uc="$UP_CPU" -v ps="$PSQL_S" -v pkb="$PSQL_KB" -v pc="$PSQL_CPU" 'BEGIN {
    mb = bytes / 1048576
    printf "\nLarge migration: %.1f MB file (CPU = user + system seconds of the client)\n\n", mb
    printf "%-26s %9s %9s %12s %14s\n", "command", "seconds", "CPU s", "max RSS MB", "RSS / file"
    printf "%-26s %9.2f %9.2f %12.1f %13.2fx\n", "pgwarden status", ss, sc, skb / 1024, skb / 1024 / mb
    printf "%-26s %9.2f %9.2f %12.1f %13.2fx\n", "pgwarden up", us, uc, ukb / 1024, ukb / 1024 / mb
    printf "%-26s %9.2f %9.2f %12.1f %13.2fx\n", "psql -1 -f (reference)", ps, pc, pkb / 1024, pkb / 1024 / mb
    printf "\ntarget: status under 1 s: %s; up memory under 3x the file: %s\n", ss < 1 ? "met" : "MISSED", ukb / 1024 / mb < 3 ? "met" : "MISSED"
}'
