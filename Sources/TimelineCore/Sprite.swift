import MatrixCore

/// A small animated bitmap for the sprite transition: frames that loop as it walks.
///
/// Frames are drawn facing right; walking left shows them mirrored.
public struct Sprite: Sendable, Equatable {
  /// The animation's frames, all of one size.
  public let frames: [Framebuffer]
  /// The frames mirrored left to right.
  let mirroredFrames: [Framebuffer]
  /// How many columns of travel each frame lasts.
  public let columnsPerFrame: Int

  /// Why a sprite could not be made.
  public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Creates a sprite from frames of one size.
  public init(frames: [Framebuffer], columnsPerFrame: Int = 2) throws(Invalid) {
    guard let first = frames.first else { throw Invalid(description: "a sprite needs at least one frame") }
    guard first.width > 0, first.height > 0 else { throw Invalid(description: "sprite frames are empty") }
    for (index, frame) in frames.enumerated()
    where frame.width != first.width || frame.height != first.height {
      throw Invalid(description:
        "frame \(index + 1) is \(frame.width)x\(frame.height), frame 1 is \(first.width)x\(first.height)")
    }
    self.frames = frames
    self.columnsPerFrame = max(1, columnsPerFrame)
    mirroredFrames = frames.map { frame in
      var mirrored = Framebuffer(width: frame.width, height: frame.height)
      for y in 0..<frame.height {
        for x in 0..<frame.width where frame[x, y] { mirrored[frame.width - 1 - x, y] = true }
      }
      return mirrored
    }
  }

  /// Parses a sprite from text: frames in the framebuffer text form (`#` and `.`),
  /// separated by empty lines.
  public init(text: String) throws(Invalid) {
    var frames: [Framebuffer] = []
    var block = ""
    var blockStart = 1
    var lineNumber = 0
    func flush() throws(Invalid) {
      guard !block.isEmpty else { return }
      do {
        frames.append(try Framebuffer(text: block))
      } catch {
        throw Invalid(description: "line \(blockStart + error.line - 1): \(error.reason)")
      }
      block = ""
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
      if trimmed.isEmpty {
        try flush()
      } else {
        if block.isEmpty { blockStart = lineNumber }
        block += trimmed + "\n"
      }
    }
    try flush()
    try self.init(frames: frames)
  }

  /// The width of the sprite.
  public var width: Int { frames[0].width }
  /// The height of the sprite.
  public var height: Int { frames[0].height }

  /// The frame to show after `step` columns of travel.
  public func frame(atStep step: Int, mirrored: Bool) -> Framebuffer {
    let index = (max(0, step) / columnsPerFrame) % frames.count
    return mirrored ? mirroredFrames[index] : frames[index]
  }

  /// The built-in sprite: a chomping, round-mouthed eater, 7x7, three frames.
  public static let pacman: Sprite = {
    let text = """
      ..###..
      .#####.
      ####...
      ###....
      ####...
      .#####.
      ..###..

      ..###..
      .#####.
      ######.
      ####...
      ######.
      .#####.
      ..###..

      ..###..
      .#####.
      #######
      #######
      #######
      .#####.
      ..###..
      """
    do throws(Sprite.Invalid) {
      return try Sprite(text: text)
    } catch {
      preconditionFailure("the built-in sprite is malformed: \(error)")
    }
  }()
}
