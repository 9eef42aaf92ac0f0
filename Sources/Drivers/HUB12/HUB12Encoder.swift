import MatrixCore

/// One scan cycle of a HUB12 sign: the bits of each row group, and how much of each row's
/// slot OE is on.
public struct HUB12Cycle: ByteBatch, Sendable {
  /// One transaction per row group, in group order: the bytes shifted for that group.
  public var groups = SPITransactions()
  /// The share of each row's slot the rows are lit, 0...1 (brightness and fades).
  public var onFraction = 0.0

  public init() {}

  public mutating func removeAll() {
    groups.removeAll()
    onFraction = 0
  }
}

/// Turns frames into the shift-register bytes of a chain of HUB12 panels, one transaction
/// per row group, in the panels' data order and polarity.
///
/// The panel wired to the host is shifted last (its bits stay nearest the input); within a
/// panel, the first bit shifted ends farthest from the input.
public struct HUB12Encoder: FrameEncoder, Sendable {
  public let board: HUB12Board
  public let width: Int, height: Int
  /// Each panel's top-left pixel, farthest from the host first (the order bytes are sent).
  let panelsFarthestFirst: [(x: Int, y: Int)]
  let stride: Int
  let bytesPerGroup: Int
  /// The brightness at full, as a share of each slot.
  let fullOn: Double

  /// Prepares an encoder for `board`.
  public init(board: HUB12Board) {
    self.board = board
    (width, height) = (board.width, board.height)
    panelsFarthestFirst = board.chain.reversed()
    stride = (board.width + 63) >> 6
    bytesPerGroup = board.bytesPerGroup
    fullOn = Double(board.intensity + 1) / 16
  }

  /// The rows are dark until the first frame: all bits off, OE never on.
  public mutating func startUp(into output: inout HUB12Cycle) {
    encode(nil, onFraction: 0, into: &output)
  }

  /// The scan cycle that shows `frame`.
  public mutating func encode(_ frame: Frame, into output: inout HUB12Cycle) {
    precondition(frame.pixels.width == width && frame.pixels.height == height, "frame size is not the board's")
    encode(frame.pixels.words, onFraction: fullOn * frame.brightness, into: &output)
  }

  /// Dark: all bits off, OE off.
  public mutating func shutDown(into output: inout HUB12Cycle) {
    encode(nil, onFraction: 0, into: &output)
  }

  mutating func encode(_ words: [UInt64]?, onFraction: Double, into output: inout HUB12Cycle) {
    output.groups.removeAll()
    output.onFraction = onFraction
    let (scan, perGroup, panelWidth) = (board.scan, board.rowsPerGroup, board.panelWidth)
    let (order, wordsPerRow) = (board.order, stride)
    let flip: UInt8 = board.dataActiveLow ? 0xFF : 0x00
    let panels = panelsFarthestFirst
    for group in 0..<scan {
      output.groups.write(maxCount: 1, length: bytesPerGroup) { writer in
        var at = writer.next
        // The 8 pixels from x (a multiple of 8) in row y, the leftmost in the top bit.
        func byte(_ x: Int, _ y: Int) -> UInt8 {
          guard let words else { return flip }
          let word = words[y * wordsPerRow + (x >> 6)]
          return UInt8(truncatingIfNeeded: word >> UInt64(56 - (x & 63))) ^ flip
        }
        for panel in panels {
          switch order {
          case .dmd:
            for column in 0..<4 {
              for k in Swift.stride(from: 3, through: 0, by: -1) {
                at.pointee = byte(panel.x + 8 * column, panel.y + group + 4 * k)
                at += 1
              }
            }
          case .rows:
            for k in Swift.stride(from: perGroup - 1, through: 0, by: -1) {
              for column in 0..<(panelWidth / 8) {
                at.pointee = byte(panel.x + 8 * column, panel.y + group + k * scan)
                at += 1
              }
            }
          }
        }
        writer.commit()
      }
    }
  }
}
