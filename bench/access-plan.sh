#!/usr/bin/env bash
# Access-plan benchmark: Electric Ride's access plan proved by `pgwarden test`, side
# by side in one run with the same assertions hand-written as pgTAP
# (bench/pgtap/electric_ride.sql) and run by pg_prove, on ONE ephemeral PostgreSQL
# server holding one migrated and seeded database. Each side runs WARMUP untimed
# and RUNS timed times, alternating; every run must pass.
#
# Prints, per tool: checks (probes or assertions), median wall time, checks per
# second, and pgwarden's speed ratio to pg_prove; then whether the targets hold:
# the whole plan under 0.5 s and 4x faster than pg_prove; over the delayed link, at most
# 30 round trips and 10x faster than the pgTAP file through psql.
#
# Environment:
#   RUNS      timed runs per tool (default 5); figures are medians
#   WARMUP    untimed runs per tool first (default 1)
#   PGWARDEN  pgwarden binary to use; otherwise built as scripts/release.sh builds it
#   SCRATCH   --scratch-path for that build (default: swift's own .build)
#   STRICT=1  exit 1 when a target is missed (default: report only)
#   LINK_DELAY_MS  then also over a delayed TCP link (bench/delay-proxy.py, loopback):
#             this many ms added each way (default 5; 0 skips it); pgwarden test and
#             the pgTAP file through psql, LINK_RUNS times each (default 1), with the
#             client-to-server round trips counted at the proxy; LINK_TRACE=FILE
#             writes the start of each of pgwarden's round trips there
#
# Installs when missing (apt-get): postgresql-<major>-pgtap and
# libtap-parser-sourcehandler-pgtap-perl (pg_prove). Leaves no server and no temp dir.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

RUNS="${RUNS:-5}"
WARMUP="${WARMUP:-1}"
STRICT="${STRICT:-0}"
PLAN_FILE="access-plan.yml"
TAP_FILE="bench/pgtap/electric_ride.sql"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "bench: RUNS must be a positive integer" >&2; exit 64; }
[[ "$WARMUP" =~ ^[0-9]+$ ]] || { echo "bench: WARMUP must be a non-negative integer" >&2; exit 64; }


start_electric_ride_with_pgtap access

# ---------------------------------------------------------------- runs


PGW_PROBES=""
TAP_TESTS=""
PSQL_TESTS=""
T_PGW=(); T_PGW_OWN=(); T_TAP=(); T_PSQL=()
# The server's CPU time for each run (Linux): the postmaster's reaped children's user
# and system time (/proc/<pid>/stat), read before and after; the run's backend is one
# of them once it has ended and been reaped (hence the short pause after each run).
C_PGW=(); C_TAP=(); C_PSQL=()
PM_PID="$(head -n 1 "$SERVER_DIR/data/postmaster.pid" 2>/dev/null || true)"
TICK="$(getconf CLK_TCK 2>/dev/null || echo 100)"
server_cpu_us() {
    if [ -n "$PM_PID" ] && [ -r "/proc/$PM_PID/stat" ]; then
        awk -v tick="$TICK" '{ sub(/^.*\) /, ""); print int(($14 + $15) * 1000000 / tick) }' "/proc/$PM_PID/stat"
    else
        echo 0
    fi
}
cpu_before=0
cpu_start() { cpu_before="$(server_cpu_us)"; }
cpu_end() { sleep 0.05; echo $(( $(server_cpu_us) - cpu_before )); }

run_pgwarden() {  # $1 = timed (1) or not (0)
    local start end status=0
    cpu_start
    start="$(now_us)"
    "$PGWARDEN" test --database-url "$DB_URL" --plan "$PLAN_FILE" --format json >"$WORK/pgwarden.json" 2>"$WORK/pgwarden.err" || status=$?
    end="$(now_us)"
    if [ "$status" -ne 0 ]; then
        cat "$WORK/pgwarden.err" >&2
        "$PGWARDEN" test --database-url "$DB_URL" --plan "$PLAN_FILE" >&2 || true
        die "pgwarden test failed (exit $status)"
    fi
    # "probes failures duration_milliseconds", read with Perl's core JSON module.
    local summary
    summary="$(perl -MJSON::PP -0777 -ne '
        my $r = decode_json($_);
        my $failed = grep { !$_->{passed} } @{ $r->{results} };
        print join(" ", $r->{probes}, $failed, $r->{duration_milliseconds}, scalar @{ $r->{results} });
    ' "$WORK/pgwarden.json")"
    read -r probes failed own listed <<<"$summary"
    [ "$failed" -eq 0 ] && [ "$probes" -eq "$listed" ] && [ "$probes" -gt 0 ] \
        || die "pgwarden test: $probes probes, $listed results, $failed failed"
    PGW_PROBES="$probes"
    local cpu; cpu="$(cpu_end)"
    if [ "$1" -eq 1 ]; then T_PGW+=("$((end - start))"); T_PGW_OWN+=("$((own * 1000))"); C_PGW+=("$cpu"); fi
}

