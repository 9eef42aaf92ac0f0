# The modules of the engine that build in Embedded Swift, each a target of Package.swift
# whose folder under Sources is built whole (sourced by build-check.sh and run-qemu.sh from
# the package's root), in the order they import each other:
#   MatrixCore      pixels: framebuffers, frames, the display protocol
#   TotalConversion conversions to fixed-width integers that never trap
#   FontCore        glyphs, the built-in fonts and icons, FontChain, TextRenderer, writing systems
#   TimelineCore    ribbon, cycle, transitions, zones, the Chinese calendar (the time
#                   placeholders are left out inside, `#if !hasFeature(Embedded)`)
#   MAX7219Core     the MAX7219 encoder, its board and wiring, SPI transactions, the chain's emulator
# What needs an operating system is in the modules that import these (BitmapFonts, Marquee,
# Drivers), so nothing is picked out of a module by file name.
embedded_modules=(MatrixCore TotalConversion FontCore TimelineCore MAX7219Core)

# module_files MODULE: the Swift files of MODULE's folder, in order.
module_files() {
  find "Sources/$1" -name '*.swift' | sort
}
