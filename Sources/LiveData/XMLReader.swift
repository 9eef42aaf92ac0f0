/// A small, bounded XML reader for feeds: elements with their attributes and text, nested
/// to at most ``maximumDepth``; CDATA sections; the five named entities and numeric
/// character references. A document type is skipped and no entity it declares is ever
/// expanded, so a small document cannot grow into a large one ("billion laughs").
public struct XMLElement: Sendable, Equatable {
  /// The name as written, prefix included (`dc:date`).
  public var name: String
  public var attributes: [(name: String, value: String)]
  /// The children, in order.
  public var children: [XMLElement]
  /// The element's own text (CDATA included), children's text left out.
  public var text: String
  /// The text of the element and all it holds, in document order (what a title with
  /// markup shows).
  public var allText: String = ""

  public static func == (a: XMLElement, b: XMLElement) -> Bool {
    a.name == b.name && a.text == b.text && a.children == b.children
      && a.attributes.count == b.attributes.count && zip(a.attributes, b.attributes).allSatisfy { $0.name == $1.name && $0.value == $1.value }
  }

  /// The name without its prefix (`date` for `dc:date`).
  public var localName: Substring {
    name.lastIndex(of: ":").map { name[name.index(after: $0)...] } ?? name[...]
  }

  /// An attribute's value.
  public func attribute(_ name: String) -> String? {
    attributes.first { $0.name == name }?.value
  }

  /// The first child whose local name is `name`.
  public func child(_ name: String) -> XMLElement? {
    children.first { $0.localName == name }
  }

  /// The children whose local name is `name`.
  public func children(_ name: String) -> [XMLElement] {
    children.filter { $0.localName == name }
  }

}

/// Why a document could not be read: where, and what.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
  public var line: Int
  public var reason: String
  public var description: String { "line \(line): \(reason)" }
}

/// Reads XML text into its root element.
public enum XMLReader {
  /// The deepest nesting read.
  public static let maximumDepth = 64

