import Foundation
import Testing

/// The kernel's door stays one small layer: one file names the C library, and the pixel
/// module depends on nothing.
@Suite struct PlatformBoundaryTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Every Swift file under `folder`, relative to the package root.
  func swiftFiles(_ folder: String) -> [String] {
    let base = PlatformBoundaryTests.root.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") && !$0.contains(".build/") }.map { folder + "/" + $0 }
  }

  /// The lines of `file` with their numbers, comments left out.
  func codeLines(_ file: String) throws -> [(number: Int, line: Substring)] {
    let text = try String(contentsOf: PlatformBoundaryTests.root.appendingPathComponent(file), encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
      line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? nil : (index + 1, line)
    }
  }

  /// Files outside Platform never name the C library: they reach it through Platform (or,
  /// in tests and the benchmark, through Foundation).
  @Test func onlyPlatformNamesTheCLibrary() throws {
    var offenders: [String] = []
    // Not after a slash: a time zone's name (`Australia/Darwin`) is not the C library.
    let pattern = try NSRegularExpression(pattern: #"(?<!/)\b(Glibc|Musl|Darwin)\b"#)
    for file in swiftFiles("Sources") + swiftFiles("Tests")
    where !file.hasPrefix("Sources/Platform/") && file != "Tests/PlatformTests/PlatformBoundaryTests.swift" {
      for (number, line) in try codeLines(file) where pattern.firstMatch(in: String(line), range: NSRange(line.startIndex..., in: line)) != nil {
        offenders.append("\(file):\(number): \(line)")
      }
    }
    #expect(swiftFiles("Sources").count > 100)
    #expect(offenders.isEmpty, Comment(rawValue: "only Sources/Platform may name the C library:\n" + offenders.joined(separator: "\n")))
  }

  /// Platform does not pass the C library on: no `@_exported import` of it anywhere, so a
  /// module that imports Platform alone cannot call the C library.
  @Test func nothingReExportsTheCLibrary() throws {
    var offenders: [String] = []
    let pattern = try NSRegularExpression(pattern: #"@_exported\s+(@\w+\s+)*import\s+(Glibc|Musl|Darwin|Foundation|CPlatform|CKernel)\b"#)
    for file in swiftFiles("Sources") {
      for (number, line) in try codeLines(file) where pattern.firstMatch(in: String(line), range: NSRange(line.startIndex..., in: line)) != nil {
        offenders.append("\(file):\(number): \(line)")
      }
    }
    #expect(offenders.isEmpty, Comment(rawValue: "the C library is re-exported:\n" + offenders.joined(separator: "\n")))
  }

  /// Outside Platform no code calls the C library's descriptor and sleep calls by their own
  /// names: `Descriptor`, `FileDescriptor`, `Socket` and `SignClock` are the way in, each
  /// retrying EINTR and saying its failure as `errno` where the call needs it. A method of
  /// one's own called so is written `self.read(` or `Type.read(`.
  @Test func theKernelsCallsGoThroughPlatform() throws {
    var offenders: [String] = []
    let call = try NSRegularExpression(pattern: #"(?<![\w.])(close|usleep|ioctl|read|write|open|poll|recv|send|pipe|nanosleep|getenv|LibC\.\w+)\("#)
    let declaration = try NSRegularExpression(pattern: #"\bfunc\s+(close|read|write|open|send|pipe)\("#)
    for file in swiftFiles("Sources") where !file.hasPrefix("Sources/Platform/") {
      for (number, line) in try codeLines(file) {
        // What is inside string literals (a page's script, a message) is not a call.
        let code = String(line).replacingOccurrences(of: #""(?:[^"\\]|\\.)*""#, with: "\"\"", options: .regularExpression)
        let range = NSRange(code.startIndex..., in: code)
        if call.firstMatch(in: code, range: range) != nil && declaration.firstMatch(in: code, range: range) == nil {
          offenders.append("\(file):\(number): \(line)")
        }
      }
    }
    #expect(offenders.isEmpty, Comment(rawValue: "C library calls outside Platform:\n" + offenders.joined(separator: "\n")))
  }

  @Test func matrixCoreImportsNothing() throws {
    let files = swiftFiles("Sources/MatrixCore")
    #expect(!files.isEmpty)
    for file in files {
      let text = try String(contentsOf: PlatformBoundaryTests.root.appendingPathComponent(file), encoding: .utf8)
      let imports = text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }
      #expect(imports.isEmpty, "\(file) imports \(imports)")
    }
    let manifest = try String(contentsOf: PlatformBoundaryTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(manifest.contains(#".target(name: "MatrixCore"),"#), "MatrixCore's target has no dependencies")
  }
}
