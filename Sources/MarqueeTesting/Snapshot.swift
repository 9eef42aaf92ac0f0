import MatrixCore

/// Where a snapshot's golden file lives: beside the test file, in
/// `__Snapshots__/<TestFile>/<test>.<name>.txt`.
public func snapshotPath(testFile: String, testName: String, name: String) -> String {
  let slash = testFile.lastIndex(of: "/")
  let folder = slash.map { String(testFile[..<$0]) } ?? "."
  var fileName = slash.map { String(testFile[testFile.index(after: $0)...]) } ?? testFile
  if fileName.hasSuffix(".swift") { fileName.removeLast(6) }
  return "\(folder)/__Snapshots__/\(fileName)/\(sanitize(testName)).\(sanitize(name)).txt"
}

/// Replaces runs of characters other than letters, digits, `-` and `_` with one `-`,
/// and drops a trailing `()` of a function name.
func sanitize(_ name: String) -> String {
  var base = Substring(name)
  if let paren = base.firstIndex(of: "(") { base = base[..<paren] }
  var result = ""
  var lastWasDash = false
  for character in base {
    if character.isLetter || character.isNumber || character == "_" || character == "-" {
      result.append(character)
      lastWasDash = false
    } else if !lastWasDash {
      result.append("-")
      lastWasDash = true
    }
  }
  return result
}

/// Compares a framebuffer with its golden file and returns why it does not match, or `nil`.
///
/// The golden file is the framebuffer's text form (`#` lit, `.` dark). A missing file fails;
/// with ``SnapshotRecording/missing`` or ``SnapshotRecording/all`` (from the environment
/// variable `MARQUEE_RECORD_SNAPSHOTS` by default) the file is written and the check still
/// fails once, so that a recorded snapshot is always looked at before it is trusted.
public func verifySnapshot(
  of framebuffer: Framebuffer, named name: String,
  testFile: String, testName: String,
  recording: SnapshotRecording = .fromEnvironment
) -> String? {
  let path = snapshotPath(testFile: testFile, testName: testName, name: name)
  let actual = framebuffer.text
  if recording == .all {
    return SnapshotFile.write(actual, to: path)
      ?? "Recorded snapshot \(path) (recording is on: review it, then run without "
      + "\(SnapshotRecording.environmentVariable))."
  }
  guard let stored = SnapshotFile.read(path) else {
    if recording == .missing {
      return SnapshotFile.write(actual, to: path)
        ?? "No golden file was found; recorded \(path). Review it and run the test again."
    }
    return "No golden file at \(path). Run with \(SnapshotRecording.environmentVariable)=missing "
      + "to record it.\nActual:\n\(actual)"
  }
  let expected: Framebuffer
  do {
    expected = try Framebuffer(text: stored)
  } catch {
    return "The golden file \(path) is not a framebuffer: \(error)"
  }
  if expected == framebuffer { return nil }
  return "Snapshot \(path) does not match.\n" + describeDifference(expected: expected, actual: framebuffer)
}

/// The expected grid, the actual grid and a grid marking the differing pixels with `X`.
public func describeDifference(expected: Framebuffer, actual: Framebuffer) -> String {
  var report = ""
  if expected.width != actual.width || expected.height != actual.height {
    report += "Size differs: expected \(expected.width)x\(expected.height), "
      + "got \(actual.width)x\(actual.height).\n"
  }
  report += "Expected:\n\(expected.text)Actual:\n\(actual.text)"
  let width = max(expected.width, actual.width)
  let height = max(expected.height, actual.height)
  var diff = ""
  var count = 0
  for y in 0..<height {
    for x in 0..<width {
      let differs =
        x >= expected.width || y >= expected.height || x >= actual.width || y >= actual.height
        || expected[x, y] != actual[x, y]
      if differs { count += 1 }
      diff.append(differs ? "X" : actual[x, y] ? "#" : ".")
    }
    diff.append("\n")
  }
  report += "Difference (X marks \(count) differing pixel\(count == 1 ? "" : "s")):\n\(diff)"
  return report
}
