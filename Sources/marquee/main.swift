#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MarqueeCLI

exit(MarqueeCommand.main(Array(CommandLine.arguments.dropFirst())))