run_pg_prove() {
    local start end status=0
    cpu_start
    start="$(now_us)"
    pg_prove "$TAP_FILE" >"$WORK/pg_prove.out" 2>&1 || status=$?
    end="$(now_us)"
    if [ "$status" -ne 0 ] || ! grep -q '^Result: PASS' "$WORK/pg_prove.out"; then
        cat "$WORK/pg_prove.out" >&2
        pg_prove --verbose "$TAP_FILE" 2>&1 | grep -E '^(not ok|#)' >&2 || true
        die "pg_prove failed (exit $status)"
    fi
    TAP_TESTS="$(sed -n 's/.*Tests=\([0-9]*\).*/\1/p' "$WORK/pg_prove.out")"
    [ -n "$TAP_TESTS" ] && [ "$TAP_TESTS" -gt 0 ] || die "pg_prove ran no tests"
    local cpu; cpu="$(cpu_end)"
    if [ "$1" -eq 1 ]; then T_TAP+=("$((end - start))"); C_TAP+=("$cpu"); fi
}

# The same pgTAP file through psql alone: the database work without Perl's harness.
run_psql() {
    local start end status=0
    cpu_start
    start="$(now_us)"
    psql -X -q -t -A -v ON_ERROR_STOP=1 -f "$TAP_FILE" >"$WORK/psql.out" 2>&1 || status=$?
    end="$(now_us)"
    local planned ok notok
    planned="$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$WORK/psql.out")"
    ok="$(grep -c '^ok ' "$WORK/psql.out" || true)"
    notok="$(grep -c '^not ok ' "$WORK/psql.out" || true)"
    if [ "$status" -ne 0 ] || [ "$notok" -ne 0 ] || [ -z "$planned" ] || [ "$ok" -ne "$planned" ]; then
        grep -vE '^(ok |\{)' "$WORK/psql.out" >&2 || true
        die "the pgTAP file through psql failed (exit $status, $ok ok, $notok not ok, plan ${planned:-none})"
    fi
    PSQL_TESTS="$ok"
    local cpu; cpu="$(cpu_end)"
    if [ "$1" -eq 1 ]; then T_PSQL+=("$((end - start))"); C_PSQL+=("$cpu"); fi
}

say "pgwarden $("$PGWARDEN" --version 2>/dev/null || echo '?'), $(pg_prove --version 2>/dev/null | head -n 1), $SERVER_VERSION"
say "$WARMUP warm-up and $RUNS timed run(s) per tool, alternating"
for ((i = 1; i <= WARMUP + RUNS; i++)); do
    timed=$((i > WARMUP ? 1 : 0))
    run_pgwarden "$timed"
    run_pg_prove "$timed"
    run_psql "$timed"
done

# ---------------------------------------------------------------- delayed link

LINK_DELAY_MS="${LINK_DELAY_MS:-5}"
LINK_RUNS="${LINK_RUNS:-1}"
LINK_LINES=()
# One tool's run through a fresh proxy: "<wall us> <round trips>".
through_proxy() {  # $1 = pgwarden | psql
    local start end status=0
    local trace=()
    if [ -n "${LINK_TRACE:-}" ] && [ "$1" = pgwarden ]; then trace=(--trace "$LINK_TRACE"); fi
    start_proxy "${trace[@]}"
    local url="postgresql://$PGUSER@127.0.0.1:$PROXY_PORT/$PGDATABASE?sslmode=disable"
    start="$(now_us)"
    if [ "$1" = pgwarden ]; then
        "$PGWARDEN" test --database-url "$url" --plan "$PLAN_FILE" --format json >"$WORK/link.out" 2>&1 || status=$?
    else
        psql -X -q -t -A -v ON_ERROR_STOP=1 -d "$url" -f "$TAP_FILE" >"$WORK/link.out" 2>&1 || status=$?
        grep -q '^not ok' "$WORK/link.out" && status=1
    fi
    end="$(now_us)"
    stop_proxy
    [ "$status" -eq 0 ] || { head -c 2000 "$WORK/link.out" >&2; die "$1 over the delayed link failed"; }
    local trips
    trips="$(proxy_round_trips)"
    echo "$((end - start)) $trips"
}
if [ "$LINK_DELAY_MS" != "0" ]; then
    say "over a TCP link with $LINK_DELAY_MS ms added each way: $LINK_RUNS run(s) per tool"
    L_PGW=(); L_PSQL=(); R_PGW=""; R_PSQL=""
    for ((i = 1; i <= LINK_RUNS; i++)); do
        read -r us trips <<<"$(through_proxy pgwarden)"; [ -n "${trips:-}" ] || die "no count from the proxy"; L_PGW+=("$us"); R_PGW="$trips"
        read -r us trips <<<"$(through_proxy psql)"; [ -n "${trips:-}" ] || die "no count from the proxy"; L_PSQL+=("$us"); R_PSQL="$trips"
    done
