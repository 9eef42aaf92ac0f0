// What `import Drivers` brings: the MAX7219 core (encoder, board, SPI transactions, chain
// emulator) as well as the other families and the transports of this module.
@_exported import MAX7219Core
