import MatrixCore

/// A 1-bit picture read from a file: one frame, or the frames of an animated GIF with how
/// long each shows.
///
/// Which pixels light: in PBM and XBM the 1 bits; in PNG and GIF with transparency (an alpha
/// channel, a `tRNS` chunk, a transparent colour) the opaque ones, alpha at least half,
/// whatever their colour, so a black icon on a transparent background lights its shape;
/// without transparency the bright ones, luminance (0.299 R + 0.587 G + 0.114 B) at least
/// half of full scale.
public struct Picture: Sendable, Equatable {
  /// The frames, all the picture's size; at least one.
  public var frames: [Framebuffer]
  /// How long each frame shows, in seconds (one entry per frame; a still picture's is 0).
  public var delays: [Double]

  public init(frames: [Framebuffer], delays: [Double]) {
    precondition(!frames.isEmpty && frames.count == delays.count, "a picture needs frames, each with a delay")
    self.frames = frames
    self.delays = delays
  }

  /// A still picture.
  public init(_ frame: Framebuffer) {
    self.init(frames: [frame], delays: [0])
  }

  /// How long the animation takes once round, in seconds (0 for a still picture).
  public var period: Double { delays.reduce(0, +) }

  /// The frame showing at time `t` (seconds, on any clock that started with the first
  /// frame): the animation loops for ever.
  public func frameIndex(at t: Double) -> Int {
    let period = period
    guard frames.count > 1, period > 0 else { return 0 }
    var u = max(0, t).truncatingRemainder(dividingBy: period)
    for (index, delay) in delays.enumerated() {
      if u < delay { return index }
      u -= delay
    }
    return frames.count - 1
  }

  /// The first time after `t` at which another frame shows, or nil for a still picture.
  public func nextFrameChange(after t: Double) -> Double? {
    let period = period
    guard frames.count > 1, period > 0 else { return nil }
    let t = max(0, t)
    let round = (t / period).rounded(.down) * period
    var edge = round
    for delay in delays {
      edge += delay
      if edge > t + 1e-9 { return edge }
    }
    return round + period + delays[0]
  }

  public var width: Int { frames[0].width }
  public var height: Int { frames[0].height }
  /// Whether it has more than one frame.
  public var isAnimated: Bool { frames.count > 1 }
}

/// A picture file that could not be read: the file and what is wrong.
public struct PictureError: Error, Sendable, Equatable, CustomStringConvertible {
  public var path: String
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "\(path): \(reason)" }
}

/// Limits that keep a hostile or broken picture from costing unbounded memory or time.
public enum PictureLimits {
  /// The widest picture read, in pixels.
  public static let maximumWidth = 4096
  /// The tallest picture read, in pixels.
  public static let maximumHeight = 512
  /// The most frames of an animation.
  public static let maximumFrames = 256
  /// The largest file read.
  public static let maximumFileSize = 16 << 20
  /// The most pixels a picture may take decoded, all its frames together (each frame of an
  /// animation is a whole canvas): 4 Mi pixels, 512 KiB of bits. A small file that expands
  /// past it (a 6 KB GIF of 256 frames of 4096x512 is 512 Mi pixels) is refused before
  /// any frame is decoded.
  public static let maximumPixels = 1 << 22

  /// Why `frames` frames of `width` x `height` are refused, or nil.
  package static func refusal(width: Int, height: Int, frames: Int) -> String? {
    let pixels = width.multipliedReportingOverflow(by: height).partialValue.multipliedReportingOverflow(by: frames)
    guard pixels.overflow || pixels.partialValue > maximumPixels else { return nil }
    return "its \(frames) frames of \(width)x\(height) would take more than \(maximumPixels) pixels decoded, the most a picture may"
  }

  /// Why a size is refused, or nil.
  package static func refusal(width: Int, height: Int) -> String? {
    if width <= 0 || height <= 0 { return "its size \(width)x\(height) is empty" }
    if width > maximumWidth || height > maximumHeight {
      return "it is \(width)x\(height) pixels; the most a sign takes is \(maximumWidth)x\(maximumHeight)"
    }
    return nil
  }
}

/// The rule that turns a colour into one LED, for pictures with and without transparency.
package enum LightRule {
  /// Whether an opaque colour lights: luminance at least half of `maximum`.
  package static func bright(_ red: Int, _ green: Int, _ blue: Int, maximum: Int) -> Bool {
    299 * red + 587 * green + 114 * blue >= 500 * maximum
  }

  /// Whether a pixel with this alpha lights in a picture with transparency: at least half.
  package static func opaque(_ alpha: Int, maximum: Int) -> Bool {
    2 * alpha >= maximum
  }
}
