import Drivers
import SimpleJSON

/// The board file the panel finder writes: a new one for `marquee find-panel`, or under
/// `marquee serve` the sign's own with the settings found put in, the rest as it was.
public enum FoundBoardFile {
  /// A board file for one chain of `chain` panels `columns` wide, of the height found.
  public static func new(columns: Int, chain: Int, mapping: String, found: PanelFinderDialogue.Found) -> String {
    let rows = found.setting.panelRows
    var members: [(key: String, value: JSONValue)] = [
      ("schema", .number(1)), ("name", .string("hub75-\(columns)x\(rows)-found")), ("description", .string("found by marquee find-panel")),
      ("driver", .string("hub75")), ("panel", .object([("columns", .number(Double(columns))), ("rows", .number(Double(rows)))])),
      ("grid", .object([("columns", .number(Double(chain))), ("rows", .number(1))])), ("mapping", .string(mapping)),
    ]
    put(found, into: &members)
    return JSONValue.object(members).editableText()
  }

  /// The board file `text` (read from `path`) with the settings found in place of its own.
  ///
  /// - Throws: ``SignFailure`` naming the file when it is no JSON object, or the result is
  ///   no HUB75 board.
  public static func edited(_ text: String, path: String, found: PanelFinderDialogue.Found) throws(SignFailure) -> String {
    guard case .object(var members)? = try? JSONParser.parse(text) else { throw SignFailure("\(path): the board file is no longer a JSON object") }
    put(found, into: &members)
    let edited = JSONValue.object(members).editableText()
    do {
      guard try SignBoard.read(json: edited, path: path).board.family is HUB75Board else { throw SignFailure("\(path): no longer a HUB75 board") }
    } catch let failure as SignFailure {
      throw failure
    } catch {
      throw SignFailure("\(error)")
    }
    return edited
  }

  /// Sets the panel's `rows` (the height found), `rowAddress`, `multiplexing`, `colorOrder`
  /// (unless RGB, the default, and not there before), `panelType` when the chips had to be
  /// started, and, when the arrangement was asked, `pixelMapper` (taken out for panels as
  /// wired), where they were, or at the end.
  static func put(_ found: PanelFinderDialogue.Found, into members: inout [(key: String, value: JSONValue)]) {
    let (setting, colorOrder) = (found.setting, found.colorOrder)
    // The height, where the file says it, or where its default is not the height found.
    let rows: JSONValue = .number(Double(setting.panelRows))
    let defaultRows = setting.panelRows == HUB75Board.defaultPanel.rows
    if let index = members.firstIndex(where: { $0.key == "panel" }), case .object(var panel) = members[index].value {
      if let member = panel.firstIndex(where: { $0.key == "rows" }) {
        panel[member].value = rows
      } else if !defaultRows {
        panel.append(("rows", rows))
      }
      members[index].value = .object(panel)
    } else if !defaultRows, !members.contains(where: { $0.key == "panel" }) {
      members.append(("panel", .object([("rows", rows)])))
    }
    var values: [(String, String)] = [("rowAddress", setting.rowAddress.rawValue), ("multiplexing", setting.multiplexing.rawValue)]
    if colorOrder != .rgb || members.contains(where: { $0.key == "colorOrder" }) { values.append(("colorOrder", colorOrder.rawValue)) }
    if let chips = found.panelInit { values.append(("panelType", chips.rawValue)) }
    if found.arranged {
      if let mapper = found.pixelMapper { values.append(("pixelMapper", mapper.description)) } else { members.removeAll { $0.key == "pixelMapper" } }
    }
    for (key, value) in values {
      if let index = members.firstIndex(where: { $0.key == key }) {
        members[index].value = .string(value)
      } else {
        members.append((key, .string(value)))
      }
    }
  }
}
