#!/usr/bin/env bash
# Runs schemathesis against the real server, generated from the served OpenAPI document,
# every request signed (scripts/schemathesis/signing.py): no answer may be a 5xx, and
# every answer must match the document.
#
#   scripts/fuzz_api.sh IDV_BINARY SCHEMATHESIS [postgres://.../db]
#
# Without a database URL it runs on a fresh SQLite file. FUZZ_CHECKS and FUZZ_EXCLUDE
# choose the checks (default: all of them, see below), FUZZ_EXAMPLES the examples per
# operation (40). Prints schemathesis' report; exits non-zero on any failure.
set -euo pipefail
idv=$1 st=$2 url=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
data=$(mktemp -d)
export IDV_DATA_DIR=$data IDV_MASTER_KEY=$(printf 'f0%.0s' {1..32}) IDV_LOG=warn
export IDV_API_RATE_LIMIT=0 IDV_AUTH_FAILURE_LIMIT=0
[ -n "$url" ] && export IDV_DATABASE_URL=$url
creds=$("$idv" merchant create --name Fuzz --json)
export IDV_API_KEY=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["api_key"])' "$creds")
export IDV_API_SECRET=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["api_secret"])' "$creds")
"$idv" serve --bind 127.0.0.1:0 > "$data/out" 2> "$data/server.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
# A debug build with face matching takes some 6 s to start (its models, its routes): the
# wait is for the line that says it listens, or for the server to be gone.
for _ in $(seq 1 600); do
  grep -q listening "$data/out" && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
base=$(sed -n 's/^listening on //p' "$data/out")
if [ -z "$base" ]; then
  echo "the server did not start listening; its log:" >&2
  cat "$data/server.log" >&2
  exit 1
fi
cd "$here/schemathesis"
# Every check schemathesis has, but those the signing hook makes moot (it signs every
# request, so the authentication checks cannot apply) and its generic positive-data check,
# which the hook's own `positive_data_accepted` replaces (it knows the answers that depend
# on stored data, such as PROFILE_NOT_FOUND).
checks=${FUZZ_CHECKS:-all}
exclude=${FUZZ_EXCLUDE-ignored_auth,missing_required_header,positive_data_acceptance}
fuzz() {
  SCHEMATHESIS_HOOKS=signing "$st" run "$base/api/v1/openapi.json" \
    --checks "$checks" ${exclude:+--exclude-checks "$exclude"} \
    --phases examples,coverage,fuzzing --max-examples "${FUZZ_EXAMPLES:-40}" \
    --workers 2 --no-color
}
# schemathesis itself once stopped with an internal error (a KeyError in hypothesis'
# cache, reported as a "Runtime Error"), with no check failed. Only such a run is tried
# once more, with the server still up: a failed check, or any sign of a server in
# trouble (network errors, timeouts, 5xx health), never is.
if ! fuzz > "$data/run" 2>&1; then
  cat "$data/run"
  if grep -q "Runtime Error" "$data/run" && grep -q "KeyError" "$data/run" \
    && ! grep -qE "FAILURES|Network Error|Unresponsive|Unhealthy|Unavailable|Hook Error|Health Check" "$data/run" \
    && kill -0 "$server" 2>/dev/null; then
    echo "== schemathesis stopped on an internal error (KeyError); once more" >&2
    fuzz
  else
    exit 1
  fi
else
  cat "$data/run"
fi
