import Foundation
import Testing

/// What a run of the built `marquee` binary did.
struct BinaryResult {
  var status: Int32
  var stdout: String
  var stderr: String
  /// Whether the process was killed by a signal rather than exiting.
  var signalled: Bool
}

/// Runs the `marquee` executable built beside the test bundle.
enum BinaryRunner {
  /// The path of the built binary: next to the running test executable.
  static var path: String {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("marquee").path
  }

  static func run(_ arguments: [String], stdin: String? = nil) throws -> BinaryResult {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CLIError("the marquee binary is not at \(path): run `swift build` first")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty child never blocks.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return BinaryResult(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self),
      signalled: process.terminationReason == .uncaughtSignal)
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
