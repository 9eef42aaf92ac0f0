import Foundation
import Platform
import MarqueeTesting
import MatrixCore
import Testing

@Suite struct SnapshotHelperTests {
  /// A private folder for golden files written by these tests.
  func temporaryTestFile() -> String {
    var template = Array("/tmp/marquee-snapshot-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    return folder + "/ExampleTests.swift"
  }

  /// Removes the folder ``temporaryTestFile()`` made, with the golden files written in it.
  func removeFolder(of file: String) {
    try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent)
  }

  @Test func pathSitsBesideTheTestFile() {
    #expect(
      snapshotPath(testFile: "/p/Tests/X/FontTests.swift", testName: "glyphs()", name: "sheet 1")
        == "/p/Tests/X/__Snapshots__/FontTests/glyphs.sheet-1.txt")
  }

  @Test func missingGoldenFailsWithoutRecordingAndWritesNothing() {
    let file = temporaryTestFile()
    defer { removeFolder(of: file) }
    let framebuffer = Framebuffer(width: 2, height: 1)
    let failure = verifySnapshot(
      of: framebuffer, named: "a", testFile: file, testName: "t()", recording: .never)
    #expect(failure?.contains("No golden file") == true)
    let path = snapshotPath(testFile: file, testName: "t()", name: "a")
    #expect(access(path, F_OK) != 0)
  }

  @Test func recordingMissingWritesThenMatches() {
    let file = temporaryTestFile()
    defer { removeFolder(of: file) }
    var framebuffer = Framebuffer(width: 3, height: 2)
    framebuffer[1, 1] = true
    let first = verifySnapshot(
      of: framebuffer, named: "a", testFile: file, testName: "t()", recording: .missing)
    #expect(first?.contains("recorded") == true)
    #expect(verifySnapshot(
      of: framebuffer, named: "a", testFile: file, testName: "t()", recording: .never) == nil)
  }

  @Test func mismatchShowsExpectedActualAndDifference() {
    let file = temporaryTestFile()
    defer { removeFolder(of: file) }
    var framebuffer = Framebuffer(width: 3, height: 1)
    _ = verifySnapshot(of: framebuffer, named: "a", testFile: file, testName: "t", recording: .all)
    framebuffer[2, 0] = true
    let failure = verifySnapshot(
      of: framebuffer, named: "a", testFile: file, testName: "t", recording: .never)
    #expect(failure?.contains("Expected:\n...\nActual:\n..#\n") == true)
    #expect(failure?.contains("Difference (X marks 1 differing pixel):\n..X\n") == true)
  }
}
