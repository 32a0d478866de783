#!/usr/bin/env bash
# Face photos for the adapter-image face tests, which are not committed:
#
#   scripts/face_photos.sh DIR
#   IDV_TEST_FACES=DIR cargo test -p adapter-image
#
# They come from the face_recognition 1.3.0 source distribution on PyPI (MIT), whose
# tests hold official US government portraits (public domain): obama.jpg, obama2.jpg,
# biden.jpg. The archive is checked against the SHA-256 below before anything is taken
# from it, so a changed upload is refused rather than trusted.
set -euo pipefail
dir=${1:?usage: scripts/face_photos.sh DIR}
sha256=5e5efdd1686aa566af0d3cc1313b131e4b197657a8ffd03669e6d3fad92705ec
sdist=face_recognition-1.3.0.tar.gz
command -v pip >/dev/null || { echo "pip is needed to download from PyPI" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip download --quiet --no-deps --no-binary :all: face_recognition==1.3.0 -d "$tmp"
echo "$sha256  $tmp/$sdist" | sha256sum --check --quiet
mkdir -p "$dir"
for name in obama.jpg obama2.jpg biden.jpg; do
    tar -xzf "$tmp/$sdist" -C "$tmp" "face_recognition-1.3.0/tests/test_images/$name"
    cp "$tmp/face_recognition-1.3.0/tests/test_images/$name" "$dir/$name"
done
echo "face photos in $dir: obama.jpg obama2.jpg biden.jpg"
