import Foundation
import TestSupport
import Testing

/// What a run of the built `marquee` binary did.
typealias BinaryResult = ChildResult

/// Runs the `marquee` executable built beside the test bundle.
enum BinaryRunner {
  /// The path of the built binary: next to the running test executable, or
  /// `MARQUEE_TEST_BINARY` (to show a regression test failing against an older build).
  static var path: String {
    if let given = ProcessInfo.processInfo.environment["MARQUEE_TEST_BINARY"], !given.isEmpty { return given }
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("marquee").path
  }

  /// Runs the binary to its end (bounded: a hang is killed and fails the test).
  /// The locale the binary runs in unless a test gives its own: English, whatever the
  /// machine's (marquee speaks Chinese when the locale says so).
  static let english = ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"]

  static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> BinaryResult {
    let result = try ChildProcess.run(
      try checkedPath(), arguments, input: stdin.map { Data($0.utf8) }, environment: english.merging(environment) { $1 })
    #expect(!result.timedOut, "marquee \(arguments) did not end in time")
    return result
  }

  /// Starts the binary without waiting for it.
  static func start(_ arguments: [String], input: Bool = false, environment: [String: String] = [:]) throws -> ChildProcess {
    try ChildProcess(try checkedPath(), arguments, environment: environment, input: input)
  }

  private static func checkedPath() throws -> String {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CLIError("the marquee binary is not at \(path): run `swift build` first")
    }
    return path
  }
}

struct CLIError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Splits `--output ascii` output into frames (each H lines then an empty line).
func asciiFrames(_ output: String) -> [[String]] {
  output.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map {
    $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
}
