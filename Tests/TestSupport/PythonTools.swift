import Foundation

/// The Pythons with PyPI packages that `.ci/run` installs into venvs under `.build/`, for
/// tests that check against other people's implementations.
public enum PythonTools {
  /// Debian's Python with Pillow (python3-pil), or nil: the independent decoder of the
  /// pictures and GIFs tests check. Looked for once, for every suite that needs it.
  public static let pillow = python(["/usr/bin/python3"], importing: "PIL")

  /// The first of `paths` that is a Python able to import `modules` (comma-separated), or nil.
  public static func python(_ paths: [String?], importing modules: String) -> String? {
    paths.compactMap { $0 }.first { path in
      FileManager.default.isExecutableFile(atPath: path)
        && (try? ChildProcess(path, ["-c", "import \(modules)"]).wait(timeout: 30).status) == 0
    }
  }
}
