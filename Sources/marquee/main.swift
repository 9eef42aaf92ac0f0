import Platform
import MarqueeCLI

exit(MarqueeCommand.main(Array(CommandLine.arguments.dropFirst())))
