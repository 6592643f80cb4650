#!/usr/bin/env bash
# pgTAP suite benchmark: the same folder of pgTAP files run by `pg_prove --ext .pg
# --ext .sql -r DIR` (what `supabase test db` runs) and by `pgwarden test --tests
# DIR` (no access plan: pgTAP alone), side by side in one run, on ONE ephemeral
# PostgreSQL server holding Electric Ride, migrated and seeded. Each side runs WARMUP
# untimed and RUNS timed times, alternating; every run must pass.
#
# The suite: bench/pgtap/electric_ride.sql (196 assertions, its own BEGIN/ROLLBACK and
# savepoints) and the integration tests' fixture suite
# (Tests/IntegrationTests/Fixtures/PgTAP/tests: 3 files, 13 assertions, one in a
# subfolder with the .pg extension, a TODO and a SKIP).
#
# Prints, per tool: files, assertions, median wall time and the ratio to pg_prove;
# then whether the target holds (pgwarden at least as fast as pg_prove).
#
# Environment:
#   RUNS      timed runs per tool (default 5); figures are medians
#   WARMUP    untimed runs per tool first (default 1)
#   PGWARDEN  pgwarden binary to use; otherwise built as scripts/release.sh builds it
#   SCRATCH   --scratch-path for that build (default: swift's own .build)
#   STRICT=1  exit 1 when a target is missed (default: report only)
#   LINK_DELAY_MS  then also over a delayed TCP link (bench/delay-proxy.py, loopback):
#             each tool LINK_RUNS times (default 1) with this many ms added each way
#             (default 5; 0 skips it), client-to-server round trips counted at the proxy
#
# Installs when missing (apt-get): postgresql-<major>-pgtap and
# libtap-parser-sourcehandler-pgtap-perl (pg_prove). Leaves no server and no temp dir.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

RUNS="${RUNS:-5}"
WARMUP="${WARMUP:-1}"
STRICT="${STRICT:-0}"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "bench: RUNS must be a positive integer" >&2; exit 64; }
[[ "$WARMUP" =~ ^[0-9]+$ ]] || { echo "bench: WARMUP must be a non-negative integer" >&2; exit 64; }


start_electric_ride_with_pgtap pgtap

# ---------------------------------------------------------------- the suite

SUITE="$WORK/suite"
mkdir -p "$SUITE"
cp bench/pgtap/electric_ride.sql "$SUITE/"
cp -R Tests/IntegrationTests/Fixtures/PgTAP/tests/. "$SUITE/"
PGWARDEN_ABS="$(cd "$(dirname "$PGWARDEN")" && pwd)/$(basename "$PGWARDEN")"
FILES="$(find "$SUITE" -type f \( -name '*.sql' -o -name '*.pg' \) | wc -l)"

# ---------------------------------------------------------------- runs


PGW_TESTS=""
TAP_TESTS=""
T_PGW=(); T_TAP=()

run_pgwarden() {  # $1 = timed (1) or not (0)
    local start end status=0
    # From an empty folder: no access-plan.yml there, so pgTAP alone decides.
    start="$(now_us)"
    (cd "$WORK" && "$PGWARDEN_ABS" test --database-url "$DB_URL" --tests "$SUITE" --format tap) \
        >"$WORK/pgwarden.tap" 2>"$WORK/pgwarden.err" || status=$?
    end="$(now_us)"
    if [ "$status" -ne 0 ]; then
        cat "$WORK/pgwarden.err" >&2
        grep -A4 '^not ok' "$WORK/pgwarden.tap" >&2 || true
        die "pgwarden test failed (exit $status)"
    fi
    PGW_TESTS="$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$WORK/pgwarden.tap")"
    [ -n "$PGW_TESTS" ] && [ "$PGW_TESTS" -gt 0 ] || die "pgwarden test ran no assertions"
    if [ "$1" -eq 1 ]; then T_PGW+=("$((end - start))"); fi
}

run_pg_prove() {
    local start end status=0
    start="$(now_us)"
    pg_prove --ext .pg --ext .sql -r "$SUITE" >"$WORK/pg_prove.out" 2>&1 || status=$?
    end="$(now_us)"
    if [ "$status" -ne 0 ] || ! grep -q '^Result: PASS' "$WORK/pg_prove.out"; then
        cat "$WORK/pg_prove.out" >&2
        die "pg_prove failed (exit $status)"
    fi
    TAP_TESTS="$(sed -n 's/.*Tests=\([0-9]*\).*/\1/p' "$WORK/pg_prove.out")"
    [ -n "$TAP_TESTS" ] && [ "$TAP_TESTS" -gt 0 ] || die "pg_prove ran no tests"
    if [ "$1" -eq 1 ]; then T_TAP+=("$((end - start))"); fi
}

say "pgwarden $("$PGWARDEN" --version 2>/dev/null || echo '?'), $(pg_prove --version 2>/dev/null | head -n 1), $SERVER_VERSION"
say "$FILES files; $WARMUP warm-up and $RUNS timed run(s) per tool, alternating"
for ((i = 1; i <= WARMUP + RUNS; i++)); do
    timed=$((i > WARMUP ? 1 : 0))
    run_pgwarden "$timed"
    run_pg_prove "$timed"
done

# ---------------------------------------------------------------- delayed link

