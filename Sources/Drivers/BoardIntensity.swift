import SimpleJSON

extension JSONFields {
  /// A board file's `intensity`: the chip's step at full brightness (the sign's brightness
  /// level 15). `brightness`, its earlier name, is read the same (a file gives one of the two).
  ///
  /// - Throws: ``JSONFieldError`` for a step out of `range`, or both names given.
  func intensity(in range: ClosedRange<Int>) throws(JSONFieldError) -> Int? {
    if value["intensity"] != nil, value["brightness"] != nil {
      throw JSONFieldError(field: name("brightness"), reason: "the old name of 'intensity'; give one of them")
    }
    if let step = try integer("intensity", in: range) { return step }
    return try integer("brightness", in: range)
  }
}
