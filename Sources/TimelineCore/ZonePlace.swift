/// Where a zone is: its name and its rectangle on the sign, in pixels. A layout file's
/// zone, the sign's ``Zone``, the feed that fits content to it and the session's state all
/// name a zone with this one value.
public struct ZonePlace: Sendable, Hashable {
  /// The zone's name (layout files, feed lines, the API, programs).
  public var name: String
  public var x: Int, y: Int, width: Int, height: Int

  public init(name: String, x: Int, y: Int, width: Int, height: Int) {
    self.name = name
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}
