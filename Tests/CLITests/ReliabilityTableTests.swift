import Foundation
import Testing

/// One row of the bad-input table in Docs/reliability.md.
struct ReliabilityRow: CustomStringConvertible, Sendable {
  var input: String
  var command: String
  var exit: Int32
  var stderrPrefix: String?

  var description: String { input }

  /// Reads the rows between the table's markers.
  static func load() -> [ReliabilityRow] {
    guard let text = try? String(contentsOfFile: "Docs/reliability.md", encoding: .utf8),
      let start = text.range(of: "<!-- reliability-table -->"),
      let end = text.range(of: "<!-- /reliability-table -->")
    else { return [] }
    var rows: [ReliabilityRow] = []
    for line in text[start.upperBound..<end.lowerBound].split(separator: "\n").dropFirst(2) {
      // Split on '|' that is not escaped as '\|'.
      var cells: [String] = [], cell = "", previous: Character = " "
      for character in line {
        if character == "|" && previous != "\\" {
          cells.append(cell)
          cell = ""
        } else if character == "|" {
          cell.removeLast()
          cell.append("|")
        } else {
          cell.append(character)
        }
        previous = character
      }
      let fields = cells.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count >= 4, let exit = Int32(fields[2]) else { continue }
      func unquote(_ text: String) -> String {
        text.hasPrefix("`") && text.hasSuffix("`") ? String(text.dropFirst().dropLast()) : text
      }
      rows.append(ReliabilityRow(
        input: fields[0], command: unquote(fields[1]), exit: exit,
        stderrPrefix: fields[3] == "—" ? nil : unquote(fields[3])))
    }
    return rows
  }
}

@Suite struct ReliabilityTableTests {
  @Test func theTableHasItsRows() {
    #expect(ReliabilityRow.load().count >= 30)
  }

  @Test(arguments: ReliabilityRow.load())
  func everyRowBehavesAsDocumented(row: ReliabilityRow) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", "set -o pipefail; " + row.command]
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = URL(fileURLWithPath: BinaryRunner.path).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    process.environment = environment
    let err = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: killer)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    killer.cancel()
    #expect(process.terminationReason == .exit, "\(row.input): ended by a signal")
    #expect(process.terminationStatus == row.exit, "\(row.input): \(stderr)")
    if let prefix = row.stderrPrefix {
      #expect(stderr.hasPrefix(prefix), "\(row.input): \(stderr)")
    } else {
      #expect(stderr.isEmpty, "\(row.input): \(stderr)")
    }
  }
}
