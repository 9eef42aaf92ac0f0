/// A 1-bit, bit-packed image: one bit per LED, origin at the top left.
///
/// Rows are stored as 64-bit words, the most significant bit of a word being the leftmost
/// pixel it holds. Bits past `width` in the last word of a row are always zero, so two
/// framebuffers of the same size are equal exactly when their pixels are.
///
/// `Framebuffer` is a value type with copy-on-write storage: mutating a framebuffer that is
/// not shared never allocates, which is what lets a player compose every frame into one
/// reused buffer.
public struct Framebuffer: Sendable, Hashable {
  /// The number of pixel columns.
  public let width: Int
  /// The number of pixel rows.
  public let height: Int
  /// The number of 64-bit words that hold one row.
  public let wordsPerRow: Int
  /// Row-major storage: row `y` occupies `words[y * wordsPerRow ..< (y + 1) * wordsPerRow]`.
  public internal(set) var words: [UInt64]

  /// The largest width a framebuffer may have (a 1-pixel-tall strip of 16M pixels).
  public static let maximumWidth = 1 << 24
  /// The largest number of pixels a framebuffer may hold (32 MiB of bits).
  public static let maximumPixelCount = 1 << 28

  /// Creates a framebuffer of the given size with every pixel dark.
  ///
  /// A size of zero in either direction is allowed (the strip of an empty string).
  /// - Precondition: both sizes are at least 0 and the pixel count is within
  ///   ``maximumPixelCount``; check user input with ``validateSize(width:height:)`` first.
  public init(width: Int, height: Int) {
    precondition(
      Framebuffer.validateSize(width: width, height: height) == nil,
      "invalid framebuffer size \(width)x\(height)")
    self.width = width
    self.height = height
    self.wordsPerRow = (width + 63) >> 6
    self.words = [UInt64](repeating: 0, count: wordsPerRow * height)
  }

  /// Says what is wrong with a size, or returns `nil` if a framebuffer can have it.
  public static func validateSize(width: Int, height: Int) -> String? {
    if width < 0 || height < 0 { return "size \(width)x\(height) is negative" }
    if width > maximumWidth { return "width \(width) is larger than \(maximumWidth)" }
    if height > maximumWidth { return "height \(height) is larger than \(maximumWidth)" }
    if width.multipliedReportingOverflow(by: height).overflow
      || width * height > maximumPixelCount
    {
      return "size \(width)x\(height) has more than \(maximumPixelCount) pixels"
    }
    return nil
  }

  /// The mask of the bits of a row's last word that hold pixels.
  @inline(__always) var lastWordMask: UInt64 {
    let used = width & 63
    return used == 0 ? ~0 : ~((~0 as UInt64) >> used)
  }

  /// Whether the pixel at (`x`, `y`) is lit; points outside the framebuffer read as dark.
  ///
  /// Setting a point outside the framebuffer does nothing, so drawing code may clip
  /// by simply writing.
  public subscript(x: Int, y: Int) -> Bool {
    get {
      guard x >= 0, y >= 0, x < width, y < height else { return false }
      return words[y * wordsPerRow + (x >> 6)] & (1 << (63 - UInt64(x & 63))) != 0
    }
    set {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      let index = y * wordsPerRow + (x >> 6)
      let bit: UInt64 = 1 << (63 - UInt64(x & 63))
      if newValue { words[index] |= bit } else { words[index] &= ~bit }
    }
  }

  /// Sets 64 pixels of row `y` at once: word `index` of the row (columns `64 * index` up to
  /// 64 more), most significant bit leftmost, as bitmap font files pack a row. Bits past
  /// ``width`` are dropped; a row or word outside the framebuffer changes nothing.
  public mutating func setRow(_ y: Int, wordAt index: Int, to bits: UInt64) {
    guard y >= 0, y < height, index >= 0, index < wordsPerRow else { return }
    words[y * wordsPerRow + index] = index == wordsPerRow - 1 ? bits & lastWordMask : bits
  }

  /// Turns every pixel dark.
  public mutating func clear() {
    fill(false)
  }

  /// Sets every pixel to `lit`.
  public mutating func fill(_ lit: Bool) {
    guard !words.isEmpty else { return }
    let mask = lastWordMask
    let perRow = wordsPerRow
    words.withUnsafeMutableBufferPointer { buffer in
      guard lit else {
        buffer.update(repeating: 0)
        return
      }
      buffer.update(repeating: ~0)
      guard mask != ~0 else { return }
      // The last word of each row keeps its padding dark.
      var index = perRow - 1
      while index < buffer.count {
        buffer[index] = mask
        index += perRow
      }
    }
  }

  /// Lights the dark pixels and darkens the lit ones.
  public mutating func invert() {
    guard !words.isEmpty else { return }
    let mask = lastWordMask
    let perRow = wordsPerRow
    words.withUnsafeMutableBufferPointer { buffer in
      for index in buffer.indices {
        buffer[index] = ~buffer[index] & ((index % perRow == perRow - 1) ? mask : ~0)
      }
    }
  }

  /// The number of lit pixels.
  public var litCount: Int {
    words.reduce(0) { $0 + $1.nonzeroBitCount }
  }

  /// Whether no pixel is lit.
  public var isBlank: Bool {
    words.allSatisfy { $0 == 0 }
  }

  /// The rows from the first to the last that hold a lit pixel (`nil` when none does).
  public var litRows: ClosedRange<Int>? {
    // The first and the last word with a bit set, in row-major order, are in those rows.
    var first = 0
    while first < words.count && words[first] == 0 { first += 1 }
    guard first < words.count else { return nil }
    var last = words.count - 1
    while words[last] == 0 { last -= 1 }
    return (first / wordsPerRow)...(last / wordsPerRow)
  }

  /// The columns from the first to the last that hold a lit pixel (`nil` when none does).
  public var litColumns: ClosedRange<Int>? {
    func lit(_ x: Int) -> Bool { (0..<height).contains { self[x, $0] } }
    guard let first = (0..<width).first(where: lit), let last = (0..<width).last(where: lit) else { return nil }
    return first...last
  }
}
