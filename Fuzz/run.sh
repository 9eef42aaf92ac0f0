#!/usr/bin/env bash
# Builds a libFuzzer binary per reader and runs each for SECONDS (default 60) from the seed
# corpus in Corpus/<target>. New inputs go to a scratch corpus, not into the repository;
# crashes are written as crash-* files in the scratch folder and end the run with status 1,
# and so does an input that takes longer than TIMEOUT seconds (default 10): a slow input is
# a finding even in a short run.
#   Fuzz/run.sh 600            # ten minutes each
#   Fuzz/run.sh 5 FuzzBDF      # one target
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
timeout_seconds="${TIMEOUT:-10}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzBDF FuzzHex FuzzPSF FuzzPCF FuzzGzip FuzzBoard FuzzFeedLine FuzzDocuments FuzzLayout FuzzHTTPRequest FuzzMQTTPacket FuzzPicture FuzzContentRoutes FuzzFleetState FuzzLiveData)

swift build -Xswiftc -sanitize=fuzzer,address 2>&1 | grep -E "error|warning: " || true
build=$(swift build --show-bin-path)
modules=(CPlatform TotalConversion Platform MatrixCore SimpleJSON Deflate FontCore BitmapFonts TimelineCore Marquee MAX7219Core Drivers HTTP MQTT LiveData SignService MarqueeServe MarqueeCLI)
objects=()
# The objects of each module's present sources (a file renamed or moved leaves its old
# object behind in the build folder).
for module in "${modules[@]}"; do
  if [ -f "$build/$module.build/sources" ]; then
    while IFS= read -r source; do
      object="$build/$module.build/$(basename "$source").o"
      if [ -f "$object" ]; then objects+=("$object"); fi
    done < "$build/$module.build/sources"
  else
    objects+=("$build/$module.build"/*.o)
  fi
done

scratch=$(mktemp -d)
status=0
for target in "${targets[@]}"; do
  if ! swiftc -sanitize=fuzzer,address "${objects[@]}" "$build/$target.build"/*.o -o "$scratch/$target" 2>"$scratch/$target.link.log"; then
    echo "$target FAILED to link:"
    tail -n 20 "$scratch/$target.link.log"
    status=1
    continue
  fi
  mkdir -p "$scratch/corpus-$target"
  echo "== $target: ${seconds}s"
  if ! "$scratch/$target" -max_total_time="$seconds" -timeout="$timeout_seconds" -print_final_stats=1 -rss_limit_mb=2048 \
      -artifact_prefix="$scratch/crash-$target-" "$scratch/corpus-$target" "Corpus/$target" 2>"$scratch/$target.log"; then
    echo "$target FAILED: see $scratch/$target.log and $scratch/crash-$target-*"
    tail -n 30 "$scratch/$target.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$scratch/$target.log" | tr '\n' ' '
    echo
  fi
done
exit $status
