import Platform
import BitmapFonts
import Foundation
import HTTP
import MatrixCore
import SimpleJSON
import Testing

@testable import Marquee
@testable import TimelineCore
@testable import MarqueeServe
@testable import SignService

/// `PUT /api/icons/NAME`: a picture added from a phone to the sign's icon folder, checked as
/// the folder's are, kept on the disk before the answer, shown at once, and still there after
/// a restart; refused without the sign's token, without a folder, under a bad or built-in
/// name, and for a body that is not a picture.
@Suite struct IconUploadTests {
  static let token = "0123456789abcdef0123"
  /// An 8x8 PBM (P1): a frame with a dot.
  static let picture = Array("P1\n8 8\n11111111\n10000001\n10000001\n10011001\n10011001\n10000001\n10000001\n11111111\n".utf8)

  func sign(_ folder: String, token: String? = IconUploadTests.token) throws -> (SignSession, any HTTPResponder) {
    var options = RunOptions()
    options.width = 32
    options.zone.messages = ["Hi"]
    options.iconsPath = folder
    let session = try SignSession(options, stop: StopFlag(), clock: ManualSignClock(wall: 0).clock, reports: .inMemory())
    return (session, SignRoutes(session: session).responder(hosts: HostNames(machineName: "signpi"), token: token))
  }

  func put(_ responder: any HTTPResponder, _ name: String, _ body: [UInt8], type: String = "image/x-portable-bitmap", token: String? = IconUploadTests.token) -> HTTPResponse {
    var headers = ["Host": "127.0.0.1", "Content-Type": type]
    if let token { headers["Authorization"] = "Bearer \(token)" }
    return responder.respond(to: HTTPRequest(method: "PUT", path: "/api/icons/\(name)", headers: headers, body: body)).wait()
  }

  func error(_ response: HTTPResponse) -> String {
    guard case .string(let text)? = (try? JSONParser.parse(String(decoding: response.body, as: UTF8.self)))?["error"] else { return "" }
    return text
  }

  @Test func anIconAddedShowsAtOnceAndAfterARestart() throws {
    let folder = try SignSessionTests.Folder()
    let (session, responder) = try sign(folder.path)
    let added = put(responder, "door", IconUploadTests.picture)
    #expect(added.status == 200, "\(error(added))")
    #expect(FileManager.default.fileExists(atPath: folder.path + "/door.pbm"))
    let status = responder.respond(to: HTTPRequest(
      method: "GET", path: "/api/status", headers: ["Host": "127.0.0.1", "Authorization": "Bearer \(IconUploadTests.token)"])).wait()
    #expect((try? JSONParser.parse(String(decoding: status.body, as: UTF8.self)))?["iconUploads"] == .bool(true))
    // Content made now can show it.
    #expect(session.perform(.content(try JSONParser.parse(#"{"messages": ["{icon:door} open"]}"#), replacing: false)) == .success(.changed(kept: false, until: nil)))
    #expect(session.feed.fonts.icons["door"]?.pictures.first?.width == 8)
    // A restart reads it from the folder.
    let (again, _) = try sign(folder.path)
    #expect(again.feed.fonts.icons["door"] != nil)
  }

