import Foundation
import Testing

/// Docs/architecture.md's table of targets says what Package.swift declares, and each
/// target imports what it declares (no more, no less): the table cannot go stale again.
@Suite struct ArchitectureDocTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// Modules of the toolchain a target may import without declaring them.
  static let toolchain: Set<String> = ["Dispatch", "Synchronization", "Foundation", "XCTest", "Testing"]

  /// Each `.target(name: "X", dependencies: [...])` of Package.swift, library targets only.
  static func declared() throws -> [String: Set<String>] {
    let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    var result: [String: Set<String>] = [:]
    for line in text.split(separator: "\n") where line.contains(".target(name: \"") {
      let name = line.split(separator: "\"")[1]
      var dependencies: Set<String> = []
      if let open = line.range(of: "dependencies: ["), let close = line[open.upperBound...].firstIndex(of: "]") {
        for part in line[open.upperBound..<close].split(separator: ",") {
          dependencies.insert(part.trimmingCharacters(in: CharacterSet(charactersIn: " \"")))
        }
      }
      result[String(name)] = dependencies
    }
    return result
  }

  /// The table's rows: a target named alone in backticks, and its last column's names.
  static func documented() throws -> [String: Set<String>] {
    let text = try String(contentsOf: root.appendingPathComponent("Docs/architecture.md"), encoding: .utf8)
    var result: [String: Set<String>] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let quoted = cells.first?.split(separator: "`", omittingEmptySubsequences: false) ?? []
      // `Name` alone, or `Name` (a note): one target per row.
      guard cells.count >= 4, quoted.count == 3, quoted[0].isEmpty else { continue }
      let name = String(quoted[1])
      let last = cells[cells.count - 1]
      result[name] = last == "nothing" ? [] : Set(last.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) })
    }
    return result
  }

  /// The modules a Swift target's sources import.
  static func imports(of target: String) -> Set<String>? {
    let folder = root.appendingPathComponent("Sources/\(target)")
    guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return nil }
    var modules: Set<String> = []
    var swift = false
    for case let file as URL in files where file.pathExtension == "swift" {
      swift = true
      // `import X`, and `@_exported import X` (attributes before the keyword).
      for line in (try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n") ?? []
      where line.hasPrefix("import ") || (line.hasPrefix("@") && line.contains(" import ")) {
        let module = line.hasPrefix("import ") ? line.dropFirst("import ".count) : line[line.range(of: " import ")!.upperBound...]
        modules.insert(String(module).trimmingCharacters(in: .whitespaces))
      }
    }
    return swift ? modules.subtracting(toolchain) : nil
  }

  @Test func theTableSaysWhatPackageSwiftDeclares() throws {
    let declared = try ArchitectureDocTests.declared()
    let documented = try ArchitectureDocTests.documented()
    #expect(declared.count >= 14)
    for (target, dependencies) in declared where !target.hasSuffix("Counter") && target != "FakeKernel" {
      let row = documented[target]
      #expect(row != nil, "Docs/architecture.md has no row for \(target)")
      #expect(row == nil || row == dependencies, "\(target): the table says \(row?.sorted() ?? []), Package.swift \(dependencies.sorted())")
    }
  }

  @Test func eachTargetImportsWhatItDeclares() throws {
    for (target, dependencies) in try ArchitectureDocTests.declared() {
      guard let imported = ArchitectureDocTests.imports(of: target) else { continue }
      #expect(imported == dependencies, "\(target) imports \(imported.sorted()) and declares \(dependencies.sorted())")
    }
  }
}
