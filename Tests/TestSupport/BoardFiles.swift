import Drivers
import Foundation

/// A board file of `Boards/` by name, read as `marquee --board NAME` reads it: the one
/// loader the tests share.
public func boardFile(_ name: String) throws -> SignBoard {
  let path = "Boards/\(name).json"
  return try SignBoard(json: try String(contentsOfFile: path, encoding: .utf8), path: path)
}
