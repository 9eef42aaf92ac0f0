#!/usr/bin/env bash
# Builds the marquee firmware example for a Cortex-M (Embedded Swift, Debian's
# gcc-arm-none-eabi and newlib) and runs it under qemu-system-arm, printing its frames in
# the format of `marquee --output ascii --frames N --fps F --no-wait`.
#
#   Tests/Embedded/run-qemu.sh --cpu m4|m0 [--stats] [marquee options] TEXT...
#
# --cpu m4: armv7em on QEMU's mps2-an386 (Cortex-M4), with 4 MB of RAM.
# --cpu m0: armv6m (the RP2040's Cortex-M0+) on mps2-an385, which runs armv6m code, with
#           264 KB of RAM, the RP2040's, for data, heap and stack together.
# The marquee options the firmware knows: --width --height --frames --fps --mode --in
# --out --duration --dwell --speed --gap --letter-spacing. --stats prints the figures
# (instructions per frame under -icount, allocations, heap and stack peaks) to standard
# error; --max7219 N encodes each frame for a chain of N FC-16 MAX7219 modules (as
# Boards/max7219-fc16-32x8.json is for 4), sends the bytes through the board's PL022 SPI
# block in loopback, and writes the bytes that came back through it to standard output
# instead of the frames (what `marquee --board ... --spi-dump FILE` writes to FILE).
# --sizes prints the image's sections, then its code, read-only data and constant objects,
# and exits.
#
# Builds once per CPU into .build/embedded-firmware, again when a source changes.
# Exit: the firmware's (0, or 1 with its error on standard error); 2 when a tool is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

cpu=m4
sizes=false
arguments=()
while (($#)); do
  case $1 in
    --cpu) cpu=${2:?--cpu needs m4 or m0}; shift 2 ;;
    --sizes) sizes=true; shift ;;
    *) arguments+=("$1"); shift ;;
  esac
done
case $cpu in
  m4) target=armv7em-none-none-eabi; gcc_cpu=(-mcpu=cortex-m4 -mthumb -mfloat-abi=softfp -mfpu=fpv4-sp-d16); machine=mps2-an386; ram=() ;;
  m0) target=armv6m-none-none-eabi; gcc_cpu=(-mcpu=cortex-m0plus -mthumb -mfloat-abi=soft); machine=mps2-an385
      ram=(-Wl,--defsym=__ram_size=264K) ;;
  *) echo "run-qemu.sh: --cpu: expected m4 or m0, got '$cpu'" >&2; exit 2 ;;
esac
for tool in swiftc arm-none-eabi-gcc qemu-system-arm; do
  command -v "$tool" > /dev/null || { echo "run-qemu.sh: $tool is not installed (Debian: gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm)" >&2; exit 2; }
done

source Tests/Embedded/modules.sh
firmware=Tests/Embedded/Firmware
build=.build/embedded-firmware/$cpu
swift_flags=(-target "$target" -enable-experimental-feature Embedded -wmo -parse-as-library -Osize
  -Xfrontend -function-sections -package-name marquee)
# swift_module MODULE FILE...: one module's object and interface, built again only when
# its files or flags, or a module built before it, change.
built=""
swift_module() {
  local module=$1
  shift
  local stamp
  local files=()
  for argument; do [[ -f $argument ]] && files+=("$argument"); done
  # The modules built before this one are in its stamp: a change to one they import
  # rebuilds this one too.
  stamp=$( (echo "${swift_flags[*]} $built"; cat "${files[@]}") | sha256sum | cut -c1-16)
  built+=" $stamp"
  [[ -f $build/$module.o && $(cat "$build/$module.stamp" 2> /dev/null) == "$stamp" ]] && return
  swiftc "${swift_flags[@]}" -module-name "$module" -I "$build/modules" \
    -emit-module -emit-module-path "$build/modules/$module.swiftmodule" -c "$@" -o "$build/$module.o"
  echo "$stamp" > "$build/$module.stamp"
  rm -f "$build/firmware.elf"
}
mkdir -p "$build/modules"
# One build at a time per CPU (tests run the script side by side).
exec 9> "$build/lock"
flock 9
for module in "${embedded_modules[@]}"; do
  mapfile -t files < <(module_files "$module")
  swift_module "$module" "${files[@]}"
done
swift_module Firmware -import-objc-header "$firmware/Firmware.h" "$firmware"/*.swift
if [[ ! -f $build/firmware.elf || $firmware/Hooks.c -nt $build/firmware.elf || $firmware/mps2.ld -nt $build/firmware.elf || $0 -nt $build/firmware.elf ]]; then
  arm-none-eabi-gcc "${gcc_cpu[@]}" -Os -std=c11 -masm-syntax-unified -Wall -Wextra -Werror -ffunction-sections -fno-builtin \
    -c "$firmware/Hooks.c" -o "$build/Hooks.o"
  arm-none-eabi-gcc "${gcc_cpu[@]}" -nostartfiles --specs=nano.specs -T "$firmware/mps2.ld" "${ram[@]}" \
    -Wl,--gc-sections -Wl,--no-enum-size-warning -Wl,--no-warn-execstack -Wl,-Map="$build/firmware.map" "$build"/*.o \
    "$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/embedded/$target/libswiftUnicodeDataTables.a" \
    -lc -lm -lgcc -o "$build/firmware.elf"
fi
flock -u 9
if $sizes; then
  arm-none-eabi-size -A "$build/firmware.elf"
  # The flash by kind, from the linker script's marks: code (with the vectors), read-only
  # data (strings, the stdlib's Unicode data), and Swift's constant objects (the tables).
  symbol() { arm-none-eabi-nm "$build/firmware.elf" | awk -v name="$1" '$3 == name { print "0x" $1 }'; }
  code=$(($(symbol __code_end__))) constants=$(($(symbol __constant_objects_start__)))
  echo "code: $code bytes"
  echo "read-only data: $((constants - code)) bytes"
  echo "constant objects: $(($(symbol __constant_objects_end__) - constants)) bytes"
  exit 0
fi

# Each argument goes whole through the semihosting command line, which splits at spaces:
# every byte is sent as %XX (Hooks.c decodes them).
escaped=(marquee)
for argument in "${arguments[@]}"; do
  escaped+=("$(printf '%s' "$argument" | od -An -v -tx1 | tr -d ' \n' | sed 's/../%&/g')")
done
config="enable=on,target=native"
for argument in "${escaped[@]}"; do config+=",arg=$argument"; done
exec qemu-system-arm -M "$machine" -nographic -monitor none -serial none -icount shift=0 \
  -semihosting-config "$config" -kernel "$build/firmware.elf"
