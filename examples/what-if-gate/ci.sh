#!/bin/sh
# CI step for a pull request that changes the invoice loop's config: re-decide last week's stored
# runs under the new knobs (no step is called, nothing is paid for) and fail the build when the
# change would lose more than 5% of the runs that proceeded, or would lose any success at all.
#   LOOPCHART_DB   the run store production writes (a SQLite file or a postgres:// URL)
#   WHAT_IF_SET    the knobs the pull request changes, e.g. "maxRetries=2 maxCost=500"
#   LOOPCHART      how to call the CLI (default: npx loopchart)
set -eu
: "${LOOPCHART_DB:=.loopchart/what-if-gate.db}"
: "${WHAT_IF_SET:=maxRetries=2}"
: "${LOOPCHART:=npx loopchart}"

set --
for knob in $WHAT_IF_SET; do set -- "$@" --set "$knob"; done

# shellcheck disable=SC2086 # LOOPCHART is a command line
$LOOPCHART what-if --db "$LOOPCHART_DB" --loop invoice --since 7d "$@" \
  --fail-if "proceed < 0.95 * recorded" \
  --fail-if "lost > 0"
