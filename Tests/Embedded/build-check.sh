#!/usr/bin/env bash
# Builds the pixel core (MatrixCore) in Embedded Swift for the three microcontroller
# architectures the toolchain ships (armv6m: Cortex-M0+, the RP2040; armv7em: Cortex-M4/M7;
# riscv32), with warnings as errors, so nothing that Embedded Swift lacks creeps into it.
# Prints the object size per target. Exit 0 when all build; 1 when one fails. Skips (exit 0,
# saying so) when the toolchain has no Embedded Swift standard library.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! echo 'public func probe() -> Int { 1 }' > "$out/probe.swift" \
  || ! swiftc -target armv7em-none-none-eabi -enable-experimental-feature Embedded -wmo -parse-as-library -c "$out/probe.swift" -o "$out/probe.o" 2>/dev/null; then
  echo "embedded build check skipped: this Swift toolchain has no Embedded Swift standard library"
  exit 0
fi
status=0
for target in armv6m-none-none-eabi armv7em-none-none-eabi riscv32-none-none-eabi; do
  if swiftc -target "$target" -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors \
    -module-name MatrixCore -Osize -c Sources/MatrixCore/*.swift -o "$out/MatrixCore-$target.o" 2> "$out/errors"; then
    echo "MatrixCore builds for $target in Embedded Swift: $(stat -c %s "$out/MatrixCore-$target.o") bytes of object code"
  else
    echo "MatrixCore does not build for $target in Embedded Swift:" >&2
    grep -E "error" "$out/errors" | head -20 >&2
    status=1
  fi
done
exit "$status"
