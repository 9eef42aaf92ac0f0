import BitmapFonts
import HTTP
import MatrixCore
import SimpleJSON
import Testing

@testable import MarqueeServe
@testable import SignService

/// `GET /api/icons` lists each icon's name and sizes, and `GET /api/icons/NAME` gives its
/// smallest picture, bit for bit, for the page's picker.
@Suite struct IconPictureTests {
  @Test func eachIconsPictureIsItsSmallestBitForBit() throws {
    let served = try SignRoutesTests.Served()
    guard case .array(let listed) = try served.json(served.send("GET", "/api/icons")) else {
      Issue.record("no list")
      return
    }
    let icons = IconSet.builtIn
    #expect(listed.count == icons.names.count && listed.count > 30)
    for entry in listed {
      guard case .string(let name)? = entry["name"], let icon = icons[name], entry["picture"] == nil,
        case let picture = try served.json(served.send("GET", "/api/icons/\(name)")),
        case .number(let width)? = picture["width"], case .number(let height)? = picture["height"],
        case .array(let rows)? = picture["rows"]
      else {
        Issue.record("\(entry)")
        continue
      }
      let smallest = try #require(icon.pictures.min { $0.width * $0.height < $1.width * $1.height })
      #expect(Int(width) == smallest.width && Int(height) == smallest.height && rows.count == smallest.height, "\(name)")
      for (y, row) in rows.enumerated() {
        guard case .string(let hex) = row else { continue }
        for x in 0..<smallest.width {
          let byte = Int(hex.dropFirst((x / 8) * 2).prefix(2), radix: 16) ?? -1
          #expect((byte >> (7 - x % 8)) & 1 == (smallest[x, y] ? 1 : 0), "\(name) at \(x),\(y)")
        }
      }
    }
    #expect(served.send("GET", "/api/icons/no-such-icon").status == 404)
  }
}
