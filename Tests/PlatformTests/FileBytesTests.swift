import Foundation
import MarqueeTesting
import Testing

@testable import Platform
import MatrixCore

@Suite struct FileBytesTests {
  func temporaryFile(_ bytes: [UInt8]) throws -> String {
    let path = NSTemporaryDirectory() + "marquee-filebytes-\(getpid())-\(bytes.count)"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func readsFilesOfEverySizeWhole() throws {
    var random = SplitMix64(seed: 5)
    for size in [0, 1, 65_535, 65_536, 65_537, 300_001] {
      let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
      let path = try temporaryFile(bytes)
      defer { try? FileManager.default.removeItem(atPath: path) }
      #expect(try FileBytes.read(path, limit: 1 << 20) == bytes, "\(size) bytes")
    }
  }

  @Test func filesWithoutASizeAreReadToTheirEnd() throws {
    // /proc files report a size of 0 but have content.
    let status = try FileBytes.read("/proc/self/status", limit: 1 << 20)
    #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
    // /proc/sys gives its text to the first read alone: read whole, not its first byte.
    let pidMax = try FileBytes.read("/proc/sys/kernel/pid_max", limit: 1 << 20)
    let expected = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
    #expect(String(decoding: pidMax, as: UTF8.self) == expected && expected.count > 2)
  }

  @Test func theLimitAndMissingFilesAreErrors() throws {
    let path = try temporaryFile([UInt8](repeating: 7, count: 5000))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: FileBytes.ReadError(path: path, reason: "larger than 0 MiB", tooLarge: true)) {
      try FileBytes.read(path, limit: 4096)
    }
    #expect(try FileBytes.read(path, limit: 5000).count == 5000)
    #expect(throws: FileBytes.ReadError(path: "/nonexistent/x", reason: "No such file or directory")) {
      try FileBytes.read("/nonexistent/x", limit: 10)
    }
  }
}
