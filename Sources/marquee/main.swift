import Platform
import MarqueeCLI

Environment.exitProcess(MarqueeCommand.main(Array(CommandLine.arguments.dropFirst())))