  /// An owner names an icon in their own language: `苹果`, `café`; messages show it by that
  /// name. Names that could be spelt two ways, or hide in a path, are refused at `name`.
  @Test func iconsAreNamedInAnyLanguage() throws {
    let folder = try SignSessionTests.Folder()
    let (session, responder) = try sign(folder.path)
    // (The request's path as the parser hands it on: percent-decoded.)
    for name in ["苹果", "café", "яблоко", "تفاحة"] {
      let added = put(responder, name, IconUploadTests.picture)
      #expect(added.status == 200, "\(name): \(error(added))")
    }
    #expect(FileManager.default.fileExists(atPath: folder.path + "/苹果.pbm"))
    let shown = session.perform(.content(try JSONParser.parse(#"{"messages": ["{icon:苹果} 5元"]}"#), replacing: false))
    #expect(shown == .success(.changed(kept: false, until: nil)), "\(shown)")
    #expect(session.feed.fonts.icons["苹果"]?.pictures.first?.width == 8)
    let (again, _) = try sign(folder.path)
    #expect(again.feed.fonts.icons["яблоко"] != nil, "read back from the folder after a restart")
    for bad in ["Apple", "a b", "cafe\u{301}", "a.b", "\u{202E}evil", "x\u{A0}y"] {
      let refused = put(responder, bad, IconUploadTests.picture)
      #expect(refused.status == 400 && error(refused).hasPrefix("name: ") && error(refused).contains("letters of any language"), "\(bad): \(error(refused))")
    }
  }

  /// A GIF of a 4096x512 screen with 256 frames of one pixel: 3 KB that decodes to 512 Mi
  /// pixels if each frame keeps a whole canvas (the third attack: 131 MB an upload).
  static let gifBomb: [UInt8] = {
    var bytes = Array("GIF89a".utf8) + [0x00, 0x10, 0x00, 0x02, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    for _ in 0..<256 { bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0] }
    return bytes + [0x3B]
  }()

  /// Finding 2 of the third attack: what a picture may cost decoded (all frames together)
  /// is bounded and checked before a frame is decoded, and so is the folder (its count and
  /// its pixels); an upload decodes only the new picture, and the list of icons is names and
  /// sizes, each picture fetched on its own.
  @Test func aPictureAndTheFolderCostBoundedMemory() throws {
    let folder = try SignSessionTests.Folder()
    let (session, responder) = try sign(folder.path)
    let bomb = put(responder, "bomb", IconUploadTests.gifBomb, type: "image/gif")
    #expect(bomb.status == 400)
    #expect(error(bomb) == "body: its 3 frames of 4096x512 would take more than 4194304 pixels decoded, the most a picture may", "\(error(bomb))")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/bomb.gif") && session.feed.fonts.icons["bomb"] == nil)
    // The folder: a set near its pixel limit takes no picture past it (413), and a picture
    // in place of one of its own name counts once.
    let large = Icon(name: "large", pictures: [Framebuffer(width: 4096, height: 512)])
    var set = IconSet.builtIn
    for index in 0..<(IconFolderLimits.maximumPixels / large.decodedPixels) { set = set.replacing(Icon(name: "l\(index)", pictures: large.pictures)) }
    session.feed.fonts.replaceIcons(set)
    let over = put(responder, "door", IconUploadTests.picture)
    #expect(over.status == 413 && error(over).hasPrefix("body: with it the icon folder would take 16777280 pixels decoded"), "\(over.status) \(error(over))")
    #expect(set.refusal(adding: Icon(name: "l0", pictures: [Framebuffer(width: 4096, height: 512)])) == nil)
    var many = IconSet.builtIn
    for index in 0..<IconFolderLimits.maximumIcons { many = many.replacing(Icon(name: "i\(index)", pictures: [Framebuffer(width: 1, height: 1)])) }
    #expect(many.refusal(adding: Icon(name: "one-more", pictures: [Framebuffer(width: 1, height: 1)])) == "the icon folder holds 512 icons, the most it may; remove one first")
    #expect(many.refusal(adding: Icon(name: "i7", pictures: [Framebuffer(width: 2, height: 2)])) == nil)
  }

  @Test func badUploadsAreRefusedAndChangeNothing() throws {
    let folder = try SignSessionTests.Folder()
    let (_, responder) = try sign(folder.path)
    let garbage = put(responder, "junk", Array("not a picture".utf8))
    #expect(garbage.status == 400 && error(garbage).hasPrefix("body: "), "\(error(garbage))")
    let badName = put(responder, "Door%20Bell", IconUploadTests.picture)
    #expect(badName.status == 400 && error(badName).hasPrefix("name: "), "\(error(badName))")
    let builtIn = put(responder, "train", IconUploadTests.picture)
    #expect(builtIn.status == 400 && error(builtIn).contains("built-in"), "\(error(builtIn))")
    #expect(put(responder, "door", IconUploadTests.picture, type: "text/plain").status == 415)
    #expect(put(responder, "door", IconUploadTests.picture, token: nil).status == 401)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    // Without a token the sign adds no icons at all; without a folder there is nowhere to.
    let (_, open) = try sign(folder.path, token: nil)
    #expect(put(open, "door", IconUploadTests.picture, token: nil).status == 403)
    var options = RunOptions()
    options.zone.messages = ["Hi"]
    let plain = try SignSession(options, stop: StopFlag(), clock: ManualSignClock(wall: 0).clock, reports: .inMemory())
    let noFolder = put(SignRoutes(session: plain).responder(hosts: HostNames(machineName: "signpi"), token: IconUploadTests.token), "door", IconUploadTests.picture)
    #expect(noFolder.status == 404 && error(noFolder).contains("--icons"), "\(error(noFolder))")
  }
}
