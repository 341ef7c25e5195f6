#!/bin/sh
# The `swift build` flags of Keyward's release binary, shared by `make install`,
# `make package` and the benchmark's installed build.
# - On Linux the Swift runtime is linked in statically, so the binary runs without a toolchain.
# - Generic types are made through their metadata accessors, not from mangled names: a type
#   made from its mangled name has each of its generic requirements (`Hashable`, say) checked
#   by a search through every protocol conformance of the binary, the first time in each process
#   (about 12,000 records here). Those searches were about a tenth of a short scan's time.
[ "$(uname -s)" = Linux ] && printf '%s ' --static-swift-stdlib
printf '%s\n' "-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors"
