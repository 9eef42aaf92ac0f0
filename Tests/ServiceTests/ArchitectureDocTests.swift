import Foundation
import Testing

/// Docs/architecture.md's table of targets says what Package.swift declares, and each
/// target imports what it declares (no more, no less): the table cannot go stale again.
@Suite struct ArchitectureDocTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// Modules of the toolchain a target may import without declaring them.
  static let toolchain: Set<String> = ["Dispatch", "Synchronization", "Foundation", "XCTest", "Testing"]

  /// Each library target of the package ("regular" type) and the targets and products it
  /// depends on, by name, as SwiftPM reads Package.swift (`swift package dump-package`,
  /// whatever its formatting); worked out once per run, its scratch folder removed after.
  static let libraryTargets: [String: Set<String>] = {
    let scratch = NSTemporaryDirectory() + "marquee-dump-package-\(getpid())"
    defer {
      try? FileManager.default.removeItem(atPath: scratch)
      // SwiftPM's lock for that folder, beside it: `_tmp_marquee-dump-package-PID.lock`.
      let lock = scratch.split(separator: "/").joined(separator: "_")
      try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "_" + lock + ".lock")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch, "dump-package"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return [:] }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let package = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    var result: [String: Set<String>] = [:]
    for target in package["targets"] as? [[String: Any]] ?? [] where target["type"] as? String == "regular" {
      guard let name = target["name"] as? String else { continue }
      var dependencies: Set<String> = []
      for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
        // {"byName": ["X", null]}, {"target": ["X", null]} or {"product": ["X", "package", …]}.
        for kind in ["byName", "target", "product"] {
          if let values = dependency[kind] as? [Any], let first = values.first as? String { dependencies.insert(first) }
        }
      }
      result[name] = dependencies
    }
    return result
  }()

  static func declared() throws -> [String: Set<String>] {
    try #require(!libraryTargets.isEmpty, "swift package dump-package gave no targets")
    return libraryTargets
  }

  /// The names the table's files column gives for each target, in backticks.
  static func files() throws -> [String: [String]] {
    let text = try String(contentsOf: root.appendingPathComponent("Docs/architecture.md"), encoding: .utf8)
    var result: [String: [String]] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let quoted = cells.first?.split(separator: "`", omittingEmptySubsequences: false) ?? []
      guard cells.count >= 4, quoted.count == 3, quoted[0].isEmpty else { continue }
      let parts = cells[1].split(separator: "`", omittingEmptySubsequences: false)
      result[String(quoted[1])] = stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
    }
    return result
  }

  /// Every name declared in Sources and Tests/TestSupport (`struct X`, `class X`, `enum X`,
  /// `protocol X`, `typealias X`, `func x`, `var x`, `let x`, a C function `x(`), and every
  /// file's name with and without its extension.
  static let names: Set<String> = {
    var names: Set<String> = []
    for folder in ["Sources", "Tests/TestSupport"] {
      guard let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil) else { continue }
      for case let file as URL in files {
        names.insert(file.deletingPathExtension().lastPathComponent)
        names.insert(file.lastPathComponent)
        guard ["swift", "c", "h"].contains(file.pathExtension), let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n") {
          let words = line.split(whereSeparator: { " :<{(,*".contains($0) })
          for (index, word) in words.enumerated().dropLast()
          where ["struct", "class", "enum", "protocol", "actor", "typealias", "extension", "func", "var", "let", "void", "int", "bool"].contains(String(word)) {
            names.insert(String(words[index + 1]))
          }
        }
      }
    }
    return names
  }()

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
      // Indented imports count too: those inside `#if !hasFeature(Embedded)`.
      // A system library imported where it can be (`#if canImport(...)`) is the platform's,
      // not a dependency.
      var previous: Substring = ""
      for raw in (try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n") ?? [] {
        let line = raw.drop { $0 == " " }
        defer { previous = line }
        guard line.hasPrefix("import ") || (line.hasPrefix("@") && line.contains(" import ")) else { continue }
        if previous.hasPrefix("#if canImport(") || previous.hasPrefix("#elseif canImport(") { continue }
        let module = line.hasPrefix("import ") ? line.dropFirst("import ".count) : line[line.range(of: " import ")!.upperBound...]
        modules.insert(String(module.prefix { $0 != "/" }).trimmingCharacters(in: .whitespaces))
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

  /// Every name the files column gives exists: a file or folder under the target's
  /// sources, or a type declared in Sources (`PlayerHeartbeat` was named for months after
  /// it was gone).
  @Test func everyNameInTheFilesColumnExists() throws {
    let files = try ArchitectureDocTests.files()
    #expect(files.count >= 14)
    let folders = ["Sources", "Tests"]
    for (target, names) in files {
      for name in names {
        // Folders and patterns: `Formats/*`, `Framebuffer*.swift`, `Session/*`.
        if name.hasSuffix("/*") {
          let folder = String(name.dropLast(2))
          #expect(folders.contains { FileManager.default.fileExists(atPath: ArchitectureDocTests.root.appendingPathComponent("\($0)/\(target)/\(folder)").path) }, "\(target): no folder \(folder)")
          continue
        }
        if name.contains("/") {
          #expect(folders.contains { FileManager.default.fileExists(atPath: ArchitectureDocTests.root.appendingPathComponent("\($0)/\(target)/\(name)").path) }, "\(target): no file \(name)")
          continue
        }
        if name.contains("*") || name.contains(" ") || name.contains("(") || name.contains(".") && !name.hasSuffix(".swift") && !name.hasSuffix(".c") && !name.hasSuffix(".h") { continue }
        let plain = name.hasSuffix(".swift") ? String(name.dropLast(6)) : name
        #expect(ArchitectureDocTests.names.contains(plain) || ArchitectureDocTests.names.contains(name), "\(target): Docs/architecture.md names \(name), which is neither a file nor a type in Sources")
      }
    }
  }
}
