import ArgumentParser
import Foundation
import KeywardCore
import KeywardRules

public struct KeywardCLI: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "keyward",
    abstract: "Finds misuse of the Keychain and of biometric authentication in iOS and macOS apps.",
    version: KeywardVersion.current,
    subcommands: [
      ScanCommand.self, InventoryCommand.self, RulesCommand.self, ExplainCommand.self, BaselineCommand.self,
      FixCommand.self, ConfigCommand.self, LSPCommand.self, MCPCommand.self,
    ])

  public init() {}

  /// Parses `arguments` (without the program name), runs the command, and returns its exit
  /// status with everything it printed. Usage and configuration errors return 2.
  public static func run(
    _ arguments: [String], isTerminal: Bool = false, streamsStandardOutput: Bool = false,
    progress: ProgressMeter? = nil
  ) -> (status: Int32, output: CommandOutput) {
    var output = CommandOutput(isTerminal: isTerminal, streamsStandardOutput: streamsStandardOutput)
    output.progress = progress
    // Help is answered here for every level of subcommand: `keyward baseline create --help` and
    // `keyward help config print` show their own usage, not their parent's.
    if let command = helpTarget(arguments) {
      output.print(helpMessage(for: command))
      return (ExitStatus.clean, output)
    }
    do {
      let command = try parseAsRoot(arguments)
      guard let runnable = command as? any KeywardCommand else {
        // `keyward` alone, or a command group (`keyward config`): its help.
        output.print(helpMessage(for: type(of: command)))
        return (ExitStatus.clean, output)
      }
      return (try runnable.execute(&output), output)
    } catch let error as UsageError {
      output.warn("error: \(error.description)")
      return (ExitStatus.usageError, output)
    } catch let error as ConfigurationError {
      output.warn("error: \(error.description)")
      return (ExitStatus.usageError, output)
    } catch let error as ScanSetupError {
      output.warn("error: \(error.description)")
      return (ExitStatus.usageError, output)
    } catch {
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success {
        output.print(message)
        return (ExitStatus.clean, output)
      }
      output.standardError += message.hasSuffix("\n") ? message : message + "\n"
      // ArgumentParser reports usage errors as 64; Keyward's contract is 2.
      return (code == .validationFailure ? ExitStatus.usageError : code.rawValue, output)
    }
  }

  /// The command whose help is asked for: `keyward help A B`, or `keyward A B ... --help` (or
  /// `-h`) before any `--`; nil when no help is asked for.
  static func helpTarget(_ arguments: [String]) -> (any ParsableCommand.Type)? {
    let words: ArraySlice<String>
    if arguments.first == "help" {
      words = arguments.dropFirst()
    } else if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
      words = arguments[...]
    } else {
      return nil
    }
    var command: any ParsableCommand.Type = KeywardCLI.self
    for word in words where !word.hasPrefix("-") {
      guard let sub = command.configuration.subcommands.first(where: { $0.configuration.commandName == word }) else {
        break
      }
      command = sub
    }
    return command
  }

  /// The executable's entry point.
  public static func runAsMain() -> Never {
    // Progress goes to standard error on a terminal, unless the report streams to the same one.
    let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    let arguments = Array(CommandLine.arguments.dropFirst())
    let reportOnTerminal = stdoutIsTerminal && !arguments.contains { $0 == "--output" || $0.hasPrefix("--output=") }
    let (status, output) = run(
      arguments, isTerminal: stdoutIsTerminal, streamsStandardOutput: true,
      progress: reportOnTerminal ? nil : ProgressMeter.forStandardError())
    FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
    FileHandle.standardError.write(Data(output.standardError.utf8))
    Foundation.exit(status)
  }
}
