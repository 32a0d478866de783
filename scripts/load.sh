#!/usr/bin/env bash
# Load a running idv server with wrk and pre-signed requests (the client never signs on
# the hot path, so it is not the bottleneck).
#
#   scripts/load.sh URL CREDENTIALS_JSON KIND [COUNT] [SECONDS] [CONNECTIONS]
#
# CREDENTIALS_JSON: what `idv merchant create --json` printed. KIND: `create` (COUNT new
# profiles, each sent once) or `get` (COUNT existing profiles named load-0..: made by a
# `create` run or by `idv seed --prefix load`). Prints requests, non-2xx, p50, p99 and
# requests per second. Only ever point it at your own server (127.0.0.1).
set -euo pipefail
url=$1 creds=$2 kind=$3 count=${4:-100000} secs=${5:-15} conns=${6:-32}
here=$(cd "$(dirname "$0")" && pwd)
command -v wrk >/dev/null || { echo "wrk is needed (Debian: apt-get install wrk)" >&2; exit 1; }
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$creds" "$1"; }
reqs=$(mktemp)
trap 'rm -f "$reqs"' EXIT
python3 "$here/load/requests.py" "$kind" "$count" "$(field api_secret)" load >"$reqs"
API_KEY=$(field api_key) REQS=$reqs wrk -t1 -c"$conns" -d"${secs}s" -s "$here/load/replay.lua" "$url" | tail -n 1