fi

# ---------------------------------------------------------------- report


pgw="$(median_us "${T_PGW[@]}")"
pgw_own="$(median_us "${T_PGW_OWN[@]}")"
tap="$(median_us "${T_TAP[@]}")"
raw="$(median_us "${T_PSQL[@]}")"

awk -v runs="$RUNS" -v warm="$WARMUP" \
    -v pgw="$pgw" -v pgw_lo="$(min_us "${T_PGW[@]}")" -v pgw_hi="$(max_us "${T_PGW[@]}")" -v pgw_n="$PGW_PROBES" \
    -v own="$pgw_own" \
    -v tap="$tap" -v tap_lo="$(min_us "${T_TAP[@]}")" -v tap_hi="$(max_us "${T_TAP[@]}")" -v tap_n="$TAP_TESTS" \
    -v raw="$raw" -v raw_lo="$(min_us "${T_PSQL[@]}")" -v raw_hi="$(max_us "${T_PSQL[@]}")" -v raw_n="$PSQL_TESTS" '
function row(name, n, us, lo, hi) {
    printf "%-34s %7d %11.1f %13.0f %15s %10.2fx\n", name, n, us / 1000, n / (us / 1e6),
        sprintf("%.0f-%.0f", lo / 1000, hi / 1000), tap / us
}
BEGIN {
    printf "\nElectric Ride access plan: median of %d timed run(s) per tool (after %d warm-up), one server, one database\n\n", runs, warm
    printf "%-34s %7s %11s %13s %15s %11s\n", "tool", "checks", "median ms", "checks/s", "range ms", "vs pg_prove"
    row("pgwarden test (wall)", pgw_n, pgw, pgw_lo, pgw_hi)
    row("pg_prove electric_ride.sql (wall)", tap_n, tap, tap_lo, tap_hi)
    row("psql -f electric_ride.sql (wall)", raw_n, raw, raw_lo, raw_hi)
    printf "\npgwarden test: %d probes; its own run (catalog, users, setup, probes, rollback): median %.0f ms, %.0f probes/s\n",
        pgw_n, own / 1000, pgw_n / (own / 1e6)
    printf "pgTAP: %d assertions; \"vs pg_prove\" = pg_prove median / this tool'"'"'s median (above 1: faster)\n", tap_n
}'
if [ "$(median_us "${C_TAP[@]}")" -gt 0 ]; then
    printf 'server CPU per run (the postmaster'"'"'s reaped backends, median): pgwarden test %d ms, pg_prove %d ms, psql -f %d ms\n' \
        "$(( $(median_us "${C_PGW[@]}") / 1000 ))" "$(( $(median_us "${C_TAP[@]}") / 1000 ))" "$(( $(median_us "${C_PSQL[@]}") / 1000 ))"
fi

if [ "$LINK_DELAY_MS" != "0" ]; then
    lp="$(median_us "${L_PGW[@]}")"; lq="$(median_us "${L_PSQL[@]}")"
    print_link_table 34 "vs psql" 1 "$LINK_DELAY_MS" "$LINK_RUNS" \
        "pgwarden test" "$R_PGW" "$lp" "psql -f electric_ride.sql" "$R_PSQL" "$lq"
fi

under=$((pgw < 500000 ? 1 : 0))
faster=$((pgw * 4 <= tap ? 1 : 0))
echo
printf 'target: whole plan under 0.5 s ................ %s (pgwarden test median %d ms wall)\n' \
    "$([ "$under" -eq 1 ] && echo holds || echo MISSED)" "$((pgw / 1000))"
printf 'target: 4x faster than pg_prove ............... %s (%d ms vs pg_prove %d ms)\n' \
    "$([ "$faster" -eq 1 ] && echo holds || echo MISSED)" "$((pgw / 1000))" "$((tap / 1000))"
link_ok=1
if [ "$LINK_DELAY_MS" != "0" ]; then
    few=$((R_PGW <= 30 ? 1 : 0))
    tenfold=$((lp * 10 <= lq ? 1 : 0))
    printf 'target: at most 30 round trips (link) ........ %s (%d)\n' \
        "$([ "$few" -eq 1 ] && echo holds || echo MISSED)" "$R_PGW"
    printf 'target: 10x faster than psql over the link .... %s (%d ms vs %d ms)\n' \
        "$([ "$tenfold" -eq 1 ] && echo holds || echo MISSED)" "$((lp / 1000))" "$((lq / 1000))"
    link_ok=$((few && tenfold))
fi
if [ "$PGW_PROBES" != "$TAP_TESTS" ]; then
    say "note: $PGW_PROBES pgwarden probes but $TAP_TESTS pgTAP assertions; the files have drifted apart"
fi
if [ "$STRICT" = "1" ] && { [ "$under" -eq 0 ] || [ "$faster" -eq 0 ] || [ "$link_ok" -eq 0 ]; }; then exit 1; fi
exit 0
