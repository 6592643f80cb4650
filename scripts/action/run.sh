#!/usr/bin/env bash
# action.yml: runs `pgwarden dev` or `pgwarden test` on the project folder, from
# the workspace root so that annotations name files as the repository does.
# Inputs come as environment variables (never spliced into the script):
# COMMAND, FORMAT, PROJECT, PGWARDEN_DATABASE_URL. With CHECK_ONLY=1 it only checks
# them (the action's first step, so a wrong input fails before anything is installed).
set -euo pipefail
fail() { echo "::error title=pgwarden action::$*" >&2; exit 64; }

command="${COMMAND:-dev}"
format="${FORMAT:-github}"
project="${PROJECT:-.}"
case "$command" in dev | test) ;; *) fail "command '$command' is not dev or test" ;; esac
case "$format" in text | junit | tap | json | github | markdown) ;;
    *) fail "format '$format' is not text, junit, tap, json, github or markdown" ;;
esac
[ -d "$project" ] || fail "project folder '$project' does not exist (relative to $PWD)"

# Paths as the repository names them: "migrations", or "examples/todo/migrations".
prefix=""
project="${project%/}"
[ "$project" = "." ] || [ -z "$project" ] || prefix="${project#./}/"

if [ "$command" = test ]; then
    # The URL stays in the environment (DATABASE_URL), off the command line; the
    # input wins over a DATABASE_URL the job already sets.
    [ -z "${PGWARDEN_DATABASE_URL:-}" ] || export DATABASE_URL="$PGWARDEN_DATABASE_URL"
    [ -n "${DATABASE_URL:-}" ] || fail "command test needs the database-url input (a secret)"
fi

[ "${CHECK_ONLY:-0}" != 1 ] || exit 0

pgwarden --version
case "$command" in
    dev)
        exec pgwarden dev --format "$format" \
            --migrations "${prefix}migrations" --seeds "${prefix}seeds" --plan "${prefix}access-plan.yml" ;;
    test)
        exec pgwarden test --format "$format" --plan "${prefix}access-plan.yml" ;;
esac
