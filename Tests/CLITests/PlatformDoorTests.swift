import Foundation
import TestSupport
import Testing

/// Platform is the one door to the C library, as the compiler sees it: a file that imports
/// Platform alone cannot call `close`, `usleep` or `ioctl`, and can do what they did through
/// Platform's own calls. Type-checked by the toolchain against the modules the suite was
/// built with.
@Suite(.offThePool) struct PlatformDoorTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Type-checks `source` as a file that imports Platform; the compiler's result.
  func typeCheck(_ source: String) throws -> ChildResult {
    let build = PlatformDoorTests.root.appendingPathComponent(".build/debug")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("platform-door-\(UUID().uuidString).swift")
    try ("import Platform\n" + source + "\n").write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    return try ChildProcess.run("/usr/bin/env", [
      "swiftc", "-typecheck", "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path,
      "-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("CPlatform.build/module.modulemap").path,
      file.path,
    ])
  }

  @Test(arguments: ["_ = close(0)", "_ = usleep(1000)", "var size = 0\n_ = ioctl(0, 0x5413, &size)", "_ = getenv(\"HOME\")", "_ = errno"])
  func aFileThatImportsPlatformCannotCallTheCLibrary(call: String) throws {
    let build = PlatformDoorTests.root.appendingPathComponent(".build/debug/Modules/Platform.swiftmodule")
    try #require(FileManager.default.fileExists(atPath: build.path), "the suite's debug build holds Platform's module")
    let result = try typeCheck(call)
    #expect(result.status != 0, "\(call) type-checked with Platform alone")
    #expect(result.stderr.contains("cannot find"), "\(result.stderr)")
  }

  @Test func platformOffersWhatTheyDid() throws {
    let build = PlatformDoorTests.root.appendingPathComponent(".build/debug/Modules/Platform.swiftmodule")
    try #require(FileManager.default.fileExists(atPath: build.path), "the suite's debug build holds Platform's module")
    let result = try typeCheck("""
      Descriptor.close(-1)
      SignClock.kernelSleep(0.001)
      var size: Int32 = 0
      _ = Descriptor.control(0, 0x541B, &size)
      _ = Environment.value("HOME")
      _ = Errno.current == Errno.interrupted
      """)
    #expect(result.status == 0, "\(result.stderr)")
  }
}
