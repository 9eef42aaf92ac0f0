import BitmapFonts
import Drivers

extension PanelEye {
  /// A drawing of an emulated panel (``FinderPanel``'s: `.` dark, `#` lit in white, `R`, `G`
  /// or `B` lit in one colour, `+` in two, `@` brighter) as lit weights.
  public static func weights(_ drawing: [String]) -> [[Int]] {
    drawing.map { line in line.map { $0 == "." ? 0 : $0 == "@" ? 2 : 1 } }
  }

  /// The colours of the colour test's three blocks, left to right, as typed (`r g b`): the
  /// letter most of each third's lit pixels show.
  public static func blockColors(_ drawing: [String]) -> String {
    let rows = drawing.map(Array.init)
    let third = (rows.first?.count ?? 0) / 3
    return (0..<3).map { block in
      let letters = rows.flatMap { $0[(block * third)..<((block + 1) * third)] }.filter { "RGB".contains($0) }
      let most = ["R", "G", "B"].max { a, b in letters.filter { String($0) == a }.count < letters.filter { String($0) == b }.count }!
      return most.lowercased()
    }.joined(separator: " ")
  }

  /// Whether "Hello" reads right: the built-in font's word a pixel from the left, in the
  /// middle rows, nothing else lit, all alike.
  public static func readsHello(_ drawing: [String], columns: Int, rows: Int) -> Bool {
    let word = TextRenderer().render("Hello")
    var expected = [[Int]](repeating: [Int](repeating: 0, count: columns), count: rows)
    for y in 0..<word.height { for x in 0..<word.width where word[x, y] { expected[(rows - word.height) / 2 + y][1 + x] = 1 } }
    return weights(drawing) == expected
  }

  /// An answer to a probe as typed: `y`, `n`, `d`, or the numbers seen (`0` for none).
  public static func typed(_ answer: HUB75PanelFinder.Answer) -> String {
    switch answer {
    case .even: "y"
    case .uneven: "n"
    case .dark: "d"
    case .numbers(let numbers), .parts(let numbers): numbers.isEmpty ? "0" : numbers.sorted().map(String.init).joined(separator: " ")
    case .unknown: "0"
    }
  }
}

extension PanelEye {
  /// What a person answers to one of the finder's questions (as a front end gives it: its
  /// step, 0 for the confirmation; its English text; how many choices it offers) on seeing
  /// `drawing`: "Hello" read or not, the blocks' colours, or the probe's answer.
  public static func reply(step: Int, question: String, choices: Int, drawing: [String], finder: HUB75PanelFinder) -> String {
    if step == 0 { return readsHello(drawing, columns: finder.panelColumns, rows: finder.panelRows) ? "y" : "n" }
    if choices == 6 { return blockColors(drawing) }
    let pattern: HUB75PanelFinder.Pattern = choices > 0 ? .everything : question.contains("parts") ? .part(1) : .numbers
    return typed(answer(pattern, weights: weights(drawing), finder: finder))
  }
}
