import Foundation
import Testing

/// The GTFS-Realtime feeds and the timetable that Google's bindings write
/// (Tests/LiveDataTests/gtfs_feeds.py, with gtfs-realtime-bindings from PyPI in
/// .build/venv-sources, which .ci/run installs).
public enum GTFSFeeds {
  /// A Python that imports the bindings, or nil.
  public static let python = PythonTools.python(
    [ProcessInfo.processInfo.environment["MARQUEE_SOURCES_PYTHON"], ".build/venv-sources/bin/python"], importing: "google.transit.gtfs_realtime_pb2")
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("LiveDataTests/gtfs_feeds.py").path

  /// Writes the `kind` (`static`: the sample timetable's zip; `realtime`: a feed from the JSON
  /// `input`) to `path`.
  public static func write(_ kind: String, to path: String, input: String = "") throws {
    let result = try ChildProcess.run(try #require(python), [script, kind, path], input: Data(input.utf8))
    #expect(result.status == 0, "\(result.stderr)")
  }
}
