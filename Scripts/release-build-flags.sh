#!/bin/sh
# The `swift build` flags of Keyward's release binary, shared by `make install`,
# `make package` and the benchmark's installed build.
# - Generic types are made through their metadata accessors, not from mangled names: a type
#   made from its mangled name has each of its generic requirements (`Hashable`, say) checked
#   by a search through every protocol conformance of the binary, the first time in each process
#   (about 12,000 records here). Those searches were about a tenth of a short scan's time.
# - On Linux the Swift runtime is linked in statically, so the binary runs without a toolchain;
#   and the executable exports no symbols: the runtime looks one of its own addresses up with
#   `dladdr` at start-up, which walks every exported symbol (43,000, about half a millisecond).
if [ "$(uname -s)" = Linux ]; then
  printf '%s ' --static-swift-stdlib -Xlinker --no-export-dynamic
fi
printf '%s\n' "-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors"
