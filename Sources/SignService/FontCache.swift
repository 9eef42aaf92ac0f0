import Platform
import BitmapFonts
import MatrixCore
import Synchronization

/// Fonts loaded once per file, whatever the spelling that names them (`unifont`,
/// `Unifont`, `/usr/share/unifont/./unifont.hex`), shared by every zone and update, and
/// dropped once no zone uses them.
public final class FontCache: Sendable {
  /// Which fonts a document may name.
  public enum Access: Sendable {
    /// Any name or path: the command line, config and layout files, `--stdin` (the
    /// operator's own input).
    case any
    /// Only the fonts the sign offers: built-in names, the names of `GET /api/fonts`, files
    /// under `folders`, and the fonts the sign started with, spelt as it started (the HTTP
    /// API: a request never opens a path of its choosing, nor learns whether one exists).
    case offered(folders: [String], started: Set<String>)
  }

  /// One font file (or built-in font), however it is named.
  package enum Identity: Hashable, Sendable {
    case builtin(String)
    case file(device: UInt64, inode: UInt64, size: Int64, modified: Int)
  }

  /// A font the sign does not offer over the API, in words that do not say whether such a
  /// file exists.
  package struct NotOffered: Error, CustomStringConvertible {
    var name: String
    package var description: String { "'\(name)' is not a font this sign offers: use a name from GET /api/fonts" }
  }

  let fonts = Mutex<[Identity: any Font]>([:])
  /// A guest's host: a preview's cache reads the fonts the running sign has loaded and
  /// loads others for itself alone (nil: the sign's own cache).
  let host: FontCache?
  /// The most bytes of font files a guest loads (nil: no limit, the sign's own cache).
  let budget: Int64?
  /// The bytes of font files a guest loaded so far.
  let spent = Mutex<Int64>(0)

  /// The budget of a preview's fonts: the files it may load besides the sign's own.
  public static let previewBudget: Int64 = 16 << 20

  /// The icons messages can show: the built-in set and the sign's icon folder, decoded
  /// once when the sign is built.
  package var icons: IconSet { iconSet.withLock { $0 } }
  let iconSet: Mutex<IconSet>
  /// Where a font file's problems (a glyph left out, a bad property) are reported.
  let reports: SignReports

  package init(icons: IconSet = .builtIn, reports: SignReports = .inMemory()) {
    iconSet = Mutex(icons)
    self.reports = reports
    host = nil
    budget = nil
  }

  init(guestOf host: FontCache, budget: Int64) {
    iconSet = Mutex(host.icons)
    reports = host.reports
    self.host = host
    self.budget = budget
  }

  /// A cache for a guest of the sign (a preview): it reads the fonts the sign has loaded,
  /// loads any other into itself alone, up to `budget` bytes of files, and frees them when
  /// it goes. The sign's cache never grows, nor is locked while a guest loads a file.
  package func guest(budget: Int64 = FontCache.previewBudget) -> FontCache {
    FontCache(guestOf: self, budget: budget)
  }

  /// A guest's font past its budget.
  package struct OverBudget: Error, CustomStringConvertible {
    var name: String
    var budget: Int64
    package var description: String { "'\(name)' would take a preview past the \(budget >> 20) MiB of fonts it may load; preview fewer fonts at once" }
  }

  /// Content made from now on shows `icons` (an icon added to the folder).
  package func replaceIcons(_ icons: IconSet) {
    iconSet.withLock { $0 = icons }
  }

  /// The icons of the built-in set and of `folder`, if given.
  ///
  /// - Throws: ``SignFailure`` naming the file that cannot be read and why.
  package static func icons(folder: String?, reports: SignReports) throws -> IconSet {
    guard let folder else { return .builtIn }
    do {
      let folderIcons = try IconSet(folder: folder)
      // A picture nobody may use must not keep the sign dark: it is left out, said here,
      // and a message naming it is refused with the reason.
      for problem in folderIcons.problems { reports.warning("\(problem); that icon is left out") }
      return IconSet.builtIn.adding(folderIcons)
    } catch {
      throw SignFailure("\(error)")
    }
  }

