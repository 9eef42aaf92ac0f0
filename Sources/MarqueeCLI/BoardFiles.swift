#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Drivers
import MatrixCore

/// Finding, reading and listing board files.
enum BoardFiles {
  /// Folders searched by `marquee boards`: `$MARQUEE_BOARDS` (colon-separated), then
  /// `./Boards`.
  static var searchFolders: [String] {
    var folders: [String] = []
    if let raw = getenv("MARQUEE_BOARDS") {
      folders += String(cString: raw).split(separator: ":").map(String.init)
    }
    folders.append("Boards")
    return folders
  }

  /// Reads a board file; errors name the file and the field.
  static func load(_ path: String) throws -> Board {
    let text = try TextFile.read(path)
    do {
      return try Board(json: text, path: path)
    } catch {
      throw RuntimeError(error.description)
    }
  }

  /// The JSON files in a folder, sorted.
  static func jsonFiles(in folder: String) -> [String] {
    FileBytes.entries(of: folder).filter { $0.hasSuffix(".json") }.map { folder + "/" + $0 }
  }

  /// One line per board file: its path, size, module variant and name (or its error).
  static func listing() -> String {
    var lines: [String] = []
    for folder in searchFolders {
      for path in jsonFiles(in: folder) {
        do {
          let board = try load(path)
          let module = ModuleWiring.named.first { $0.1 == board.wiring }?.0 ?? "custom"
          lines.append(
            path.padding(to: 36) + "\(board.width)x\(board.height)".padding(to: 8)
              + module.padding(to: 10) + board.name)
        } catch {
          lines.append(path.padding(to: 36) + "unusable: \(error)")
        }
      }
    }
    if lines.isEmpty { return "No board files found in \(searchFolders.joined(separator: ", ")).\n" }
    return lines.joined(separator: "\n") + "\n"
  }
}
