#!/usr/bin/env bash
# Builds the engine's modules that need no operating system (Tests/Embedded/modules.sh:
# MatrixCore, TotalConversion, FontCore, TimelineCore, MAX7219Core) in Embedded Swift for the three microcontroller architectures the toolchain ships (armv6m: Cortex-M0+,
# the RP2040; armv7em: Cortex-M4/M7; riscv32), with warnings as errors, so nothing that
# Embedded Swift lacks creeps into them.
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
source Tests/Embedded/modules.sh
# build TARGET MODULE WHAT FILE...: one module for TARGET, its interface kept for the next.
build() {
  local target=$1 module=$2 what=$3
  shift 3
  if swiftc -target "$target" -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors \
    -package-name marquee -module-name "$module" -Osize -I "$out/$target" \
    -emit-module -emit-module-path "$out/$target/$module.swiftmodule" \
    -c "$@" -o "$out/$module-$target.o" 2> "$out/errors"; then
    echo "$what builds for $target in Embedded Swift: $(stat -c %s "$out/$module-$target.o") bytes of object code"
  else
    echo "$what does not build for $target in Embedded Swift:" >&2
    grep -E "error" "$out/errors" | head -20 >&2
    return 1
  fi
}
status=0
for target in armv6m-none-none-eabi armv7em-none-none-eabi riscv32-none-none-eabi; do
  mkdir -p "$out/$target"
  for module in "${embedded_modules[@]}"; do
    mapfile -t files < <(module_files "$module")
    build "$target" "$module" "$module (${#files[@]} files)" "${files[@]}" || { status=1; break; }
  done
done
exit "$status"
