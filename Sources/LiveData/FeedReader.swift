/// The items of a news feed: RSS 2.0 (and 0.9x), RSS 1.0 (RDF) and Atom 1.0, as titles and
/// dates, in the feed's order.
public enum FeedReader {
  /// One item of a feed.
  public struct Item: Sendable, Equatable {
    /// The title as plain text: markup removed, spaces collapsed.
    public var title: String
    /// The date as the feed writes it (`pubDate`, `dc:date`, `updated`, `published`), if any.
    public var date: String?
  }

  /// Why a document is not a feed.
  public struct NotAFeed: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// The items of the feed in `bytes`.
  ///
  /// - Throws: ``XMLError`` for text that is not XML; ``NotAFeed`` for XML that is neither
  ///   RSS nor Atom.
  public static func items(_ bytes: [UInt8]) throws -> [Item] {
    let root = try XMLReader.parse(bytes)
    switch root.localName {
    case "rss":
      guard let channel = root.child("channel") else { throw NotAFeed(description: "an RSS document without a <channel>") }
      return channel.children("item").map { item in
        Item(title: plain(item.child("title")), date: (item.child("pubDate") ?? item.child("date")).map { $0.text.trimmed })
      }
    case "RDF":
      return root.children("item").map { item in
        Item(title: plain(item.child("title")), date: item.child("date").map { $0.text.trimmed })
      }
    case "feed":
      return root.children("entry").map { entry in
        Item(title: plain(entry.child("title")), date: (entry.child("updated") ?? entry.child("published")).map { $0.text.trimmed })
      }
    default:
      throw NotAFeed(description: "<\(root.name)> is neither an RSS nor an Atom feed")
    }
  }

  /// A title's plain text: an Atom title of type `html` (and any RSS title) has its tags
  /// removed and its entities read; `xhtml` is the text of its elements.
  static func plain(_ element: XMLElement?) -> String {
    guard let element else { return "" }
    let kind = element.attribute("type") ?? "text"
    var text = kind == "xhtml" ? element.allText : element.text
    if kind == "html" || text.contains("<") { text = stripTags(text) }
    return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
  }

  /// HTML text without its tags, its character references read.
  static func stripTags(_ html: String) -> String {
    var out = ""
    var inTag = false
    for character in html {
      if character == "<" { inTag = true } else if character == ">" && inTag { inTag = false } else if !inTag { out.append(character) }
    }
    return decodeHTMLReferences(out)
  }

  /// The common HTML references of escaped markup (`&amp;`, `&#8217;`, `&nbsp;`...).
  static func decodeHTMLReferences(_ text: String) -> String {
    guard text.contains("&") else { return text }
    let named: [String: String] = [
      "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "mdash": "—", "ndash": "–",
      "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©", "reg": "®", "deg": "°", "euro": "€",
    ]
    var out = ""
    var rest = Substring(text)
    while let ampersand = rest.firstIndex(of: "&") {
      out += rest[..<ampersand]
      let after = rest[rest.index(after: ampersand)...]
      if let semicolon = after.prefix(10).firstIndex(of: ";") {
        let name = after[..<semicolon]
        var replacement: String?
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
          replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        } else if name.hasPrefix("#") {
          replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        } else {
          replacement = named[String(name)]
        }
        if let replacement {
          out += replacement
          rest = after[after.index(after: semicolon)...]
          continue
        }
      }
      out += "&"
      rest = after
    }
    return out + rest
  }
}

extension String {
  var trimmed: String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}
