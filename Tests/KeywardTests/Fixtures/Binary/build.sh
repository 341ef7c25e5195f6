#!/usr/bin/env bash
# Rebuilds the binary fixtures from src/ without Apple's tools: the Swift toolchain's clang
# compiles for iOS, Debian's lld-16 links (apt-get install lld-16), Python writes the universal
# header, the plists, the code signatures' entitlements and the .ipa. The outputs are committed
# so tests need no linker.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stubs="-L src/stubs -lSecurity -lLocalAuthentication -lCoreFoundation -lobjc -lSystem"

compile() { # target source object
  clang -target "$1" -O1 -fobjc-arc -c "$2" -o "$3"
}
link() { # arch platform output objects... (extra flags before objects)
  local arch=$1 platform=$2 output=$3
  shift 3
  ld64.lld-16 -arch "$arch" -platform_version "$platform" 15.0 15.0 $stubs "$@" -o "$output"
}
# ld64.lld reads `-lNAME` as libNAME.tbd; give the stubs those names.
for stub in Security LocalAuthentication CoreFoundation; do cp "src/stubs/$stub.tbd" "src/stubs/lib$stub.tbd"; done
trap 'rm -rf "$work" src/stubs/libSecurity.tbd src/stubs/libLocalAuthentication.tbd src/stubs/libCoreFoundation.tbd' EXIT

# VaultLegacy.app: universal executable, XML Info.plist without NSFaceIDUsageDescription,
# and an embedded framework.
compile arm64-apple-ios15.0 src/EventBound.m "$work/legacy-arm64.o"
compile x86_64-apple-ios15.0-simulator src/EventBound.m "$work/legacy-x86_64.o"
link arm64 ios "$work/legacy-arm64" "$work/legacy-arm64.o"
link x86_64 ios-simulator "$work/legacy-x86_64" "$work/legacy-x86_64.o"
rm -rf VaultLegacy.app
mkdir -p VaultLegacy.app/Frameworks/VaultKit.framework
python3 src/universal.py VaultLegacy.app/VaultLegacy "$work/legacy-arm64" "$work/legacy-x86_64"
python3 src/plist.py VaultLegacy.app/Info.plist xml VaultLegacy
compile arm64-apple-ios15.0 src/VaultKit.c "$work/kit.o"
ld64.lld-16 -arch arm64 -platform_version ios 15.0 15.0 -dylib \
  -install_name @rpath/VaultKit.framework/VaultKit $stubs "$work/kit.o" \
  -o VaultLegacy.app/Frameworks/VaultKit.framework/VaultKit
python3 src/plist.py VaultLegacy.app/Frameworks/VaultKit.framework/Info.plist xml VaultKit

# VaultMixed: a bare thin arm64 executable.
compile arm64-apple-ios15.0 src/WeakACL.m "$work/mixed.o"
link arm64 ios VaultMixed "$work/mixed.o"

# VaultSecure.ipa: Payload/VaultSecure.app with a binary Info.plist that has the Face ID reason.
compile arm64-apple-ios15.0 src/KeychainBound.m "$work/secure.o"
mkdir -p "$work/ipa/Payload/VaultSecure.app"
link arm64 ios "$work/ipa/Payload/VaultSecure.app/VaultSecure" "$work/secure.o"
python3 src/plist.py "$work/ipa/Payload/VaultSecure.app/Info.plist" binary VaultSecure \
  "Unlock your vault with Face ID"
