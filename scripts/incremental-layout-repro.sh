#!/bin/sh
# The smallest package that shows why every target must list each module of this package it imports
# (docs/build-dependencies.md): SwiftPM's native build re-runs a target's compile only when a *listed*
# dependency's module changes. App imports Lib but lists only Mid; a stored property added to Lib's Inner
# grows Outer (which holds an Inner), and App keeps its objects built for the old size: it reads Outer.tag
# at the wrong offset, then Outer.init writes past App's stack slot ("Bad pointer dereference at 0x1").
#
#   scripts/incremental-layout-repro.sh            App lists only Mid: exits 1 on this toolchain (stale App)
#   scripts/incremental-layout-repro.sh --listed   App lists Mid and Lib: exits 0 (App rebuilt every time)
#
# Three incremental builds after a clean one, a few seconds each. Run it again after a toolchain upgrade:
# if the first form exits 0, SwiftPM tracks imported modules itself (swiftlang/swift-package-manager#10502).
set -eu

deps='"Mid"'
[ "${1:-}" = "--listed" ] && deps='"Mid", "Lib"'
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/Sources/Lib" "$dir/Sources/Mid" "$dir/Sources/App"
cat > "$dir/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription
let package = Package(name: "Repro", targets: [
    .target(name: "Lib"),
    .target(name: "Mid", dependencies: ["Lib"]),
    .executableTarget(name: "App", dependencies: [$deps]),
])
EOF
cat > "$dir/Sources/Lib/Inner.swift" <<'EOF'
public struct Inner: Sendable {
    public var a = 1
    public init() {}
}
EOF
cat > "$dir/Sources/Lib/Outer.swift" <<'EOF'
public struct Outer: Sendable {
    public var inner: Inner
    public var tag = 7
    public init(inner: Inner = Inner()) { self.inner = inner }
}
EOF
printf 'import Lib\npublic func midTag(_ outer: Outer) -> Int { outer.tag }\n' > "$dir/Sources/Mid/Mid.swift"
cat > "$dir/Sources/App/main.swift" <<'EOF'
import Lib
@inline(never) func make() -> Outer { Outer() }
print(make().tag, MemoryLayout<Outer>.size)
EOF

cd "$dir"
swift build >/dev/null 2>&1
status=0
for field in b c d; do
    sed -i "s/    public var a = 1/    public var a = 1\n    public var $field = 0/" Sources/Lib/Inner.swift
    swift build >/dev/null 2>&1
    # Outer is Inner's Ints and its tag, 8 bytes each.
    expected=$(( 8 + 8 * $(grep -c 'public var [a-d] =' Sources/Lib/Inner.swift) ))
    line=$(.build/debug/App 2>/dev/null) || line="crashed"
    if [ "$line" = "7 $expected" ]; then
        echo "Inner + $field: App sees tag 7, Outer $expected bytes (rebuilt)"
    else
        echo "Inner + $field: App printed '$line', Outer is $expected bytes: App kept a stale layout"
        status=1
    fi
done
exit $status
