import Platform
import Drivers
import Marquee
import MatrixCore
import SignService

/// Finding, reading and listing board files.
///
/// `--board` takes a path (anything with a `/` or ending in `.json`) or a board's name: its
/// file name without `.json`, in any letter case, looked up as fonts are, in ``searchFolders``.
enum BoardFiles {
  /// The folders board names are looked up in, in order: `./Boards`, `$MARQUEE_BOARDS`
  /// (colon-separated), the install folder (`share/marquee/Boards` beside the binary's
  /// `bin`), and this package's own `Boards/` (for `swift run` from anywhere).
  static var searchFolders: [String] {
    var folders = ["Boards"]
    if let raw = Environment.value("MARQUEE_BOARDS") {
      folders += raw.split(separator: ":").map(String.init)
    }
    if let executable = executablePath() {
      let bin = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
      folders.append(bin + "/../share/marquee/Boards")
    }
    let source = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
    folders.append(source + "/Boards")
    return folders
  }

  /// The running binary's path, from /proc.
  static func executablePath() -> String? { Environment.executablePath() }

  /// A board file found by name: its name and path.
  struct Entry {
    var name: String
    var path: String
  }

  /// Every board file in the search folders, by name; a name in an earlier folder hides the
  /// same name in a later one.
  static func entries() -> [Entry] {
    var seen = Set<String>()
    var found: [Entry] = []
    for folder in searchFolders {
      for path in jsonFiles(in: folder) {
        let name = String(path.split(separator: "/").last!.dropLast(5))
        if seen.insert(name.lowercased()).inserted { found.append(Entry(name: name, path: path)) }
      }
    }
    return found
  }

  /// The path `--board` means: the path itself, or the file of the board called `value`.
  ///
  /// - Throws: ``UsageError`` for a name no folder has, with the closest name.
  /// Whether `--board VALUE` names a file of the owner's (a path), not a board marquee ships.
  static func isPath(_ value: String) -> Bool { value.contains("/") || value.hasSuffix(".json") }

  static func resolve(_ value: String) throws(UsageError) -> String {
    if isPath(value) { return value }
    let boards = entries()
    if let entry = boards.first(where: { $0.name.lowercased() == value.lowercased() }) { return entry.path }
    let hint = closestName(to: value, among: boards.map(\.name)).map { " Did you mean '\($0)'?" } ?? ""
    throw UsageError("No board named '\(value)'.\(hint) See 'marquee boards' for the names, or give a path.")
  }

  /// Reads a board file; errors name the file and the field. Notices (an old key still
  /// read) go to standard error when `noticing`.
  static func load(_ path: String, noticing: Bool = true) throws -> SignBoard {
    let (board, notices) = try BoardFiles.read(path)
    if noticing { for notice in notices { printError("Notice: \(notice)") } }
    return board
  }

  static func read(_ path: String) throws -> (board: SignBoard, notices: [String]) {
    let text = try TextFile.read(path)
    do {
      return try SignBoard.read(json: text, path: path)
    } catch {
      // A bad value in a file named on the command line, as a config file's is.
      throw UsageError(error.description)
    }
  }

  /// What a board file describes, the way a person checks a new sign before wiring it: its
  /// family, size, device nodes, and each unit (module, backpack, panel) in data order with
  /// its place on the sign. A file that does not check is an error naming the field.
  static func check(_ path: String) throws -> String {
    let (board, notices) = try BoardFiles.read(BoardFiles.resolve(path))
    let units = board.units
    var lines = [
      "\(path): a valid board file (schema \(SignBoard.schemaVersion))",
      "name:    \(board.name)",
      "kind:    \(board.kind)",
      "size:    \(board.width)x\(board.height) pixels",
      "devices: \(board.devices.joined(separator: ", "))",
    ]
    if let hub75 = board.family as? HUB75Board, hub75.pixelMapper != .none {
      lines.append("mapper:  \(hub75.pixelMapper): the chain's \(hub75.matrixWidth)x\(hub75.matrixHeight) canvas shown as \(hub75.width)x\(hub75.height), each panel below where it lands")
    }
    lines.append("\(units.count) \(board.unitName)\(units.count == 1 ? "" : "s"), in data order:")
    for (number, unit) in units.enumerated() {
      guard unit.width > 0 else {
        lines.append("  \(number + 1): not shown (the pixel mapper leaves it off the sign)")
        continue
      }
      let first = unit.firstLED.map { ", first LED at x \($0.x), y \($0.y)" } ?? ""
      lines.append("  \(number + 1): \(unit.width)x\(unit.height) at x \(unit.x), y \(unit.y)\(first)")
    }
    lines += notices.map { "Notice: \($0)" }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The JSON files in a folder, sorted.
  static func jsonFiles(in folder: String) -> [String] {
    FileBytes.entries(of: folder).filter { $0.hasSuffix(".json") }.map { folder + "/" + $0 }
  }

  /// A header, then one line per board: the name `--board` takes, its size, chip family and variant,
  /// description, and the file (or why it cannot be used).
  static func listing() -> String {
    let boards = entries()
    if boards.isEmpty { return "No board files found in \(searchFolders.joined(separator: ", ")).\n" }
    let loaded = boards.map { entry in Result { try load(entry.path, noticing: false) } }
    // Columns as wide as their longest entry, so every line lines up.
    let nameWidth = boards.map(\.name.count).max()! + 2
    let kindWidth = max(6, loaded.compactMap { try? $0.get().kind.count }.max() ?? 0) + 2
    var lines = ["NAME".padding(to: nameWidth) + "SIZE".padding(to: 8) + "KIND".padding(to: kindWidth) + "DESCRIPTION"]
    for (entry, result) in zip(boards, loaded) {
      switch result {
      case .success(let board):
        lines.append(
          entry.name.padding(to: nameWidth) + "\(board.width)x\(board.height)".padding(to: 8)
            + board.kind.padding(to: kindWidth) + board.name + " (" + entry.path + ")")
      case .failure(let error):
        lines.append(entry.name.padding(to: nameWidth) + "unusable: \(error)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
