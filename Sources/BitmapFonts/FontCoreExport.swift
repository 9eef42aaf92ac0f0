// What `import BitmapFonts` brings: the font core (glyphs, built-in fonts, icons, layout) as
// well as the font files of this module.
@_exported import FontCore
