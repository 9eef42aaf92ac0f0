// swift-tools-version: 6.0
import PackageDescription

/// The release link of `marquee`: the runtime inside, the executed code first, no exported symbols.
let releaseLinkerFlags = [
  "-static-stdlib", "-use-ld=lld",
  "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/marquee/LinkOrder/link-order.txt",
  "-Xlinker", "--no-warn-symbol-ordering",
  "-Xlinker", "--no-export-dynamic",
]

/// The engine's modules under the ones that use them (FontCore under BitmapFonts,
/// TimelineCore under Marquee, MAX7219Core under Drivers, Platform under all) offer their
/// function bodies to their users in a release build, so a call across the line is inlined
/// and specialised as it was inside one module.
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
  name: "marquee",
  products: [
    .library(name: "Platform", targets: ["Platform"]),
    .library(name: "MatrixCore", targets: ["MatrixCore"]),
    .library(name: "FontCore", targets: ["FontCore"]),
    .library(name: "BitmapFonts", targets: ["BitmapFonts"]),
    .library(name: "TimelineCore", targets: ["TimelineCore"]),
    .library(name: "Marquee", targets: ["Marquee"]),
    .library(name: "MAX7219Core", targets: ["MAX7219Core"]),
    .library(name: "Drivers", targets: ["Drivers"]),
    .library(name: "MarqueeTesting", targets: ["MarqueeTesting"]),
    .library(name: "SimpleJSON", targets: ["SimpleJSON"]),
    .library(name: "LiveData", targets: ["LiveData"]),
    .library(name: "Deflate", targets: ["Deflate"]),
    .library(name: "HTTP", targets: ["HTTP"]),
    .library(name: "MQTT", targets: ["MQTT"]),
    .library(name: "SignService", targets: ["SignService"]),
    .library(name: "MarqueeServe", targets: ["MarqueeServe"]),
    .library(name: "MarqueeCLI", targets: ["MarqueeCLI"]),
    .executable(name: "marquee", targets: ["marquee"]),
    .executable(name: "marquee-bench", targets: ["marquee-bench"]),
    .executable(name: "marquee-https", targets: ["marquee-https"]),
    // Preloaded into the real marquee by marquee-bench to count its allocations per frame.
    .library(name: "MarqueeAllocationCounter", type: .dynamic, targets: ["AllocationCounter"]),
    // Preloaded into the real marquee by tests: spidev at the kernel's door, recorded.
    .library(name: "MarqueeFakeKernel", type: .dynamic, targets: ["FakeKernel"]),
  ],
  targets: [
    // Async-signal-safe signal handling and the kernel's clock state, against the system headers.
    .target(name: "CPlatform"),
    // Conversions of computed numbers to fixed-width integers that never trap. Depends on
    // nothing, so the engine builds without an operating system (Docs/embedded.md).
    .target(name: "TotalConversion"),
    // The kernel's door: the C library (named in one file), errno errors, EINTR, the clocks,
    // threads, owned descriptors, signals, whole-file reads. Re-exports TotalConversion.
    .target(name: "Platform", dependencies: ["CPlatform", "TotalConversion"], swiftSettings: crossModule),
    // Pixels: framebuffers, frames and the display protocol. Depends on nothing.
    .target(name: "MatrixCore"),
    .target(name: "SimpleJSON"),
    // What live data sources send, read: JSON paths and number formats, RSS and Atom feeds
    // (on a small XML reader), plain text. Pure and bounded, for the sign's sources.
    .target(name: "LiveData", dependencies: ["SimpleJSON", "Deflate"], exclude: ["Generator"]),
    // The font core: glyphs, the built-in fonts and icons, FontChain, TextRenderer and the
    // writing systems. Needs no operating system: it builds in Embedded Swift for a
    // microcontroller as it is (Docs/embedded.md). The tables' generators are scripts beside them.
    .target(name: "FontCore", dependencies: ["MatrixCore"], exclude: ["Writing/Generator", "Art"], swiftSettings: crossModule),
    // Font files and their formats, the font folders, picture files; re-exports FontCore.
    // DEFLATE, gzip members and CRC-32: bounded and fuzzed, for font files and zip archives.
    .target(name: "Deflate"),
    .target(name: "BitmapFonts", dependencies: ["Platform", "MatrixCore", "FontCore", "Deflate"]),
    // The timeline core: ribbon, cycle, transitions, zones and the Chinese calendar. Builds in
    // Embedded Swift (the time placeholders, which need the local time zone, left out there).
    .target(
      name: "TimelineCore", dependencies: ["Platform", "TotalConversion", "MatrixCore", "FontCore"], exclude: ["Calendar/Generator"],
      swiftSettings: crossModule),
    // The player, its clock, the sign with notifications; re-exports TimelineCore.
    .target(name: "Marquee", dependencies: ["Platform", "MatrixCore", "TimelineCore"]),
    // The kernel's uAPI headers (spidev): request numbers and layouts checked by the compiler.
    .target(name: "CKernel"),
    // The MAX7219 core: the encoder, its board and wiring, the SPI transactions it writes and
    // the chain's emulator. Builds in Embedded Swift (the firmware drives a chain with it).
    .target(name: "MAX7219Core", dependencies: ["MatrixCore"], swiftSettings: crossModule),
    // Where frames go: every LED family, transports to the kernel; re-exports MAX7219Core.
    .target(name: "Drivers", dependencies: ["Platform", "MatrixCore", "SimpleJSON", "CKernel", "MAX7219Core"]),
    .target(name: "MarqueeTesting", dependencies: ["Platform", "MatrixCore"]),
    // An HTTP/1.1 server with a responder seam: bytes to requests, requests to responses.
    .target(name: "HTTP", dependencies: ["Platform", "SimpleJSON"]),
    // An MQTT 3.1.1 client: packets to bytes and back, and a connection that keeps itself up.
    .target(name: "MQTT", dependencies: ["Platform"]),
    // What runs a sign the way marquee does, for the command line, the server and embedders:
    // the option model, config and layout files, content documents and the update queue,
    // fonts shared by file, the frame tap, and the plan that builds a sign from options.
    .target(name: "SignService", dependencies: ["Platform", "MatrixCore", "BitmapFonts", "Marquee", "Drivers", "SimpleJSON", "MQTT", "HTTP", "LiveData"]),
    // A served sign: the HTTP routes, the event stream and the page, the MQTT bridge and
    // Home Assistant's discovery, each an adapter over the sign session.
    .target(
      name: "MarqueeServe", dependencies: ["Platform", "MatrixCore", "BitmapFonts", "Marquee", "Drivers", "SimpleJSON", "HTTP", "MQTT", "SignService"],
      exclude: ["Page"]),
    .target(name: "MarqueeCLI", dependencies: ["Platform", "MatrixCore", "BitmapFonts", "Marquee", "Drivers", "SimpleJSON", "HTTP", "MQTT", "SignService", "MarqueeServe"]),
    .executableTarget(
      name: "marquee", dependencies: ["Platform", "MarqueeCLI"],
      exclude: ["LinkOrder"],
      // A release build carries the Swift runtime inside: one file to copy to a Pi, nothing
      // of the toolchain needed there, and about 2 MB less memory than the shared libraries.
      // lld lays the functions a running sign executes side by side (LinkOrder/link_order.py),
      // and the binary exports no symbols: 2.5 MB less resident memory while scrolling
      // (Docs/performance.md, "Resident memory").
      linkerSettings: [.unsafeFlags(releaseLinkerFlags, .when(platforms: [.linux], configuration: .release))]),
    // The sign's HTTPS fetches, one process each, through the toolchain's FoundationNetworking
    // (libcurl4): Foundation and libcurl are never loaded into the sign (Docs/sources.md).
    .executableTarget(name: "marquee-https", dependencies: ["Platform"]),
    .target(name: "AllocationCounter"),
    .target(name: "FakeKernel", linkerSettings: [.linkedLibrary("dl")]),
    .executableTarget(
      name: "marquee-bench",
      dependencies: ["Platform", "MatrixCore", "BitmapFonts", "Marquee", "Drivers", "AllocationCounter"],
      // The Python side of the luma comparison, run by `--luma PYTHON`, and the load test
      // of `marquee serve` (Docs/performance.md).
      exclude: ["Luma", "Load"]),
    // The Swift examples of README.md and Docs/, verbatim, built and run by DocExampleTests.
    .executableTarget(name: "ReadmeExample", dependencies: ["BitmapFonts", "Marquee"], path: "Tests/DocExamples/ReadmeExample"),
    .executableTarget(name: "ZonesExample", dependencies: ["BitmapFonts", "Marquee", "Drivers"], path: "Tests/DocExamples/ZonesExample"),
    .executableTarget(name: "ServiceExample", dependencies: ["Drivers", "Marquee", "SignService"], path: "Tests/DocExamples/ServiceExample"),
    .executableTarget(name: "PowerMeterExample", dependencies: ["Platform", "MatrixCore", "Marquee"], path: "Tests/DocExamples/PowerMeterExample"),
    .executableTarget(
      name: "CustomTransitionExample", dependencies: ["Platform", "MatrixCore", "BitmapFonts", "Marquee"],
      path: "Tests/DocExamples/CustomTransitionExample"),
    // Bounded, leak-free child processes for the tests that run binaries and tools.
    .target(name: "TestSupport", dependencies: ["Platform", "Drivers", "BitmapFonts", "SimpleJSON"], path: "Tests/TestSupport", exclude: ["tls_front.py"]),
    .testTarget(name: "PlatformTests", dependencies: ["Platform", "MatrixCore", "MarqueeTesting", "TestSupport"]),
    .testTarget(
      name: "MatrixCoreTests", dependencies: ["Platform", "MatrixCore", "MarqueeTesting", "TestSupport"],
      exclude: ["__Snapshots__"]),
    .testTarget(
      name: "BitmapFontsTests", dependencies: ["Platform", "FontCore", "Deflate", "BitmapFonts", "MarqueeTesting", "TestSupport"],
      exclude: ["__Snapshots__"]),
    .testTarget(
      name: "MarqueeTests", dependencies: ["Platform", "TimelineCore", "Marquee", "MarqueeTesting", "TestSupport"],
      exclude: ["__Snapshots__"]),
    .testTarget(name: "DriversTests", dependencies: ["Platform", "MAX7219Core", "Drivers", "CKernel", "Marquee", "SimpleJSON", "MarqueeTesting", "TestSupport"]),
    .testTarget(name: "SimpleJSONTests", dependencies: ["SimpleJSON"]),
    .testTarget(name: "LiveDataTests", dependencies: ["LiveData", "SimpleJSON", "TestSupport"], exclude: ["independent_readers.py", "gtfs_feeds.py", "calendar_occurrences.py"]),
    .testTarget(name: "HTTPTests", dependencies: ["Platform", "HTTP", "SimpleJSON", "TestSupport"]),
    .testTarget(name: "MQTTTests", dependencies: ["Platform", "MQTT", "TestSupport"]),
    // The option model, content documents and the API in-process: no program is started.
    .testTarget(
      name: "ServiceTests",
      dependencies: ["Platform", "MQTT", "SignService", "MarqueeServe", "MarqueeCLI", "HTTP", "Marquee", "MatrixCore", "SimpleJSON", "TestSupport"]),
    .testTarget(
      name: "CLITests", dependencies: ["Platform", "MQTT", "MarqueeCLI", "SignService", "MatrixCore", "BitmapFonts", "Marquee", "Drivers", "SimpleJSON", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