LINK_DELAY_MS="${LINK_DELAY_MS:-5}"
LINK_RUNS="${LINK_RUNS:-1}"
[[ "$LINK_DELAY_MS" =~ ^[0-9]+$ ]] || die "LINK_DELAY_MS must be a non-negative integer"
[[ "$LINK_RUNS" =~ ^[1-9][0-9]*$ ]] || die "LINK_RUNS must be a positive integer"
# One tool's run through a fresh proxy: "<wall us> <round trips>".
through_proxy() {  # $1 = pgwarden | pg_prove
    local start end status=0
    start_proxy
    local port="$PROXY_PORT"
    start="$(now_us)"
    if [ "$1" = pgwarden ]; then
        (cd "$WORK" && "$PGWARDEN_ABS" test --tests "$SUITE" --format tap \
            --database-url "postgresql://$PGUSER@127.0.0.1:$port/$PGDATABASE?sslmode=disable") >"$WORK/link.out" 2>&1 \
            || status=$?
    else
        PGHOST=127.0.0.1 PGPORT="$port" PGSSLMODE=disable pg_prove --ext .pg --ext .sql -r "$SUITE" \
            >"$WORK/link.out" 2>&1 || status=$?
        grep -q '^Result: PASS' "$WORK/link.out" || status=1
    fi
    end="$(now_us)"
    stop_proxy
    [ "$status" -eq 0 ] || { head -c 2000 "$WORK/link.out" >&2; die "$1 over the delayed link failed"; }
    local trips
    trips="$(proxy_round_trips)"
    echo "$((end - start)) $trips"
}
L_PGW=(); L_TAP=(); R_PGW=""; R_TAP=""
if [ "$LINK_DELAY_MS" != "0" ]; then
    say "over a TCP link with $LINK_DELAY_MS ms added each way: $LINK_RUNS run(s) per tool"
    for ((i = 1; i <= LINK_RUNS; i++)); do
        read -r us trips <<<"$(through_proxy pgwarden)"; [ -n "${trips:-}" ] || die "no count from the proxy"; L_PGW+=("$us"); R_PGW="$trips"
        read -r us trips <<<"$(through_proxy pg_prove)"; [ -n "${trips:-}" ] || die "no count from the proxy"; L_TAP+=("$us"); R_TAP="$trips"
    done
fi

# ---------------------------------------------------------------- report


pgw="$(median_us "${T_PGW[@]}")"
tap="$(median_us "${T_TAP[@]}")"
awk -v runs="$RUNS" -v warm="$WARMUP" -v files="$FILES" \
    -v pgw="$pgw" -v pgw_lo="$(min_us "${T_PGW[@]}")" -v pgw_hi="$(max_us "${T_PGW[@]}")" -v pgw_n="$PGW_TESTS" \
    -v tap="$tap" -v tap_lo="$(min_us "${T_TAP[@]}")" -v tap_hi="$(max_us "${T_TAP[@]}")" -v tap_n="$TAP_TESTS" '
function row(name, n, us, lo, hi) {
    printf "%-40s %6d %6d %11.1f %15s %10.2fx\n", name, files, n, us / 1000,
        sprintf("%.0f-%.0f", lo / 1000, hi / 1000), tap / us
}
BEGIN {
    printf "\npgTAP suite: median of %d timed run(s) per tool (after %d warm-up), one server, one database\n\n", runs, warm
    printf "%-40s %6s %6s %11s %15s %11s\n", "tool", "files", "tests", "median ms", "range ms", "vs pg_prove"
    row("pgwarden test --tests DIR (wall)", pgw_n, pgw, pgw_lo, pgw_hi)
    row("pg_prove --ext .pg --ext .sql -r DIR", tap_n, tap, tap_lo, tap_hi)
    printf "\n\"vs pg_prove\" = pg_prove median / this tool'"'"'s median (above 1: faster)\n"
}'
link_faster=1
if [ "$LINK_DELAY_MS" != "0" ]; then
    lp="$(median_us "${L_PGW[@]}")"; lt="$(median_us "${L_TAP[@]}")"
    print_link_table 40 "vs pg_prove" 2 "$LINK_DELAY_MS" "$LINK_RUNS" \
        "pgwarden test --tests DIR" "$R_PGW" "$lp" "pg_prove --ext .pg --ext .sql -r DIR" "$R_TAP" "$lt"
    link_faster=$((lp < lt ? 1 : 0))
fi
faster=$((pgw <= tap ? 1 : 0))
echo
printf 'target: at least as fast as pg_prove .... %s (%d ms vs pg_prove %d ms)\n' \
    "$([ "$faster" -eq 1 ] && echo holds || echo MISSED)" "$((pgw / 1000))" "$((tap / 1000))"
if [ "$LINK_DELAY_MS" != "0" ]; then
    printf 'target: faster over the delayed link .... %s (%d ms vs pg_prove %d ms)\n' \
        "$([ "$link_faster" -eq 1 ] && echo holds || echo MISSED)" "$((lp / 1000))" "$((lt / 1000))"
fi
[ "$PGW_TESTS" = "$TAP_TESTS" ] || say "note: pgwarden counted $PGW_TESTS assertions, pg_prove $TAP_TESTS"
if [ "$STRICT" = "1" ] && { [ "$faster" -eq 0 ] || [ "$link_faster" -eq 0 ]; }; then exit 1; fi
exit 0
