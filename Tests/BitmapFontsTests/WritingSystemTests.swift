import BitmapFonts
import Foundation
import TestSupport
import Testing

/// Right-to-left ordering and Arabic joining on real sentences (the Arabic, Persian, Urdu
/// and Hebrew translations Debian packages install, alone and mixed with English and
/// numbers: Tests/Writing/writing_check.py), against GNU FriBidi, python-bidi (the Rust
/// unicode-bidi crate) and arabic-reshaper.
@Suite(.serialized) struct WritingSystemTests {
  static let python = PythonTools.python([".build/venv-bidi/bin/python"], importing: "bidi, arabic_reshaper")
  static let available = python != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/fribidi")

  struct Sentence: Decodable {
    var text: String
    var fribidi: String
    var pybidi: String
    var reshaped: String
  }

  static func sentences() throws -> [Sentence] {
    let result = try ChildProcess.run(python!, ["Tests/Writing/writing_check.py", "6000"], timeout: 300)
    guard result.status == 0 else { throw ChildError("writing_check.py: \(result.stderr)") }
    return try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Sentence.self, from: Data($0.utf8)) }
  }

  static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
    BidiClass.removedByX9.contains(UnicodeTables.bidiClass(scalar))
  }

  /// The isolated presentation forms of letters that never join, back to the letter.
  static let nonJoiningForms: [Unicode.Scalar: Unicode.Scalar] = {
    var table: [Unicode.Scalar: Unicode.Scalar] = [:]
    for code in UInt32(0x0600)...0x08FF {
      guard let letter = Unicode.Scalar(code), UnicodeTables.joiningType(letter) == .nonJoining,
        let form = UnicodeTables.presentationForm(of: letter, .isolated)
      else { continue }
      table[form] = letter
    }
    return table
  }()

  /// A string with each mirrored bracket replaced by the lower of the pair, so orders can be
  /// compared with an implementation that does not mirror.
  func unmirrored(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    var view = String.UnicodeScalarView()
    for scalar in scalars {
      if let mirror = UnicodeTables.mirror(scalar), mirror.value < scalar.value { view.append(mirror) } else { view.append(scalar) }
    }
    return String(view)
  }

  func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }

  @Test(.enabled(if: available, "needs python-bidi and arabic-reshaper (PyPI, in .build/venv-bidi), and the Debian packages libfribidi-bin and iso-codes"))
  func realSentencesReadAsOtherImplementationsReadThem() throws {
    let sentences = try WritingSystemTests.sentences()
    #expect(sentences.count > 1000, "too few right-to-left sentences on this machine: \(sentences.count)")
    var orderDiffers: [String] = [], joinDiffers: [String] = [], fribidiDiffers: [String] = []
    var mixed = 0, joined = 0, withoutForms = 0
    for sentence in sentences {
      let scalars = Array(sentence.text.unicodeScalars)
      if scalars.contains(where: { UnicodeTables.bidiClass($0) == .leftToRight }) { mixed += 1 }
      // The order alone, scalar by scalar, against the unicode-bidi crate.
      let paragraph = BidiParagraph(scalars)
      let order = unmirrored(paragraph.visualOrder.map { scalars[$0] })
      // python-bidi keeps the characters rule X9 removes (ZWNJ, embeddings); the order is
      // that of the others.
      let theirs = unmirrored(sentence.pybidi.unicodeScalars.filter { !BidiClass.removedByX9.contains(UnicodeTables.bidiClass($0)) })
      if order != theirs { orderDiffers.append("\(sentence.text)\n  ours   \(order)\n  theirs \(theirs)") }
      // Joining in logical order, against arabic-reshaper.
      let joining = ArabicJoining.join(scalars)
      if joining.scalars != scalars { joined += 1 }
      // arabic-reshaper also gives letters that never join (hamza) their isolated form;
      // FriBidi and marquee keep the letter, which every font draws the same.
      let reshaped = string(sentence.reshaped.unicodeScalars.map { WritingSystemTests.nonJoiningForms[$0] ?? $0 })
      // arabic-reshaper does not join letters that have no presentation forms (Pashto's
      // ښ, ړ); Unicode's joining data, FriBidi and marquee join their neighbours to them.
      let formless = scalars.contains { UnicodeTables.joiningType($0) == .dualJoining && UnicodeTables.presentationForm(of: $0, .initial) == nil }
        || scalars.contains { UnicodeTables.joiningType($0) == .rightJoining && UnicodeTables.presentationForm(of: $0, .final) == nil }
      // arabic-reshaper drops the zero-width joiners it has used; marquee keeps them (they
      // draw nothing), so the forms are compared without them.
      let ours = string(joining.scalars.filter { $0 != "\u{200D}" })
      if formless { withoutForms += 1 } else if ours != reshaped {
        joinDiffers.append("\(sentence.text)\n  ours   \(ours)\n  theirs \(reshaped)")
      }
      // All of it as the renderer draws it (joined, ordered, mirrored, marks on their
      // letters), against FriBidi.
      // FriBidi keeps a lam-alef ligature's length with a U+FEFF where the alef was.
      // Both without what rule X9 removes (ZWNJ, ZWSP, embeddings): FriBidi keeps them
      // in its output, marquee draws nothing for them.
      let fribidi = string(sentence.fribidi.unicodeScalars.filter { $0 != "\u{FEFF}" && !WritingSystemTests.isRemoved($0) })
      let drawn = ReadingOrder(sentence.text).characters.joined().filter { !WritingSystemTests.isRemoved($0) }
      if string(drawn) != fribidi { fribidiDiffers.append("\(sentence.text)\n  ours    \(string(drawn))\n  fribidi \(fribidi)") }
    }
    #expect(mixed > 500, "too few sentences mixing scripts: \(mixed)")
    #expect(joined > 500, "too few sentences with Arabic letters: \(joined)")
    #expect(withoutForms < sentences.count / 5, "too many sentences left out of the reshaper's check: \(withoutForms)")
    let noOrderDiffers = orderDiffers.isEmpty
    #expect(noOrderDiffers, Comment(rawValue: "\(orderDiffers.count) of \(sentences.count) ordered unlike python-bidi:\n" + orderDiffers.prefix(8).joined(separator: "\n")))
    let noJoinDiffers = joinDiffers.isEmpty
    #expect(noJoinDiffers, Comment(rawValue: "\(joinDiffers.count) of \(sentences.count) joined unlike arabic-reshaper:\n" + joinDiffers.prefix(8).joined(separator: "\n")))
    let noFribidiDiffers = fribidiDiffers.isEmpty
    #expect(noFribidiDiffers, Comment(rawValue: "\(fribidiDiffers.count) of \(sentences.count) drawn unlike FriBidi:\n" + fribidiDiffers.prefix(8).joined(separator: "\n")))
  }
}
