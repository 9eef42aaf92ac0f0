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

  @Test func onlyLibCNamesTheCLibrary() throws {
    var offenders: [String] = []
    let pattern = try NSRegularExpression(pattern: #"\b(Glibc|Musl|Darwin)\b"#)
    for file in swiftFiles("Sources") + swiftFiles("Tests") where file != "Sources/Platform/LibC.swift" && file != "Tests/PlatformTests/PlatformBoundaryTests.swift" {
      let text = try String(contentsOf: PlatformBoundaryTests.root.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let range = NSRange(line.startIndex..., in: line)
        if pattern.firstMatch(in: String(line), range: range) != nil { offenders.append("\(file):\(number + 1): \(line)") }
      }
    }
    #expect(swiftFiles("Sources").count > 100)
    #expect(offenders.isEmpty, Comment(rawValue: "only Sources/Platform/LibC.swift may name the C library:\n" + offenders.joined(separator: "\n")))
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
