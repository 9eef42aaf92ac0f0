// Gzip, read by the font files, lives in Deflate (the zip archives of live sources read it
// too); `import BitmapFonts` still brings it.
@_exported import Deflate
