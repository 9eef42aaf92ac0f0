@testable import Drivers
@testable import MAX7219Core

/// What reading `json` as a board file (named `path`) says is wrong, or "" when it loads.
func boardFileError(_ json: String, path: String) -> String {
  do {
    _ = try SignBoard(json: json, path: path)
    return ""
  } catch {
    return error.description
  }
}
