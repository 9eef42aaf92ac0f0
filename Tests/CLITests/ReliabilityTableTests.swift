import Foundation
import TestSupport
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

@Suite(.offThePool) struct ReliabilityTableTests {
  @Test func theTableHasItsRows() {
    #expect(ReliabilityRow.load().count >= 30)
  }

  @Test(arguments: ReliabilityRow.load())
  func everyRowBehavesAsDocumented(row: ReliabilityRow) throws {
    let folder = URL(fileURLWithPath: BinaryRunner.path).deletingLastPathComponent().path
    let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let result = try ChildProcess.run(
      "/bin/bash", ["-c", "set -o pipefail; " + row.command], environment: ["PATH": path], timeout: 30)
    let stderr = result.stderr
    #expect(!result.timedOut, "\(row.input): hung")
    #expect(!result.signalled, "\(row.input): ended by a signal")
    #expect(result.status == row.exit, "\(row.input): \(stderr)")
    if let prefix = row.stderrPrefix {
      #expect(stderr.hasPrefix(prefix), "\(row.input): \(stderr)")
    } else {
      #expect(stderr.isEmpty, "\(row.input): \(stderr)")
    }
  }
}
