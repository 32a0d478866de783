#!/bin/bash
# The README's test command as a newcomer with only the README's prerequisites runs it,
# on a machine that has the Debian extras installed (docs/BENCHMARKS.md): a fresh clone,
# in a mount namespace of its own where tesseract, poppler's tools and PHP are bound over
# by /dev/null (not executable), with a HOME of its own (no face photos, no models, no
# moto in ~/.cache) and no axe-core (so no browser tests). Every test that needs one of
# those must report ignored, and the command must pass. Root only (mount namespaces).
#
#     scripts/bare_machine.sh [CARGO_TARGET_DIR]     (default: ~/.cache/idv-target)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-$HOME/.cache/idv-target}
clone=$(mktemp -d)
home=$(mktemp -d)
trap 'rm -rf "$clone" "$home"' EXIT
git clone -q "$here" "$clone/idv"
unshare -m bash -s "$clone/idv" "$home" "$target" "$HOME" <<'INNER'
set -euo pipefail
checkout=$1 home=$2 target=$3 real_home=$4
for program in tesseract pdftoppm pdfinfo pdftotext php; do
  path=$(command -v "$program" || true)
  [ -n "$path" ] && mount --bind /dev/null "$(readlink -f "$path")"
done
if tesseract --version > /dev/null 2>&1; then echo "tesseract still runs"; exit 1; fi
cd "$checkout"
start=$(date +%s)
status=0
env -i HOME="$home" CARGO_HOME="$real_home/.cargo" RUSTUP_HOME="$real_home/.rustup" \
  PATH="$real_home/.cargo/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 \
  CARGO_TARGET_DIR="$target" cargo test --workspace 2>&1 || status=$?
echo "cargo test --workspace: exit $status after $(( $(date +%s) - start )) s"
exit $status
INNER
