#!/usr/bin/env bash
# Generated-plan benchmark: an access plan of TABLES tables x 5 personas (anon, three
# signed-in users, service_role; about 20 cells per table), with the policies of the
# usual shapes, cycling over the tables:
#   own       authenticated selects, inserts, updates, deletes its own rows (user_id = auth.uid())
#   public    anon and authenticated read every row
#   members   authenticated reads every row, writes its own
#   private   no policy: only service_role (bypassrls)
# Runs `pgwarden test` on plans of SIZES tables (default "50 100 200"), RUNS timed runs
# each (default 3, after one warm-up), and prints the medians and the cost per table,
# so that growth can be seen to be linear. One ephemeral server (`pgwarden dev --keep`),
# one database per size; leaves no server and no temporary directory.
#
# Environment: PGWARDEN (binary; otherwise built as scripts/release.sh builds it), SIZES, RUNS.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
SIZES="${SIZES:-50 100 200}"
RUNS="${RUNS:-3}"

WORK=""; DEV_PID=""
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$DEV_PID" ] && kill -0 "$DEV_PID" 2>/dev/null; then kill -TERM "$DEV_PID"; wait "$DEV_PID" 2>/dev/null || true; fi
    if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ensure_pgwarden

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pgwarden-bench-generated.XXXXXX")"
start_kept_dev
query_param() { printf '%s\n' "$ADMIN_URL" | sed -n "s/.*[?&]$1=\([^&]*\).*/\1/p"; }
HOST="$(query_param host)"; PORT="$(query_param port)"
USER_="$(printf '%s\n' "$ADMIN_URL" | sed -n 's|^postgresql://\([^@:/]*\).*|\1|p')"

shape() { case $(( $1 % 4 )) in 0) echo own ;; 1) echo public ;; 2) echo members ;; 3) echo private ;; esac; }

schema_sql() {  # $1 = tables
    local i
    for ((i = 1; i <= $1; i++)); do
        local t="t$i"
        echo "create table public.$t (id bigint generated always as identity primary key, user_id uuid, body text not null);"
        echo "alter table public.$t enable row level security;"
        echo "grant select, insert, update, delete on public.$t to anon, authenticated, service_role;"
        case "$(shape "$i")" in
        own) echo "create policy o on public.$t for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());" ;;
        public) echo "create policy r on public.$t for select to anon, authenticated using (true);" ;;
        members)
            echo "create policy r on public.$t for select to authenticated using (true);"
            echo "create policy i on public.$t for insert to authenticated with check (user_id = auth.uid());"
            echo "create policy u on public.$t for update to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());"
            echo "create policy d on public.$t for delete to authenticated using (user_id = auth.uid());" ;;
        private) ;;
        esac
    done
}

plan_yaml() {  # $1 = tables
    cat <<'YAML'
schemas: [public]
personas:
  anon: { role: anon }
  ava: { role: authenticated, email: ava.gen@example.com }
  ben: { role: authenticated, email: ben.gen@example.com }
  cyd: { role: authenticated, email: cyd.gen@example.com }
  service: { role: service_role }
setup:
  - |
    do $$
    declare t text;
    begin
      for t in select c.relname from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' loop
        execute format('insert into public.%I (user_id, body) select id, email from auth.users where email like %L', t, '%.gen@example.com');
        execute format('insert into public.%I (user_id, body) select id, email from auth.users where email like %L', t, '%.gen@example.com');
      end loop;
    end $$;
relations:
YAML
    local i
    for ((i = 1; i <= $1; i++)); do
        echo "  t$i:"
        echo "    sample: { user_id: auth.uid(), body: \"'probe'\" }"
        case "$(shape "$i")" in
        own)
            echo "    owner: user_id = auth.uid()"
            echo "    access: { anon: none, authenticated: { select: own, insert: own, update: own, delete: own }, service_role: all }" ;;
        public) echo "    access: { anon: read, authenticated: read, service_role: all }" ;;
        members)
            echo "    owner: user_id = auth.uid()"
            echo "    access: { anon: none, authenticated: { select: all, insert: own, update: own, delete: own }, service_role: all }" ;;
        private) echo "    access: { anon: none, authenticated: none, service_role: all }" ;;
        esac
    done
}


printf '\n%-8s %8s %12s %12s %14s\n' tables probes "median ms" "own ms" "ms per table"
for n in $SIZES; do
    db="gen_$n"
    psql -X -q -v ON_ERROR_STOP=1 -d "$ADMIN_URL" -c "create database $db" >/dev/null
    url="postgresql://$USER_@/$db?host=$HOST&port=$PORT"
    "$PGWARDEN" bootstrap --database-url "$url" >/dev/null
    schema_sql "$n" | psql -X -q -1 -v ON_ERROR_STOP=1 -d "$url" -f - >/dev/null
    plan_yaml "$n" >"$WORK/plan-$n.yml"
    times=(); owns=(); probes=0
    for ((r = 0; r <= RUNS; r++)); do
        start="$(now_us)"
        status=0
        "$PGWARDEN" test --database-url "$url" --plan "$WORK/plan-$n.yml" --format json >"$WORK/out.json" 2>"$WORK/err" || status=$?
        end="$(now_us)"
        if [ "$status" -ne 0 ]; then
            cat "$WORK/err" >&2
            perl -MJSON::PP -0777 -ne 'for (@{ decode_json($_)->{results} }) { print "$_->{subject} $_->{persona} $_->{probe}: $_->{observed}\n" unless $_->{passed} }' "$WORK/out.json" | head -20 >&2 || true
            die "pgwarden test failed on $n tables (exit $status)"
        fi
        read -r probes own <<<"$(perl -MJSON::PP -0777 -ne '$r = decode_json($_); print "$r->{probes} $r->{duration_milliseconds}"' "$WORK/out.json")"
        if [ "$r" -gt 0 ]; then times+=("$((end - start))"); owns+=("$own"); fi
    done
    med="$(median_us "${times[@]}")"; own_med="$(median_us "${owns[@]}")"
    awk -v n="$n" -v p="$probes" -v m="$med" -v o="$own_med" 'BEGIN { printf "%-8d %8d %12.0f %12.0f %14.2f\n", n, p, m / 1000, o, m / 1000 / n }'
done
