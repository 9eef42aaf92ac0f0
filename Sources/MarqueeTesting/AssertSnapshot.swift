import MatrixCore

#if canImport(XCTest)
  import XCTest

  /// Asserts that a framebuffer matches its golden file (XCTest).
  ///
  /// The golden file is `__Snapshots__/<TestFile>/<test>.<name>.txt` beside the test file.
  /// See ``verifySnapshot(of:named:testFile:testName:recording:)`` for recording.
  public func assertSnapshot(
    _ framebuffer: Framebuffer, named name: String,
    file: StaticString = #filePath, testName: String = #function, line: UInt = #line
  ) {
    if let failure = verifySnapshot(
      of: framebuffer, named: name, testFile: "\(file)", testName: testName)
    {
      XCTFail(failure, file: file, line: line)
    }
  }
#endif

#if canImport(Testing)
  import Testing

  /// Expects that a framebuffer matches its golden file (Swift Testing).
  ///
  /// The golden file is `__Snapshots__/<TestFile>/<test>.<name>.txt` beside the test file.
  public func expectSnapshot(
    _ framebuffer: Framebuffer, named name: String,
    filePath: String = #filePath, testName: String = #function,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if let failure = verifySnapshot(
      of: framebuffer, named: name, testFile: filePath, testName: testName)
    {
      Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
  }
#endif
