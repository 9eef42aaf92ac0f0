# The files of each part of the engine that builds in Embedded Swift, in arrays
# (sourced by build-check.sh and run-qemu.sh from the package's root).
# The font core: glyphs, the built-in fonts and icons, FontChain, TextRenderer and the
# writing-system tables. Left out, as they need an operating system or are not needed on a
# microcontroller: font files and the font locator, the file formats' readers, the icon
# folder and picture files with their decoders.
font_core=()
while IFS= read -r file; do font_core+=("$file"); done < <(
  find Sources/BitmapFonts -name '*.swift' \
    ! -name FontFile.swift ! -name FontLocator.swift ! -name FontSummary.swift \
    ! -path '*/Formats/*' ! -name 'IconSet+Folder.swift' ! -name PictureFile.swift ! -name '*Decoder.swift' | sort)
# The timeline core: ribbon, cycle, transitions, zones and the Chinese calendar, on the
# total conversions. Left out, as they need an operating system: the player and its clock,
# the sign controller and the stop flag, the sign with its notifications. The text
# templates' time placeholders are left out inside (`#if !hasFeature(Embedded)`).
timeline_core=()
while IFS= read -r file; do timeline_core+=("$file"); done < <(
  find Sources/Marquee -name '*.swift' \
    ! -name Player.swift ! -name PlayerClock.swift ! -name SignController.swift ! -name StopFlag.swift \
    ! -name 'Sign+Notifications.swift' ! -name Sign.swift ! -name NotificationQueue.swift | sort)
# The MAX7219 core of Drivers: the encoder, its board and wiring, the SPI transactions it
# writes into and the chain's emulator. Left out: board files (JSON), the transports to the
# kernel, the displays and the other chip families.
max7219_core=(Sources/Drivers/FrameEncoder.swift Sources/Drivers/DimmingStep.swift Sources/Drivers/Layout.swift
  Sources/Drivers/InvalidBoardValue.swift Sources/Drivers/Transports/SPI/SPITransactions.swift
  Sources/Drivers/MAX7219/BitBlock.swift Sources/Drivers/MAX7219/MAX7219Board.swift Sources/Drivers/MAX7219/ModuleWiring.swift
  Sources/Drivers/MAX7219/MAX7219Register.swift Sources/Drivers/MAX7219/MAX7219Encoder.swift
  Sources/Drivers/MAX7219/MAX7219Encoder+Blocks.swift Sources/Drivers/MAX7219/MAX7219Encoder+Segments.swift
  Sources/Drivers/MAX7219/MAX7219ChainEmulator.swift)