  /// The chain of `names`, loading each font not loaded yet, and the fonts' identities.
  ///
  /// - Throws: ``UsageError`` for an unknown name, ``NotOffered`` for a font `access` does
  ///   not allow, ``SignFailure`` for a file that cannot be read.
  func chain(_ names: [String], access: Access = .any) throws -> (chain: FontChain, identities: [Identity]) {
    var chain: [any Font] = []
    var identities: [Identity] = []
    for name in names {
      let (identity, source) = try resolve(name, access: access)
      identities.append(identity)
      if let font = fonts.withLock({ $0[identity] }) ?? host?.fonts.withLock({ $0[identity] }) {
        chain.append(font)
        continue
      }
      if let budget, case .file(_, _, let size, _) = identity {
        let allowed = spent.withLock { spent in
          guard spent + size <= budget else { return false }
          spent += size
          return true
        }
        guard allowed else { throw OverBudget(name: name, budget: budget) }
      }
      // Loaded with no lock held: a large file never keeps the frame loop's commits
      // waiting. Two loading the same file at once keep the first one stored.
      let loaded = try source()
      chain.append(fonts.withLock { fonts in
        if let stored = fonts[identity] { return stored }
        fonts[identity] = loaded
        return loaded
      })
    }
    return (FontChain(chain, icons: icons), identities)
  }

  /// Keeps only the fonts in `used`: a font no zone shows is freed.
  func keep(only used: Set<Identity>) {
    fonts.withLock { fonts in fonts = fonts.filter { used.contains($0.key) } }
  }

  /// How many fonts are loaded.
  var count: Int { fonts.withLock { $0.count } }

  /// What `name` means, and how to load it.
  func resolve(_ name: String, access rule: Access) throws -> (Identity, () throws -> any Font) {
    if let builtin = FontLocator.builtin(named: name) {
      return (.builtin(builtin.names[0]), { builtin.font })
    }
    var path: String?
    switch rule {
    case .any:
      path = FontLocator.file(named: name)
      if path == nil {
        throw UsageError(FontLocator.UnknownFont(name: name, suggestion: closestName(to: name, among: FontLocator.names)).description)
      }
    case .offered(let folders, let started):
      if started.contains(name) {
        path = FontLocator.file(named: name)
      } else if !name.contains("/") {
        path = FontLocator.path(named: name)
      } else if let real = FontCache.realPath(name), folders.contains(where: { real.hasPrefix($0 + "/") }) {
        path = real
      }
      guard path != nil else { throw NotOffered(name: name) }
    }
    let file = path!
    guard let info = FileStatus(path: file) else { throw SignFailure("\(file): \(SystemError.last("stat").reason)") }
    let identity = Identity.file(device: info.device, inode: info.inode, size: info.size, modified: info.modified)
    return (identity, { [reports] in
      let loaded: FontFile.Loaded
      do {
        loaded = try FontFile.load(path: file)
      } catch {
        throw SignFailure("\(error)")
      }
      for warning in loaded.warnings.prefix(3) { reports.warning("\(warning)") }
      if loaded.warnings.count > 3 { reports.warning("\(loaded.warnings.count - 3) more problems in \(name)") }
      return loaded.font
    })
  }

  /// The access of the HTTP API: the font folders and the folders of the font files the sign
  /// started with, and the names it started with.
  package static func offered(startingWith names: [String]) -> Access {
    var folders = FontLocator.searchFolders.compactMap(realPath)
    for name in names where name.contains("/") {
      if let real = realPath(name), let slash = real.lastIndex(of: "/") { folders.append(String(real[..<slash])) }
    }
    return .offered(folders: folders, started: Set(names))
  }

  /// The path with links, `.` and `..` resolved, or nil if it does not exist.
  static func realPath(_ path: String) -> String? { FileSystem.resolvedPath(path) }
}
