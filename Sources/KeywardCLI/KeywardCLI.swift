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
      ScanCommand.self, RulesCommand.self, ExplainCommand.self, BaselineCommand.self, FixCommand.self,
      ConfigCommand.self,
    ])

  public init() {}

  /// Parses `arguments` (without the program name), runs the command, and returns its exit
  /// status with everything it printed. Usage and configuration errors return 2.
  public static func run(
    _ arguments: [String], isTerminal: Bool = false, streamsStandardOutput: Bool = false
  ) -> (status: Int32, output: CommandOutput) {
    var output = CommandOutput(isTerminal: isTerminal, streamsStandardOutput: streamsStandardOutput)
    do {
      let command = try parseAsRoot(arguments)
      guard let runnable = command as? any KeywardCommand else {
        // `keyward` alone, `keyward help [SUBCOMMAND]`: the help of the subcommand named, or the overview.
        let named = configuration.subcommands.first { arguments.contains($0.configuration.commandName ?? "") }
        output.print(helpMessage(for: named ?? KeywardCLI.self))
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

  /// The executable's entry point.
  public static func runAsMain() -> Never {
    let (status, output) = run(
      Array(CommandLine.arguments.dropFirst()), isTerminal: isatty(STDOUT_FILENO) == 1, streamsStandardOutput: true)
    FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
    FileHandle.standardError.write(Data(output.standardError.utf8))
    Foundation.exit(status)
  }
}
