import Drivers
@testable import SignService
import SimpleJSON
import Testing

/// The board file the finder writes into under `marquee serve`: the settings found put in,
/// the panel's height among them, whether the file said a height or left it to the default.
@Suite struct FoundBoardFileTests {
  static func found(rows: Int) -> PanelFinderDialogue.Found {
    PanelFinderDialogue.Found(setting: HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .stripe, panelRows: rows), colorOrder: .rgb)
  }

  /// Each spelling of a 64-wide panel's size, with the height found (64 rows, or the
  /// default 32): the board read back has that height, and nothing else of the file changed.
  @Test(arguments: [
    #"{"driver": "hub75", "name": "a"}"#,
    #"{"driver": "hub75", "name": "a", "panel": {"columns": 64}}"#,
    #"{"driver": "hub75", "name": "a", "panel": {"columns": 64, "rows": 16}}"#,
  ])
  func theHeightFoundIsWrittenHoweverTheFileSaidIt(_ text: String) throws {
    for rows in [64, 32] {
      let edited = try FoundBoardFile.edited(text, path: "board.json", found: Self.found(rows: rows))
      let board = try #require(try SignBoard(json: edited, path: "board.json").family as? HUB75Board)
      #expect(board.panelColumns == 64 && board.panelRows == rows && board.multiplexing == .stripe, "\(edited)")
      #expect(try JSONParser.parse(edited)["name"] == .string("a"))
    }
  }
}