  /// The root element of `bytes` (UTF-8; a byte order mark is skipped).
  ///
  /// - Throws: ``XMLError`` with the line of the first problem.
  public static func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
    var reader = Cursor(bytes: bytes)
    return try reader.document()
  }

  struct Cursor {
    let bytes: [UInt8]
    var index = 0
    var line = 1

    init(bytes: [UInt8]) {
      self.bytes = bytes
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    func fail(_ reason: String) -> XMLError { XMLError(line: line, reason: reason) }

    var atEnd: Bool { index >= bytes.count }

    func peek(_ text: String) -> Bool {
      let wanted = Array(text.utf8)
      return bytes.count - index >= wanted.count && bytes[index..<(index + wanted.count)].elementsEqual(wanted)
    }

    mutating func advance(_ count: Int = 1) {
      for _ in 0..<count where index < bytes.count {
        if bytes[index] == 0x0A { line += 1 }
        index += 1
      }
    }

    mutating func skip(past marker: String, what: String) throws(XMLError) {
      while !atEnd && !peek(marker) { advance() }
      guard !atEnd else { throw fail("\(what) does not end") }
      advance(marker.utf8.count)
    }

    mutating func skipSpace() {
      while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { advance() }
    }

    mutating func document() throws(XMLError) -> XMLElement {
      var root: XMLElement?
      while true {
        skipSpace()
        if atEnd { break }
        if peek("<?") {
          try skip(past: "?>", what: "a processing instruction")
        } else if peek("<!--") {
          try skip(past: "-->", what: "a comment")
        } else if peek("<!DOCTYPE") || peek("<!doctype") {
          try skipDoctype()
        } else if peek("<") {
          guard root == nil else { throw fail("a second root element") }
          root = try element(depth: 1)
        } else {
          throw fail("text outside the root element")
        }
      }
      guard let root else { throw fail("no element in the document") }
      return root
    }

    /// Skips `<!DOCTYPE ... [ ... ]>`: its declarations are never used.
    mutating func skipDoctype() throws(XMLError) {
      var inSubset = false
      while !atEnd {
        let byte = bytes[index]
        if byte == UInt8(ascii: "[") { inSubset = true }
        if byte == UInt8(ascii: "]") { inSubset = false }
        advance()
        if byte == UInt8(ascii: ">") && !inSubset { return }
      }
      throw fail("the document type does not end")
    }

    mutating func name() throws(XMLError) -> String {
      let start = index
      while !atEnd {
        let byte = bytes[index]
        if [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "<")].contains(byte) { break }
        advance()
      }
      guard index > start else { throw fail("a name was expected") }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func element(depth: Int) throws(XMLError) -> XMLElement {
      guard depth <= XMLReader.maximumDepth else { throw fail("elements nested deeper than \(XMLReader.maximumDepth)") }
      advance()  // <
      var element = XMLElement(name: try name(), attributes: [], children: [], text: "")
      while true {
        skipSpace()
        guard !atEnd else { throw fail("<\(element.name)> does not end") }
        if peek("/>") {
          advance(2)
          return element
        }
        if peek(">") {
          advance()
          break
        }
        let attribute = try name()
        skipSpace()
        guard peek("=") else { throw fail("attribute \(attribute) of <\(element.name)> has no value") }
        advance()
        skipSpace()
        guard !atEnd, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
          throw fail("attribute \(attribute) of <\(element.name)>: a quoted value was expected")
        }
        let quote = bytes[index]
        advance()
        let start = index
        while !atEnd && bytes[index] != quote { advance() }
        guard !atEnd else { throw fail("attribute \(attribute) of <\(element.name)> does not end") }
        let value = try decode(bytes[start..<index])
        advance()
        element.attributes.append((attribute, value))
      }
      // Content: text, CDATA, comments, children, until the end tag.
      var text = "", all = ""
      while true {
        guard !atEnd else { throw fail("<\(element.name)> is not closed") }
        if peek("</") {
          advance(2)
          let closing = try name()
          guard closing == element.name else { throw fail("</\(closing)> closes <\(element.name)>") }
          skipSpace()
          guard peek(">") else { throw fail("</\(closing) does not end with '>'") }
          advance()
          element.text = text
          element.allText = all
          return element
        } else if peek("<![CDATA[") {
          advance(9)
          let start = index
          while !atEnd && !peek("]]>") { advance() }
          guard !atEnd else { throw fail("a CDATA section does not end") }
          let piece = String(decoding: bytes[start..<index], as: UTF8.self)
          text += piece
          all += piece
          advance(3)
        } else if peek("<!--") {
          try skip(past: "-->", what: "a comment")
        } else if peek("<?") {
          try skip(past: "?>", what: "a processing instruction")
        } else if peek("<") {
          let child = try self.element(depth: depth + 1)
          all += child.allText
          element.children.append(child)
        } else {
          let start = index
          while !atEnd && bytes[index] != UInt8(ascii: "<") { advance() }
          let piece = try decode(bytes[start..<index])
          text += piece
          all += piece
        }
      }
    }

    /// Text with its references replaced.
    func decode(_ raw: ArraySlice<UInt8>) throws(XMLError) -> String {
      guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
      var out: [UInt8] = []
      out.reserveCapacity(raw.count)
      var position = raw.startIndex
      while position < raw.endIndex {
        let byte = raw[position]
        guard byte == UInt8(ascii: "&") else {
          out.append(byte)
          position += 1
          continue
        }
        guard let end = raw[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
          throw fail("'&' that is not a reference (write &amp;)")
        }
        let reference = String(decoding: raw[(position + 1)..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch reference {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
          if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
            scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
          } else if reference.hasPrefix("#") {
            scalar = UInt32(reference.dropFirst()).flatMap(Unicode.Scalar.init)
          } else {
            throw fail("&\(reference); is not one of XML's own references (a document type's entities are not expanded)")
          }
        }
        guard let scalar else { throw fail("&\(reference); is not a character") }
        out += Array(String(Character(scalar)).utf8)
        position = end + 1
      }
      return String(decoding: out, as: UTF8.self)
    }
  }
}
