import Drivers

/// Writes a line to standard error, ignoring failures (there is nowhere left to report them).
package func printError(_ text: String) {
  try? writeAll(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: 2, what: "standard error")
}

/// Writes text to standard output.
package func printOutput(_ text: String) throws {
  try writeAll(Array(text.utf8), to: 1, what: "standard output")
}