rm -f VaultSecure.ipa
(cd "$work/ipa" && python3 -c '
import os, zipfile
with zipfile.ZipFile("out.ipa", "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, _, names in sorted(os.walk("Payload")):
        for name in sorted(names):
            archive.write(os.path.join(folder, name))
')
mv "$work/ipa/out.ipa" VaultSecure.ipa
# VaultFamily.app: who shipped each finding. The app (signed with a weak default data protection
# and a shared keychain group), a widget extension (userPresence; signed with
# NSFileProtectionComplete) and a vendor framework that imports an "always" class without loading
# it in code.
rm -rf VaultFamily.app
mkdir -p VaultFamily.app/PlugIns/VaultWidget.appex VaultFamily.app/Frameworks/AdsKit.framework
compile arm64-apple-ios15.0 src/Family.m "$work/family.o"
link arm64 ios VaultFamily.app/VaultFamily -headerpad 0x100 "$work/family.o"
python3 src/sign.py VaultFamily.app/VaultFamily application-identifier=ABCDE12345.com.example.vaultfamily \
  com.apple.developer.default-data-protection=NSFileProtectionCompleteUntilFirstUserAuthentication \
  keychain-access-groups=ABCDE12345.com.example.vaultfamily,ABCDE12345.com.example.shared
python3 src/plist.py VaultFamily.app/Info.plist xml VaultFamily "Unlock your vault with Face ID" --version 3.2
compile arm64-apple-ios15.0 src/Widget.m "$work/widget.o"
link arm64 ios VaultFamily.app/PlugIns/VaultWidget.appex/VaultWidget -headerpad 0x100 "$work/widget.o"
python3 src/sign.py VaultFamily.app/PlugIns/VaultWidget.appex/VaultWidget \
  application-identifier=ABCDE12345.com.example.vaultfamily.widget \
  com.apple.developer.default-data-protection=NSFileProtectionComplete \
  keychain-access-groups=ABCDE12345.com.example.vaultfamily.widget
python3 src/plist.py VaultFamily.app/PlugIns/VaultWidget.appex/Info.plist binary VaultWidget \
  --id com.example.vaultfamily.widget --version 3.2 --type 'XPC!'
compile arm64-apple-ios15.0 src/AdsKit.c "$work/ads.o"
ld64.lld-16 -arch arm64 -platform_version ios 15.0 15.0 -dylib \
  -install_name @rpath/AdsKit.framework/AdsKit $stubs "$work/ads.o" -o VaultFamily.app/Frameworks/AdsKit.framework/AdsKit
python3 src/plist.py VaultFamily.app/Frameworks/AdsKit.framework/Info.plist xml AdsKit \
  --id com.vendor.adskit --version 7.4.1 --type FMWK

# VaultDecoy: a bare arm64 executable with the evaluatePolicy selector in a method list only.
compile arm64-apple-ios15.0 src/Decoy.m "$work/decoy.o"
link arm64 ios VaultDecoy "$work/decoy.o"

# VaultFlag: a bare arm64 executable that evaluates a policy and makes no keychain call at all.
compile arm64-apple-ios15.0 src/FlagOnly.m "$work/flag.o"
link arm64 ios VaultFlag "$work/flag.o"

# VaultMixedUniversal: WeakACL.m for the simulator (x86_64) and for arm64e, with the arm64e CPU
# subtype and the __auth_stubs and __auth_got section names of Xcode's linker. lld-16 cannot link signed pointers in data
# (the block's descriptor), so the arm64e code signs return addresses but not function pointers.
compile x86_64-apple-ios15.0-simulator src/WeakACL.m "$work/mixed-x86_64.o"
link x86_64 ios-simulator "$work/mixed-x86_64" "$work/mixed-x86_64.o"
clang -target arm64e-apple-ios15.0 -O1 -fobjc-arc -fno-ptrauth-calls -c src/WeakACL.m -o "$work/mixed-arm64e.o"
link arm64e ios "$work/mixed-arm64e" "$work/mixed-arm64e.o"
python3 src/arm64e.py "$work/mixed-arm64e"
python3 src/universal.py VaultMixedUniversal "$work/mixed-x86_64" "$work/mixed-arm64e"

# VaultBranch: flags picked between constants by a branch (csinc/csel, cmov), arm64 and x86_64.
compile arm64-apple-ios15.0 src/Branch.m "$work/branch-arm64.o"
link arm64 ios "$work/branch-arm64" "$work/branch-arm64.o"
compile x86_64-apple-ios15.0-simulator src/Branch.m "$work/branch-x86_64.o"
link x86_64 ios-simulator "$work/branch-x86_64" "$work/branch-x86_64.o"
python3 src/universal.py VaultBranch "$work/branch-arm64" "$work/branch-x86_64"

# VaultMac.app: an Intel Mac app, laid out as macOS bundles are (Contents/Info.plist,
# Contents/MacOS, a framework under Versions/A with its plist in Resources).
rm -rf VaultMac.app
mkdir -p VaultMac.app/Contents/MacOS VaultMac.app/Contents/Frameworks/VaultKit.framework/Versions/A/Resources
compile x86_64-apple-macos12.0 src/WeakACL.m "$work/mac.o"
link x86_64 macos VaultMac.app/Contents/MacOS/VaultMac "$work/mac.o"
python3 src/plist.py VaultMac.app/Contents/Info.plist xml VaultMac --version 1.4
compile x86_64-apple-macos12.0 src/VaultKit.c "$work/mac-kit.o"
ld64.lld-16 -arch x86_64 -platform_version macos 12.0 12.0 -dylib \
  -install_name @rpath/VaultKit.framework/Versions/A/VaultKit $stubs "$work/mac-kit.o" \
  -o VaultMac.app/Contents/Frameworks/VaultKit.framework/Versions/A/VaultKit
python3 src/plist.py VaultMac.app/Contents/Frameworks/VaultKit.framework/Versions/A/Resources/Info.plist xml \
  VaultKit --version 2.0 --type FMWK

ls -l VaultMixed VaultSecure.ipa VaultLegacy.app/VaultLegacy VaultLegacy.app/Frameworks/VaultKit.framework/VaultKit \
  VaultFamily.app/VaultFamily VaultFamily.app/PlugIns/VaultWidget.appex/VaultWidget \
  VaultFamily.app/Frameworks/AdsKit.framework/AdsKit VaultDecoy VaultFlag VaultMixedUniversal VaultBranch \
  VaultMac.app/Contents/MacOS/VaultMac VaultMac.app/Contents/Frameworks/VaultKit.framework/Versions/A/VaultKit
