import Foundation

/// A model of a terminal screen, written from the ECMA-48 control functions the simulator
/// may send, to check what a person sees rather than the bytes: printable characters (one
/// column each, UTF-8), CR, LF (scrolling at the bottom), CUU/CUD (`ESC[nA`/`B`), CHA
/// (`ESC[nG`), CUP home (`ESC[H`), EL (`ESC[K`), ED (`ESC[2J`); other sequences (colours,
/// cursor visibility) change no character; DCH (`ESC[nP`) and ICH (`ESC[n@`) shift the
/// rest of the line. Each cell keeps its character and the
/// foreground colour it was written with.
struct TerminalScreen {
  let columns: Int, rows: Int
  var cells: [[Character]]
  var colours: [[Int]]
  var backgrounds: [[Int]]
  var row = 0, column = 0
  var foreground = -1, background = -1
  /// Lines scrolled off the top.
  var scrolled = 0

  init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    colours = Array(repeating: Array(repeating: -1, count: columns), count: rows)
    backgrounds = colours
  }

  mutating func feed(_ bytes: [UInt8]) {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
        var end = index + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        control(bytes[end], parameters)
        index = end + 1
      } else if byte == 0x0D {
        column = 0
        index += 1
      } else if byte == 0x0A {
        lineFeed()
        column = 0  // the simulator always sends CR LF or LF meaning a new line
        index += 1
      } else {
        let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        let text = String(decoding: bytes[index..<min(bytes.count, index + length)], as: UTF8.self)
        if column < columns {
          cells[row][column] = text.first ?? "?"
          colours[row][column] = foreground
          backgrounds[row][column] = background
        }
        column += 1
        index += length
      }
    }
  }

  mutating func lineFeed() {
    if row == rows - 1 {
      cells.removeFirst()
      cells.append(Array(repeating: " ", count: columns))
      colours.removeFirst()
      colours.append(Array(repeating: -1, count: columns))
      backgrounds.removeFirst()
      backgrounds.append(Array(repeating: -1, count: columns))
      scrolled += 1
    } else {
      row += 1
    }
  }

  mutating func control(_ final: UInt8, _ parameters: String) {
    let numbers = parameters.split(separator: ";").map { Int($0) ?? 0 }
    let n = max(1, numbers.first ?? 1)
    switch final {
    case UInt8(ascii: "A"): row = max(0, row - n)
    case UInt8(ascii: "B"): row = min(rows - 1, row + n)
    case UInt8(ascii: "G"): column = min(columns - 1, n - 1)
    case UInt8(ascii: "H"): (row, column) = (0, 0)
    case UInt8(ascii: "K"): for c in column..<columns { cells[row][c] = " "; colours[row][c] = -1 }
    case UInt8(ascii: "P"):  // DCH: delete n cells at the cursor, the rest of the line moves left
      for c in column..<columns {
        let from = c + n
        cells[row][c] = from < columns ? cells[row][from] : " "
        colours[row][c] = from < columns ? colours[row][from] : -1
        backgrounds[row][c] = from < columns ? backgrounds[row][from] : -1
      }
    case UInt8(ascii: "@"):  // ICH: insert n blank cells at the cursor, the rest moves right
      for c in stride(from: columns - 1, through: column, by: -1) {
        let from = c - n
        cells[row][c] = from >= column ? cells[row][from] : " "
        colours[row][c] = from >= column ? colours[row][from] : -1
        backgrounds[row][c] = from >= column ? backgrounds[row][from] : -1
      }
    case UInt8(ascii: "J") where numbers.first == 2:
      cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
      colours = Array(repeating: Array(repeating: -1, count: columns), count: rows)
      backgrounds = colours
    case UInt8(ascii: "m"):
      if numbers.count >= 3 && numbers[0] == 38 && numbers[1] == 5 { foreground = numbers[2] }
      if numbers.count >= 3 && numbers[0] == 48 && numbers[1] == 5 { background = numbers[2] }
      if numbers.isEmpty || numbers == [0] { (foreground, background) = (-1, -1) }
    default: break
    }
  }

  /// The screen's lines, trailing spaces removed.
  var lines: [String] {
    cells.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
  }
}
