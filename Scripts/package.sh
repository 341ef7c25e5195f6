#!/usr/bin/env bash
# Release packaging for the host platform:
#   dist/keyward-VERSION-TRIPLE.tar.gz       bin/keyward, README.md (unpack anywhere, put bin/ on PATH)
#   dist/keyward.artifactbundle/             a SwiftPM artifact bundle (info.json + the binary)
#   dist/keyward.artifactbundle.zip          the same, zipped, with its checksum in .sha256, for
#                                            .binaryTarget(name:url:checksum:)
# Uses the same release build as `make install` (Scripts/release-build-flags.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
# shellcheck disable=SC2207 # the flags are words without spaces
flags=(-c release --product keyward $(Scripts/release-build-flags.sh))
"$swift" build "${flags[@]}"
bin=$("$swift" build "${flags[@]}" --show-bin-path)/keyward
version=$("$bin" --version)
triple=$("$swift" -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["unversionedTriple"])')
name=keyward-$version-$triple
dist=${DIST:-dist}

rm -rf "$dist/$name" "$dist/$name.tar.gz" "$dist/keyward.artifactbundle" "$dist/keyward.artifactbundle.zip"
mkdir -p "$dist/$name/bin"
install -m 0755 "$bin" "$dist/$name/bin/keyward"
cp README.md "$dist/$name/"
tar -C "$dist" -czf "$dist/$name.tar.gz" "$name"

bundle=$dist/keyward.artifactbundle
mkdir -p "$bundle/$name/bin"
install -m 0755 "$bin" "$bundle/$name/bin/keyward"
cat >"$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "keyward": {
      "version": "$version",
      "type": "executable",
      "variants": [
        { "path": "$name/bin/keyward", "supportedTriples": ["$triple"] }
      ]
    }
  }
}
JSON
(cd "$dist" && rm -f keyward.artifactbundle.zip && zip -qr keyward.artifactbundle.zip keyward.artifactbundle)
if "$swift" package compute-checksum "$dist/keyward.artifactbundle.zip" >"$dist/keyward.artifactbundle.zip.sha256" 2>/dev/null; then
  :
else
  sha256sum "$dist/keyward.artifactbundle.zip" | cut -d' ' -f1 >"$dist/keyward.artifactbundle.zip.sha256"
fi
rm -rf "$dist/$name"
echo "$dist/$name.tar.gz"
echo "$bundle (and $bundle.zip, checksum $(cat "$dist/keyward.artifactbundle.zip.sha256"))"
