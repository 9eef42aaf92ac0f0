import Drivers

/// A stand-in for the person answering `marquee find-panel`: it looks at what a panel lights
/// (each LED's lit weight, however the test got it) and answers as the finder asks, by its
/// own reading, not the finder's prediction.
public enum PanelEye {
  /// For everything lit, whether all LEDs are alike; for numbers, those standing alone as
  /// an 8-connected group of lit LEDs shaped as the number (the shapes read from the
  /// finder's picture of the pattern, each number a group of its own there); for one part
  /// lit, the parts with any light.
  public static func answer(
    _ pattern: HUB75PanelFinder.Pattern, weights: [[Int]], finder: HUB75PanelFinder
  ) -> HUB75PanelFinder.Answer {
    let (height, width) = (weights.count, weights.first?.count ?? 0)
    switch pattern {
    case .everything:
      let all = weights.flatMap { $0 }
      return all.allSatisfy { $0 == 0 } ? .dark : Set(all).count == 1 ? .even : .uneven
    case .numbers:
      let shapes = numberShapes(finder)
      var seen = Set<Int>()
      for group in groups(width: width, height: height, lit: { weights[$1][$0] > 0 }) {
        if let number = shapes.firstIndex(of: group.pixels) { seen.insert(number + 1) }
      }
      return .numbers(seen)
    case .part:
      // The parts, as the question names them: the finder's grid cells on this panel.
      return .parts(Set(finder.cells(rows: height).enumerated().filter { _, cell in
        weights[cell.y..<(cell.y + cell.height)].contains { row in row[cell.x..<(cell.x + cell.width)].contains { $0 > 0 } }
      }.map { $0.offset + 1 }))
    }
  }

  /// Each number's lit pixels relative to its group's top-left corner, 1 first.
  static func numberShapes(_ finder: HUB75PanelFinder) -> [Set<[Int]>] {
    let picture = finder.picture(.numbers)
    let all = groups(width: picture.width, height: picture.height) { picture[$0, $1] }
    // Every number's top row is lit: the groups of a row of numbers share their top.
    return all.sorted { ($0.origin[1], $0.origin[0]) < ($1.origin[1], $1.origin[0]) }.map(\.pixels)
  }

  /// The 8-connected groups of lit pixels: each one's bounding box corner, and its pixels
  /// relative to that corner.
  static func groups(width: Int, height: Int, lit: (Int, Int) -> Bool) -> [(origin: [Int], pixels: Set<[Int]>)] {
    var seen = Set<[Int]>()
    var result: [(origin: [Int], pixels: Set<[Int]>)] = []
    for y in 0..<height {
      for x in 0..<width where lit(x, y) && !seen.contains([x, y]) {
        var stack = [[x, y]], pixels = Set<[Int]>()
        seen.insert([x, y])
        while let pixel = stack.popLast() {
          pixels.insert(pixel)
          for dy in -1...1 {
            for dx in -1...1 {
              let next = [pixel[0] + dx, pixel[1] + dy]
              guard next[0] >= 0, next[0] < width, next[1] >= 0, next[1] < height, lit(next[0], next[1]), !seen.contains(next) else { continue }
              seen.insert(next)
              stack.append(next)
            }
          }
        }
        let (left, top) = (pixels.map { $0[0] }.min()!, pixels.map { $0[1] }.min()!)
        result.append((origin: [left, top], pixels: Set(pixels.map { [$0[0] - left, $0[1] - top] })))
      }
    }
    return result
  }
}
